/**
 * Migrations on a new store (server/ops/migrations.ts): nothing to migrate, so all are marked done
 * in one write; a store holding anything runs each one not marked, as before.
 */
import assert from "node:assert/strict";
import { migrate } from "../../server/ops/migrations.ts";
import { keys } from "../../server/kv/keys.ts";
import { fixedClock } from "../helpers/test_app.ts";

const MARKERS = keys.migration("").slice(0, -1);

async function markers(kv: Deno.Kv): Promise<string[]> {
  return (await Array.fromAsync(kv.list({ prefix: MARKERS }))).map((e) => JSON.stringify(e.key));
}

Deno.test("a new store is marked migrated in one write, with the markers running them leaves", async () => {
  using fresh = await Deno.openKv(":memory:");
  using used = await Deno.openKv(":memory:");
  await used.set(["something", "from", "before"], 1);

  assert.deepEqual(
    await migrate(fresh, fixedClock()),
    { applied: [], newStore: true },
    "nothing run on an empty store, which is reported new",
  );
  const { applied: ran, newStore } = await migrate(used, fixedClock());
  assert.equal(newStore, false, "a store holding anything is not new");
  assert.ok(ran.length > 0, "a store holding anything runs its migrations");
  assert.deepEqual(ran, [...ran].sort((a, b) => a - b), "in order");
  assert.deepEqual(await markers(fresh), await markers(used), "the same migrations count as done");

  const again = { applied: [], newStore: false };
  assert.deepEqual(await migrate(fresh, fixedClock()), again, "none runs again, and it is not new");
  assert.deepEqual(await migrate(used, fixedClock()), again, "none runs again");
});

Deno.test("two processes starting on one new store at once: one marks, neither runs anything", async () => {
  using kv = await Deno.openKv(":memory:");
  const answers = await Promise.all([migrate(kv, fixedClock()), migrate(kv, fixedClock())]);
  assert.deepEqual(answers.map((a) => a.applied), [[], []]);
  assert.equal(answers.filter((a) => a.newStore).length, 1, "one of them found it new");
  using alone = await Deno.openKv(":memory:");
  await migrate(alone, fixedClock());
  assert.deepEqual(await markers(kv), await markers(alone), "every migration counts as done");
});
