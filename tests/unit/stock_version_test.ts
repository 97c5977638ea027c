/**
 * The stock version's trust rules (server/db/stock_version.ts): a write by this process is seen by
 * the next read (other processes' writes: catalog_cache_test.ts), and views built per version are
 * built once per version, not once per request.
 */
import assert from "node:assert/strict";
import { keys } from "../../server/kv/keys.ts";
import { measure, remoteKv } from "../helpers/remote_kv.ts";
import { commitStockChange, perStockVersion, readStockVersion } from "../../server/kv/version.ts";

async function freshKv(): Promise<Deno.Kv> {
  const kv = await Deno.openKv(":memory:");
  await kv.set(keys.stockVersion(), 0);
  return kv;
}

Deno.test("a write committed by this process is seen by the very next read", async () => {
  using kv = await freshKv();
  const before = await readStockVersion(kv);
  assert.ok(await commitStockChange(kv, kv.atomic(), 1));
  const after = await readStockVersion(kv);
  assert.notEqual(after, before);
  assert.equal(after, (await kv.get(keys.stockVersion())).versionstamp);
});

Deno.test("a per-version view is built once for many concurrent readers, again after a write", async () => {
  using kv = await freshKv();
  let builds = 0;
  const view = perStockVersion((_kv) => Promise.resolve(++builds));
  const first = await Promise.all(Array.from({ length: 20 }, () => view(kv)));
  assert.deepEqual(new Set(first), new Set([1]));
  assert.equal(await view(kv), 1, "no rebuild while the version holds");
  await commitStockChange(kv, kv.atomic(), 2);
  assert.equal(await view(kv), 2, "rebuilt for the new version");
  assert.equal(builds, 2);
});

Deno.test("views asked for together share one read of the version", async () => {
  using kv = await freshKv();
  const remote = remoteKv(kv, { readMs: 1, commitMs: 1, enqueueMs: 1 });
  const views = [1, 2, 3].map((n) => perStockVersion((_kv) => Promise.resolve(n)));
  // Stale trust: the first ask of the test reads the version, as the first request after a change.
  const together = await measure(remote, () => Promise.all(views.map((view) => view(remote))));
  assert.deepEqual(together.result, [1, 2, 3]);
  assert.equal(together.roundTrips, 1, "one read of the version for the three views");
  assert.equal(together.calls, 1);
});
