/**
 * `deno task sim [--runs N] [--seed S] [--path P] [--steps MIN-MAX]`: plays random histories of
 * the shop with faults and checks every invariant after every step (tests/sim/). A failure prints
 * its seed, the shrunk history as steps a person can read, and the command that replays it.
 */
import { type Played, runHistories, type RunReport } from "./history.ts";
import { PLAY_KEYS } from "./play.ts";
import { trace } from "./commands/base.ts";

/** The budget CI plays: at least 300 histories of 40 steps or more. */
export const CI_BUDGET = { runs: 300, length: { min: 40, max: 56 } };

/** Reads the command line. */
export function parseArgs(args: string[]) {
  const value = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const steps = value("--steps")?.split("-").map(Number);
  return {
    runs: Number(value("--runs") ?? CI_BUDGET.runs),
    seed: Number(value("--seed") ?? Date.now() % 2 ** 31),
    path: value("--path"),
    length: steps ? { min: steps[0], max: steps[1] ?? steps[0] } : CI_BUDGET.length,
    trace: args.includes("--trace"),
  };
}

/** What a run played, counted as it goes. */
export function tally() {
  const faults = new Map<string, number>();
  const counts = { histories: 0, steps: 0, instances: [0, 0, 0, 0], remote: 0 };
  return {
    faults,
    counts,
    add(played: Played) {
      counts.histories++;
      counts.steps += played.steps;
      counts.instances[played.instances]++;
      if (played.mode === "remote") counts.remote++;
      for (const f of played.faults) faults.set(f, (faults.get(f) ?? 0) + 1);
    },
  };
}

/** The lines a failed run prints. */
export function describeFailure(report: RunReport): string[] {
  const s = report.setting!;
  return [
    `FAILED after ${report.histories} passing histories: ${report.error}`,
    "",
    `Setting: ${s.instances} instance(s), ${s.mode} payments, random seed ${s.random}, ${`limit ${s.limit}`}`,
    `Opening counts (level): ${
      PLAY_KEYS.map((k, i) =>
        `${k}=${s.shelves[i]}${s.levels[i] === null ? "" : `(${s.levels[i]})`}`
      ).join(" ")
    }`,
    "Shrunk history:",
    ...report.history!.map((step, i) => `  ${i + 1}. ${step}`),
    "  then: the world heals and every invariant is checked",
    "",
    ...(report.logs?.length
      ? ["Last log lines:", ...report.logs.map((l) => `  ${JSON.stringify(l)}`), ""]
      : []),
    `Replay: deno task sim --seed ${report.seed}${report.path ? ` --path ${report.path}` : ""}`,
  ];
}

async function main(): Promise<void> {
  const options = parseArgs(Deno.args);
  trace.on = options.trace;
  const counted = tally();
  const started = performance.now();
  const report = await runHistories({ ...options, onPlayed: counted.add });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (!report.ok) {
    console.log(describeFailure(report).join("\n"));
    Deno.exit(1);
  }
  const { histories, steps, instances, remote } = counted.counts;
  console.log(
    `ok: ${histories} histories, ${steps} steps (seed ${report.seed}) in ${seconds} s; ` +
      `instances 1/2/3: ${instances.slice(1).join("/")}; remote payments in ${remote}`,
  );
  console.log("Faults played (histories):");
  for (const [fault, n] of [...counted.faults].sort()) console.log(`  ${fault}: ${n}`);
}

if (import.meta.main) await main();
