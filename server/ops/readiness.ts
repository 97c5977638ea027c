import type { AppDeps } from "../deps.ts";
import { kvAnswers } from "../kv/probe.ts";

/** What readiness checks, each true when it holds. */
export interface ReadinessChecks {
  /** The store answered a read and an atomic versionstamp check (server/kv/probe.ts). */
  kv: boolean;
  /** The process's job runner runs: emails, payment events, expiries and refunds move. */
  queue: boolean;
  /** The built client is there (its index.html): pages can be served. */
  client: boolean;
}

/** Readiness: every check, and when one fails, one sentence naming each that failed. */
export type Readiness =
  | { ready: true; checks: ReadinessChecks }
  | { ready: false; checks: ReadinessChecks; error: string };

const FAILURES: Record<keyof ReadinessChecks, string> = {
  kv: "the store (KV) did not answer a read and a check",
  queue: "the job runner is not running",
  client: "the client is not built (run deno task build)",
};

/**
 * Whether this process can serve shoppers now: the store answers, the job runner runs and the
 * client is built. A process without a job runner (an app no main.ts started) is not ready.
 */
export async function checkReadiness(
  deps: Pick<AppDeps, "kv" | "config" | "queue">,
): Promise<Readiness> {
  const [kv, client] = await Promise.all([
    kvAnswers(deps.kv),
    clientBuilt(deps.config.distDir),
  ]);
  const checks = { kv, queue: deps.queue?.running() ?? false, client };
  const failed = (Object.keys(checks) as (keyof ReadinessChecks)[]).filter((k) => !checks[k]);
  if (failed.length === 0) return { ready: true, checks };
  const reasons = failed.map((k) => FAILURES[k]).join("; ");
  return { ready: false, checks, error: `The shop is not ready: ${reasons}.` };
}

async function clientBuilt(distDir: string): Promise<boolean> {
  try {
    return (await Deno.stat(`${distDir}/index.html`)).isFile;
  } catch {
    return false;
  }
}
