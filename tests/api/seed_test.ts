/**
 * Seeding (server/ops/seed.ts): a new store is written without reading each key first, and holds
 * what seeding any other store writes; a key written meanwhile by someone else is never
 * overwritten, and the rest still arrives, however often that happens.
 */
import assert from "node:assert/strict";
import { seedKv } from "../../server/ops/seed.ts";
import { Unavailable } from "../../server/errors.ts";
import { keys } from "../../server/kv/keys.ts";
import { switchKey } from "../../shared/bom.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { fixedClock } from "../helpers/test_app.ts";

const UNRELATED = ["left", "from", "before"];

/** Every entry's key and value (versionstamps differ between stores). */
async function contents(kv: Deno.Kv): Promise<Map<string, unknown>> {
  const all = new Map<string, unknown>();
  for await (const e of kv.list({ prefix: [] })) all.set(JSON.stringify(e.key), e.value);
  return all;
}

/** The store, with its getMany calls counted and a hook run before each atomic commit. */
function watched(kv: Deno.Kv, beforeCommit: (n: number) => Promise<void> = async () => {}) {
  const seen = { getMany: 0, commits: 0 };
  const proxy = new Proxy(kv, {
    get(target, name) {
      if (name === "getMany") {
        return (...args: Parameters<Deno.Kv["getMany"]>) => {
          seen.getMany++;
          return target.getMany(...args);
        };
      }
      if (name === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = async () => {
            await beforeCommit(++seen.commits);
            return await commit();
          };
          return op;
        };
      }
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: proxy, seen };
}

Deno.test("a new store is seeded without a read per key, and holds what any other seeding writes", async () => {
  using fresh = await Deno.openKv(":memory:");
  using used = await Deno.openKv(":memory:");
  await used.set(UNRELATED, 1);
  const newOne = watched(fresh);
  const oldOne = watched(used);

  await seedKv(newOne.kv, fixedClock());
  await seedKv(oldOne.kv, fixedClock());

  assert.equal(newOne.seen.getMany, 0, "nothing read key by key on a new store");
  assert.ok(oldOne.seen.getMany > 20, "a store holding anything reads which keys are missing");
  const written = await contents(used);
  written.delete(JSON.stringify(UNRELATED));
  assert.deepEqual(await contents(fresh), written);
});

Deno.test("on a new store, what another process writes before the seed lands is kept, and the rest arrives", async () => {
  using kv = await Deno.openKv(":memory:");
  using reference = await Deno.openKv(":memory:");
  await seedKv(reference, fixedClock());
  const first = SWITCHES[0];
  const ownerNotice = { text: "Closed for the holidays", active: true, updatedAt: 1 };
  const counted = { stock: 40, reserved: 2, used: 5 };
  // The first commit marks the migrations (the store is found new); before any of the seed's own
  // writes lands, another process writes a notice and a switch's count.
  let sneaked: Promise<void> | null = null;
  const { kv: racing } = watched(kv, async (n) => {
    if (n === 1) return;
    sneaked ??= (async () => {
      await kv.set(keys.notice(), ownerNotice);
      await kv.set(keys.stock(switchKey(first.id)), counted);
    })();
    await sneaked;
  });

  await seedKv(racing, fixedClock());

  assert.deepEqual((await kv.get(keys.notice())).value, ownerNotice, "the other's notice is kept");
  assert.deepEqual((await kv.get(keys.stock(switchKey(first.id)))).value, counted);
  const got = await contents(kv);
  const want = await contents(reference);
  assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort(), "every seeded key arrived");
  for (const [key, value] of want) {
    if (key === JSON.stringify(keys.notice())) continue;
    if (key === JSON.stringify(keys.stock(switchKey(first.id)))) continue;
    if (key === JSON.stringify(keys.stockVersion())) continue;
    assert.deepEqual(got.get(key), value, key);
  }
});

for (const start of ["a new store", "a store holding something"]) {
  Deno.test(`on ${start}, a key written before each of the seed's writes is kept, and every other arrives`, async () => {
    using kv = await Deno.openKv(":memory:");
    using reference = await Deno.openKv(":memory:");
    await seedKv(reference, fixedClock());
    if (start !== "a new store") {
      await kv.set(UNRELATED, 1);
      await reference.set(UNRELATED, 1);
    }
    // Before every commit but the first (on a new store, the migrations' markers; on the other,
    // the seed's own first write), another writer sets the next switch's
    // count: each batch of stock meets a key written since it was found missing, again and again.
    const theirs = new Map<string, { stock: number; reserved: number; used: number }>();
    const { kv: racing } = watched(kv, async (n) => {
      if (n === 1 || theirs.size >= 8) return;
      const key = keys.stock(switchKey(SWITCHES[theirs.size].id));
      const record = { stock: 100 + theirs.size, reserved: 0, used: 0 };
      theirs.set(JSON.stringify(key), record);
      await kv.set(key, record);
    });

    await seedKv(racing, fixedClock());

    assert.equal(theirs.size, 8, "the other writer wrote before eight commits");
    const got = await contents(kv);
    const want = await contents(reference);
    assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort(), "every seeded key arrived");
    for (const [key, value] of want) {
      if (key === JSON.stringify(keys.stockVersion())) continue;
      assert.deepEqual(got.get(key), theirs.get(key) ?? value, key);
    }
  });
}

Deno.test("a seed whose keys are written before every one of its tries stops with a sentence, not a loop", async () => {
  using kv = await Deno.openKv(":memory:");
  let next = 0;
  const { kv: racing } = watched(kv, async (n) => {
    if (n === 1 || next >= SWITCHES.length) return;
    await kv.set(keys.stock(switchKey(SWITCHES[next++].id)), { stock: 1, reserved: 0, used: 0 });
  });
  await assert.rejects(
    () => seedKv(racing, fixedClock()),
    (err: Error) => err instanceof Unavailable && /start the shop again/.test(err.message),
  );
  assert.ok(next > 30 && next < SWITCHES.length, `${next} writes met`);
  for (const s of SWITCHES.slice(0, next)) {
    assert.deepEqual(
      (await kv.get(keys.stock(switchKey(s.id)))).value,
      { stock: 1, reserved: 0, used: 0 },
      "the other writer's counts are kept",
    );
  }
});
