import assert from "node:assert/strict";
import { withLock } from "../../server/kv/kv_util.ts";
import { queuedJobs } from "../../server/stock/batch.ts";

/**
 * Holds the stock batcher's lock while the requests start one after another, each once the one
 * before waits for the batch, so they share the next batch in this order.
 */
export async function inOneBatch<T>(kv: Deno.Kv, starts: (() => Promise<T>)[]): Promise<T[]> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const held = withLock("stock", () => gate);
  const started: Promise<T>[] = [];
  for (const start of starts) {
    started.push(start());
    for (let i = 0; i < 10_000 && queuedJobs(kv) < started.length; i++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    assert.equal(queuedJobs(kv), started.length, "the jobs wait for the same batch");
  }
  open();
  await held;
  return await Promise.all(started);
}
