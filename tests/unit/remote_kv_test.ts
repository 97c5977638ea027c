/**
 * The remote KV stand-in (tests/helpers/remote_kv.ts): the shop's own KV operations work through
 * it, it delays what it should, and it counts a request's sequential round trips the way the
 * latency bench reports them.
 */
import assert from "node:assert/strict";
import { measure, remoteKv } from "../helpers/remote_kv.ts";
import { keys } from "../../server/kv/keys.ts";
import { commitStockChange, readStockVersion } from "../../server/kv/version.ts";

const SMALL = { readMs: 4, commitMs: 12, enqueueMs: 12 };

Deno.test("reads, writes and checked commits go through to the real KV", async () => {
  using real = await Deno.openKv(":memory:");
  const kv = remoteKv(real, SMALL);
  await kv.set(["a"], 1);
  const entry = await kv.get<number>(["a"]);
  assert.equal(entry.value, 1);
  assert.ok((await kv.atomic().check(entry).set(["a"], 2).sum(["n"], 3n).commit()).ok);
  assert.equal((await real.get(["a"])).value, 2);
  assert.equal((await real.get<Deno.KvU64>(["n"])).value?.value, 3n);
  const [a, n] = await kv.getMany<[number, Deno.KvU64]>([["a"], ["n"]]);
  assert.equal(a.value, 2);
  assert.equal(n.value?.value, 3n);
  await kv.delete(["a"]);
  assert.equal((await real.get(["a"])).value, null);
});

Deno.test("a commit whose checked entry changed meanwhile is refused, as on the real KV", async () => {
  using real = await Deno.openKv(":memory:");
  const kv = remoteKv(real, SMALL);
  await kv.set(["a"], 1);
  const stale = await kv.get(["a"]);
  await real.set(["a"], 9);
  const result = await kv.atomic().check(stale).set(["a"], 2).commit();
  assert.equal(result.ok, false);
  assert.equal((await real.get(["a"])).value, 9);
});

Deno.test("the shop's stock writer works through it and bumps the version", async () => {
  using real = await Deno.openKv(":memory:");
  await real.set(keys.stockVersion(), 0);
  const kv = remoteKv(real, SMALL);
  const before = await readStockVersion(kv);
  assert.ok(await commitStockChange(kv, kv.atomic(), 1));
  assert.notEqual(await readStockVersion(kv), before);
});

Deno.test("lists answer every entry, one delayed call per page", async () => {
  using real = await Deno.openKv(":memory:");
  for (let i = 0; i < 5; i++) await real.set(["l", i], i);
  const kv = remoteKv(real, SMALL);
  const { result, calls, roundTrips } = await measure(kv, async () => {
    const seen: number[] = [];
    for await (const e of kv.list<number>({ prefix: ["l"] }, { batchSize: 2 })) seen.push(e.value);
    return seen;
  });
  assert.deepEqual(result, [0, 1, 2, 3, 4]);
  assert.equal(calls, 3, "pages of 2, 2 and 1");
  assert.equal(roundTrips, 3);
});

Deno.test("each kind of call waits for its delay", async () => {
  using real = await Deno.openKv(":memory:");
  const kv = remoteKv(real, SMALL);
  let t = performance.now();
  await kv.get(["a"]);
  assert.ok(performance.now() - t >= SMALL.readMs - 1, "read delayed");
  t = performance.now();
  await kv.atomic().set(["a"], 1).commit();
  assert.ok(performance.now() - t >= SMALL.commitMs - 1, "commit delayed");
  t = performance.now();
  await kv.set(["b"], 1);
  assert.ok(performance.now() - t >= SMALL.commitMs - 1, "a plain set is a commit");
  t = performance.now();
  await kv.enqueue({ type: "nothing" }, { delay: 60_000 });
  assert.ok(performance.now() - t >= SMALL.enqueueMs - 1, "enqueue delayed");
  // Reads answer before a commit started together with them.
  const order: string[] = [];
  await Promise.all([
    kv.atomic().set(["c"], 1).commit().then(() => order.push("commit")),
    kv.get(["a"]).then(() => order.push("read")),
  ]);
  assert.deepEqual(order, ["read", "commit"]);
});

