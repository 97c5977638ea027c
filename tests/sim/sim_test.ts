/**
 * The simulation's CI budget (tests/sim/run.ts, `deno task sim`): 300 random histories of 40 to
 * 56 steps from a fixed seed, every fault kind among them, every invariant checked after every
 * step. A failure prints the seed, the shrunk history and the command that replays it.
 */
import assert from "node:assert/strict";
import { runHistories } from "./history.ts";
import { CI_BUDGET, describeFailure, tally } from "./run.ts";

/** The seed CI plays (the long run, `deno task sim --runs 5000`, takes a new one each time). */
const CI_SEED = 20261126;

/** Faults the budget must have played, at least once each. */
const FAULT_KINDS = [
  /^process died after /,
  /^two at once at /,
  /^mail server down$/,
  /^provider refuses to stop$/,
  /^provider refuses to refund$/,
  /^provider refuses to create$/,
  /^job run twice$/,
  /^webhook delivered again$/,
  /^clock jumps past the holds$/,
  /^backup and restore$/,
  /^process restarted$/,
];

Deno.test("the simulated shop keeps every invariant through 300 histories with faults", async () => {
  const counted = tally();
  const report = await runHistories({ ...CI_BUDGET, seed: CI_SEED, onPlayed: counted.add });
  assert.ok(report.ok, report.ok ? "" : describeFailure(report).join("\n"));
  assert.ok(counted.counts.histories >= 300, `${counted.counts.histories} histories`);
  assert.ok(counted.counts.steps >= 300 * 40 * 0.9, `${counted.counts.steps} steps`);
  for (const kind of FAULT_KINDS) {
    assert.ok([...counted.faults.keys()].some((f) => kind.test(f)), `no history played ${kind}`);
  }
  for (const instances of [1, 2, 3]) {
    assert.ok(counted.counts.instances[instances] > 0, `no history ran ${instances} instance(s)`);
  }
  assert.ok(counted.counts.remote > 0 && counted.counts.remote < 300, "both payment shapes");
});
