import assert from "node:assert/strict";
import { backupLines, backupToFile, NotJsonError } from "../../server/ops/backup.ts";
import { fileLines, restoreLines, RestoreRefused } from "../../server/ops/restore.ts";
import { seedKv } from "../../server/ops/seed.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Records shaped like the shop's carts, orders and friends, with the awkward JSON values. */
function shopEntries(): [Deno.KvKey, unknown][] {
  return [
    [["carts", "c-\u00e9\u{1F511}"], {
      id: "c-\u00e9\u{1F511}",
      lines: [{ productId: 31, qty: 2, options: { keycaps: "pastel", note: null } }],
      promo: null,
      updatedAt: 1_767_225_600_000,
    }],
    [["orders", "SW-0001"], {
      number: "SW-0001",
      email: "o'brien+test@example.com",
      address: { name: 'Zoë "Q" <Ünïcødé> \u4e2d\u6587', lines: ["1 Rue de l'Église", ""] },
      items: [{ title: "Pack \\ \n\t\u2028 \u0000", unitCents: 4_990, qty: 1 }],
      totals: { cents: Number.MAX_SAFE_INTEGER, refundCents: -Number.MAX_SAFE_INTEGER },
      ratio: 0.1 + 0.2,
      tiny: 5e-324,
      huge: 1.7976931348623157e308,
      negative: -12.5,
      paid: true,
      refunded: false,
      history: [[], {}, [null, [0]]],
    }],
    [["orders_by_user", "u1", "SW-0001"], null],
    [["promo_uses", "LATEDELIVERY"], new Deno.KvU64(3n)],
    [["promo_uses", "BIG"], new Deno.KvU64(2n ** 64n - 1n)],
    [["rate_limits", "login", "203.0.113.9", 29_000_000], 3],
    [["text"], "line one\nline two, lone surrogate \ud800 and emoji \u{1F600}"],
    [["numbers", -1.5], -0.000001],
    [["numbers", 0], 0],
    [["numbers", Number.MAX_SAFE_INTEGER], "large safe integer key"],
    [["", "empty key part"], ""],
    [["large"], "x".repeat(60_000)],
    [["object", "with __proto__"], JSON.parse('{"__proto__": {"a": 1}, "b": [1]}')],
  ];
}

async function allEntries(kv: Deno.Kv): Promise<[Deno.KvKey, unknown][]> {
  const entries = await Array.fromAsync(kv.list({ prefix: [] }));
  return entries.map((e) => [e.key, e.value]);
}

async function filledStore(): Promise<Deno.Kv> {
  const kv = await Deno.openKv(":memory:");
  await seedKv(kv);
  for (const [key, value] of shopEntries()) await kv.set(key, value);
  return kv;
}

Deno.test("backup then restore into a fresh KV gives back every entry exactly", async () => {
  await using source = await filledStore();
  const lines = await Array.fromAsync(backupLines(source));
  assert.ok(lines.length > shopEntries().length, "the seeded catalogue is in the backup");
  for (const line of lines) {
    assert.ok(!line.includes("\n"), "one entry per line");
    const fields = Object.keys(JSON.parse(line));
    assert.ok(["key,value", "key,u64"].includes(fields.join()), line);
  }
  assert.ok(lines.includes('{"key":["promo_uses","BIG"],"u64":"18446744073709551615"}'));

  await using target = await Deno.openKv(":memory:");
  assert.equal(await restoreLines(target, lines), lines.length);
  const [before, after] = [await allEntries(source), await allEntries(target)];
  assert.equal(after.length, before.length);
  for (const [i, [key, value]] of before.entries()) {
    assert.deepEqual(after[i], [key, value], `entry ${Deno.inspect(key)}`);
  }
  assert.deepEqual(await Array.fromAsync(backupLines(target)), lines, "a second backup is equal");
  const order = (await target.get<{ totals: object; tiny: number }>(["orders", "SW-0001"])).value;
  assert.deepEqual(order?.totals, {
    cents: Number.MAX_SAFE_INTEGER,
    refundCents: -Number.MAX_SAFE_INTEGER,
  });
  assert.equal(order?.tiny, 5e-324);
  const uses = (await target.get<Deno.KvU64>(["promo_uses", "LATEDELIVERY"])).value;
  assert.ok(uses instanceof Deno.KvU64, "a counter comes back as a counter");
  assert.equal(uses.value, 3n);
});