Deno.test("with every delay 0 no timer is set", async () => {
  using real = await Deno.openKv(":memory:");
  const kv = remoteKv(real, { readMs: 0, commitMs: 0, enqueueMs: 0 });
  const realSetTimeout = globalThis.setTimeout;
  let timers = 0;
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    timers++;
    return realSetTimeout(...args);
  }) as typeof setTimeout;
  try {
    await kv.set(["a"], 1);
    const entry = await kv.get(["a"]);
    await kv.atomic().check(entry).set(["a"], 2).commit();
    await kv.getMany([["a"], ["b"]]);
    for await (const _ of kv.list({ prefix: [] })) { /* drain */ }
    await measure(kv, () => Promise.all([kv.get(["a"]), kv.set(["b"], 1)]));
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
  assert.equal(timers, 0);
});

Deno.test("separate wrappers over one KV are separate objects sharing the data", async () => {
  using real = await Deno.openKv(":memory:");
  const zero = { readMs: 0, commitMs: 0, enqueueMs: 0 };
  const one = remoteKv(real, zero);
  const two = remoteKv(real, zero);
  assert.notEqual(one, two);
  await one.set(["shared"], "yes");
  assert.equal((await two.get(["shared"])).value, "yes");
});

Deno.test("reads issued together are one round trip", async () => {
  using real = await Deno.openKv(":memory:");
  const kv = remoteKv(real, SMALL);
  const m = await measure(kv, () => Promise.all([kv.get(["a"]), kv.get(["b"]), kv.get(["c"])]));
  assert.equal(m.calls, 3);
  assert.equal(m.roundTrips, 1);
});

Deno.test("a read then a commit are two round trips", async () => {
  using real = await Deno.openKv(":memory:");
  const kv = remoteKv(real, SMALL);
  const m = await measure(kv, async () => {
    const entry = await kv.get(["a"]);
    return (await kv.atomic().check(entry).set(["a"], 1).commit()).ok;
  });
  assert.equal(m.result, true);
  assert.equal(m.calls, 2);
  assert.equal(m.roundTrips, 2);
  assert.deepEqual(m.log.map((c) => [c.method, c.detail, c.depth]), [
    ["get", "a", 1],
    ["commit", "check a; set a", 2],
  ]);
});

Deno.test("getMany is one round trip", async () => {
  using real = await Deno.openKv(":memory:");
  const kv = remoteKv(real, SMALL);
  const m = await measure(kv, () => kv.getMany([["a"], ["b"], ["c"], ["d"]]));
  assert.equal(m.calls, 1);
  assert.equal(m.roundTrips, 1);
});

Deno.test("the critical path counts calls waiting on calls, not calls side by side", async () => {
  using real = await Deno.openKv(":memory:");
  const kv = remoteKv(real, SMALL);
  // A chain of two beside a single read, then one more after both: 3, not 4.
  const m = await measure(kv, async () => {
    await Promise.all([kv.get(["a"]).then(() => kv.get(["b"])), kv.get(["c"])]);
    await kv.get(["d"]);
  });
  assert.equal(m.calls, 4);
  assert.equal(m.roundTrips, 3);
});

Deno.test("nested and concurrent requests are counted apart, background work apart from both", async () => {
  using real = await Deno.openKv(":memory:");
  const kv = remoteKv(real, SMALL);
  await kv.set(["setup"], 1);
  assert.equal(kv.background.calls, 1);
  let inner: Awaited<ReturnType<typeof measure>> | undefined;
  const [outer, beside] = await Promise.all([
    measure(kv, async () => {
      await kv.get(["a"]);
      inner = await measure(kv, async () => {
        await kv.get(["x"]);
        await kv.get(["y"]);
        await kv.get(["z"]);
      });
      await kv.get(["b"]);
    }),
    measure(kv, () => kv.get(["c"])),
  ]);
  assert.equal(outer.calls, 2);
  assert.equal(outer.roundTrips, 2);
  assert.equal(inner?.calls, 3);
  assert.equal(inner?.roundTrips, 3);
  assert.equal(beside.calls, 1);
  assert.equal(beside.roundTrips, 1);
  assert.equal(kv.background.calls, 1, "no request's calls counted as background");
});

Deno.test("calls a request leaves running after it answered count as background", async () => {
  using real = await Deno.openKv(":memory:");
  const kv = remoteKv(real, SMALL);
  let later: Promise<unknown> = Promise.resolve();
  const m = await measure(kv, async () => {
    await kv.get(["a"]);
    later = new Promise((resolve) => setTimeout(resolve, 5)).then(() => kv.get(["b"]));
  });
  await later;
  assert.equal(m.calls, 1);
  assert.equal(kv.background.calls, 1);
});
