import assert from "node:assert/strict";
import { backupLines, backupToFile, decodeValue, encodeValue } from "../../server/ops/backup.ts";
import { fileLines, restoreLines, RestoreRefused } from "../../server/ops/restore.ts";
import { seedKv } from "../../server/db/seed.ts";

/** Values of every kind Deno KV stores, including the ones JSON cannot hold. */
function variedEntries(): [Deno.KvKey, unknown][] {
  const mixed = new Uint8Array([0, 1, 254, 255]);
  return [
    [["text"], "plain text with \u00e9 and \u{1F511} and a\nnewline"],
    [["numbers", 1], 42],
    [["numbers", 2], -0],
    [["numbers", 3], NaN],
    [["numbers", 4], Infinity],
    [["numbers", 5], -Infinity],
    [["numbers", 6], 0.1 + 0.2],
    [["bool", true], false],
    [["null"], null],
    [["undefined"], undefined],
    [["bigint"], -12345678901234567890123n],
    [["u64"], new Deno.KvU64(18446744073709551615n)],
    [["date"], new Date(Date.UTC(2026, 10, 21, 12, 0, 0, 123))],
    [["date", "invalid"], new Date(NaN)],
    [["bytes"], mixed],
    [["typed", "i16"], new Int16Array([-1, 2, 32767])],
    [["typed", "f64"], new Float64Array([1.5, -0, NaN])],
    [["typed", "big"], new BigUint64Array([2n ** 64n - 1n])],
    [["buffer"], new Uint8Array([9, 8, 7]).buffer],
    [["regexp"], /^st[0-9]+$/gi],
    [
      ["map"],
      new Map<unknown, unknown>([["a", 1], [2, new Set([1n, "x"])], [null, { d: new Date(0) }]]),
    ],
    [["set"], new Set([1, "two", 3n])],
    [["array"], [1, "a", null, undefined, [new Uint8Array([1])], { nested: 2n }]],
    [["object"], { order: { items: [{ qty: 1 }], at: new Date(5), tags: new Set(["x"]) } }],
    [["tag collision"], { $kv: "bigint", v: "1" }],
    [["empty"], {}],
    [["key parts", 7n, new Uint8Array([1, 2]), true, -1.5, ""], "every key part type"],
    [["large"], "x".repeat(60_000)],
  ];
}

async function allEntries(kv: Deno.Kv): Promise<Deno.KvEntry<unknown>[]> {
  return await Array.fromAsync(kv.list({ prefix: [] }));
}

/** Asserts two stores hold the same keys and values, with the same types. */
async function assertSameStore(a: Deno.Kv, b: Deno.Kv): Promise<void> {
  const [left, right] = [await allEntries(a), await allEntries(b)];
  assert.equal(right.length, left.length);
  for (const [i, entry] of left.entries()) {
    assert.deepEqual(right[i].key, entry.key);
    assert.deepEqual(right[i].value, entry.value, `value of ${String(entry.key)}`);
    assert.equal(
      Object.prototype.toString.call(right[i].value),
      Object.prototype.toString.call(entry.value),
    );
    if (entry.value instanceof Deno.KvU64) {
      assert.ok(right[i].value instanceof Deno.KvU64);
      assert.equal((right[i].value as Deno.KvU64).value, entry.value.value);
    }
  }
}

Deno.test("backup then restore into a fresh KV gives back every entry, types included", async () => {
  await using source = await Deno.openKv(":memory:");
  for (const [key, value] of variedEntries()) await source.set(key, value);
  await seedKv(source);
  const lines = await Array.fromAsync(backupLines(source));
  assert.ok(lines.every((line) => !line.includes("\n")), "one entry per line");
  for (const line of lines) {
    const parsed = JSON.parse(line);
    assert.ok(Array.isArray(parsed.key));
    assert.ok("value" in parsed);
    assert.match(parsed.versionstamp, /^[0-9a-f]{20}$/);
  }

  await using target = await Deno.openKv(":memory:");
  assert.equal(await restoreLines(target, lines), lines.length);
  await assertSameStore(source, target);
  assert.ok(Object.is((await target.get(["numbers", 2])).value, -0));
  assert.ok(Number.isNaN((await target.get(["numbers", 3])).value));
});

Deno.test("through a file: tasks' round trip, and a non-empty target needs --force", async () => {
  const dir = await Deno.makeTempDir({ prefix: "backup-test-" });
  try {
    await using source = await Deno.openKv(":memory:");
    for (const [key, value] of variedEntries()) await source.set(key, value);
    const path = `${dir}/nested/backup.jsonl`;
    const count = await backupToFile(source, path);
    assert.equal(count, variedEntries().length);
    await assert.rejects(Deno.stat(`${path}.partial`), Deno.errors.NotFound);

    await using target = await Deno.openKv(":memory:");
    await target.set(["stale"], "left over");
    await assert.rejects(restoreLines(target, fileLines(path)), RestoreRefused);
    assert.equal((await target.get(["stale"])).value, "left over", "a refusal writes nothing");

    assert.equal(await restoreLines(target, fileLines(path), { force: true }), count);
    assert.equal((await target.get(["stale"])).versionstamp, null, "--force replaces everything");
    await assertSameStore(source, target);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a damaged backup is refused before anything is written", async () => {
  await using target = await Deno.openKv(":memory:");
  const good = JSON.stringify({ key: ["a"], value: 1 });
  for (const bad of ["{not json", JSON.stringify({ value: 1 }), JSON.stringify({ key: [] })]) {
    await assert.rejects(restoreLines(target, [good, bad]), RestoreRefused);
    assert.equal((await target.get(["a"])).versionstamp, null);
  }
  await assert.rejects(
    restoreLines(target, [JSON.stringify({ key: ["a"], value: { $kv: "nonsense" } })]),
    TypeError,
  );
});

Deno.test("the encoding keeps plain JSON readable and tags only what JSON cannot hold", () => {
  assert.deepEqual(encodeValue({ a: [1, "x", null, true] }), { a: [1, "x", null, true] });
  assert.deepEqual(encodeValue(5n), { $kv: "bigint", v: "5" });
  assert.deepEqual(encodeValue({ $kv: 1 }), { $kv: "object", v: { $kv: 1 } });
  assert.deepEqual(decodeValue(encodeValue({ $kv: 1 })), { $kv: 1 });
  assert.throws(() => encodeValue(() => 1), TypeError);
});