Deno.test("a value or key JSON cannot hold exactly stops the backup, naming the key", async () => {
  const cases: [Deno.KvKey, unknown, RegExp][] = [
    [["orders", "A"], { total: 5n }, /\["orders", "A"\].*value\.total is a bigint/],
    [["bytes"], new Uint8Array([1]), /value is a Uint8Array/],
    [["carts", "B"], { lines: [undefined] }, /value\.lines\[0\] is undefined/],
    [["u"], undefined, /value is undefined/],
    [["n"], { score: NaN }, /value\.score is NaN/],
    [["inf"], [1, -Infinity], /value\[1\] is -Infinity/],
    [["z"], { cents: -0 }, /value\.cents is -0/],
    [["d"], { at: new Date(0) }, /value\.at is a Date/],
    [["m"], new Map([["a", 1]]), /value is a Map/],
    [["s"], { tags: new Set(["x"]) }, /value\.tags is a Set/],
    // deno-lint-ignore no-sparse-arrays
    [["holes"], [1, , 3], /value\[1\] is empty/],
    [["key", 7n], 1, /key part 1 is a bigint/],
    [["key", new Uint8Array([1])], 1, /key part 1 is a Uint8Array/],
    [["key", true], 1, /key part 1 is a boolean/],
  ];
  const dir = await Deno.makeTempDir({ prefix: "backup-test-" });
  try {
    for (const [key, value, message] of cases) {
      await using kv = await Deno.openKv(":memory:");
      await kv.set(["fine"], { ok: true });
      await kv.set(key, value);
      await assert.rejects(Array.fromAsync(backupLines(kv)), (err: Error) => {
        assert.ok(err instanceof NotJsonError, `${Deno.inspect(key)} fails with NotJsonError`);
        assert.match(err.message, message);
        return true;
      });
      const path = `${dir}/backup.jsonl`;
      await assert.rejects(backupToFile(kv, path), NotJsonError);
      assert.deepEqual(await Array.fromAsync(Deno.readDir(dir)), [], "no file is left behind");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a damaged backup is refused, naming its line, before anything is written", async () => {
  await using target = await Deno.openKv(":memory:");
  const good = JSON.stringify({ key: ["a"], value: { n: 1 } });
  const cases: [string, RegExp][] = [
    [good.slice(0, -3), /^line 3 is not JSON/],
    ["{not json", /^line 3 is not JSON/],
    ["42", /^line 3 is not a backup entry/],
    ["null", /^line 3 is not a backup entry/],
    [JSON.stringify({ value: 1 }), /^line 3 is not a backup entry/],
    [JSON.stringify({ key: ["b"] }), /^line 3 is not a backup entry/],
    [JSON.stringify({ key: [], value: 1 }), /^line 3 is not a backup entry/],
    [JSON.stringify({ key: ["b", true], value: 1 }), /^line 3: key part 1 is a boolean/],
    ['{"key": ["b"], "value": {"x": 1e999}}', /^line 3: value\.x is Infinity/],
    [JSON.stringify({ key: ["b"], value: 1, u64: "1" }), /^line 3 is not a backup entry/],
    [JSON.stringify({ key: ["b"], u64: 1 }), /^line 3: u64 must be a whole number/],
    [JSON.stringify({ key: ["b"], u64: "-1" }), /^line 3: u64 must be a whole number/],
    [JSON.stringify({ key: ["b"], u64: "18446744073709551616" }), /^line 3: u64 must be/],
  ];
  for (const [bad, message] of cases) {
    await assert.rejects(restoreLines(target, [good, "", bad, good]), (err: Error) => {
      assert.ok(err instanceof RestoreRefused, bad);
      assert.match(err.message, message);
      return true;
    });
    assert.deepEqual(await allEntries(target), [], "a refusal writes nothing");
  }
});

Deno.test("through a file: a non-empty target is refused unless --force, which replaces it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "backup-test-" });
  try {
    await using source = await filledStore();
    const path = `${dir}/nested/backup.jsonl`;
    const count = await backupToFile(source, path);
    assert.equal(count, (await allEntries(source)).length);
    await assert.rejects(Deno.stat(`${path}.partial`), Deno.errors.NotFound);

    await using target = await Deno.openKv(":memory:");
    await target.set(["stale"], "left over");
    await target.set(["stale", 1n, new Uint8Array([1])], "a key JSON cannot hold");
    await assert.rejects(restoreLines(target, fileLines(path)), /not empty.*--force/);
    assert.equal((await target.get(["stale"])).value, "left over", "a refusal writes nothing");
    assert.equal((await allEntries(target)).length, 2);

    assert.equal(await restoreLines(target, fileLines(path), { force: true }), count);
    assert.deepEqual(await allEntries(target), await allEntries(source), "exactly the backup");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the tasks: backup writes a file, restore needs --force for a non-empty store", async () => {
  const dir = await Deno.makeTempDir({ prefix: "backup-test-" });
  const run = async (script: string, kvPath: string, ...args: string[]) => {
    const command = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}server/ops/${script}`, ...args],
      env: { KV_PATH: kvPath },
      stdout: "piped",
      stderr: "piped",
    });
    const { code, stdout, stderr } = await command.output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code, out: decode(stdout) + decode(stderr) };
  };
  try {
    {
      await using kv = await Deno.openKv(`${dir}/source.kv`);
      for (const [key, value] of shopEntries()) await kv.set(key, value);
    }
    const path = `${dir}/backup.jsonl`;
    const backup = await run("backup.ts", `${dir}/source.kv`, path);
    assert.equal(backup.code, 0, backup.out);
    assert.match(backup.out, new RegExp(`Backed up ${shopEntries().length} entries`));

    {
      await using kv = await Deno.openKv(`${dir}/target.kv`);
      await kv.set(["stale"], 1);
    }
    const refused = await run("restore.ts", `${dir}/target.kv`, path);
    assert.equal(refused.code, 1, refused.out);
    assert.match(refused.out, /Restore refused: .*--force/);
    const forced = await run("restore.ts", `${dir}/target.kv`, path, "--force");
    assert.equal(forced.code, 0, forced.out);
    assert.match(forced.out, new RegExp(`Restored ${shopEntries().length} entries`));

    await using source = await Deno.openKv(`${dir}/source.kv`);
    await using target = await Deno.openKv(`${dir}/target.kv`);
    assert.deepEqual(await allEntries(target), await allEntries(source));

    await source.set(["orders", "SW-0002"], { placedAt: new Date(0) });
    source.close();
    const failed = await run("backup.ts", `${dir}/source.kv`, `${dir}/failed.jsonl`);
    assert.equal(failed.code, 1, failed.out);
    assert.match(failed.out, /Backup failed: .*\["orders", "SW-0002"\]: value\.placedAt is a Date/);
    await assert.rejects(Deno.stat(`${dir}/failed.jsonl`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
