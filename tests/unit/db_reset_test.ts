import assert from "node:assert/strict";
import { notStoreRefusal, resetRefusal, storeFiles } from "../../server/ops/db_reset.ts";

Deno.test("db:reset deletes only a local development store", () => {
  assert.equal(resetRefusal({}), null);
  assert.equal(resetRefusal({ KV_PATH: "/tmp/x/shop.kv", DENO_ENV: "development" }), null);
  assert.equal(resetRefusal({ KV_PATH: "", DENO_ENV: "" }), null, "empty counts as unset");
  assert.match(resetRefusal({ DENO_ENV: "production" })!, /DENO_ENV=production/);
  assert.match(
    resetRefusal({ KV_PATH: "https://kv.example/v2" })!,
    /remote store.*only a local file/,
  );
  assert.match(resetRefusal({ KV_PATH: "HTTP://10.0.0.2:4512" })!, /remote store/);
  assert.match(resetRefusal({ DENO_DEPLOYMENT_ID: "abc" })!, /Deno Deploy's managed KV/);
  assert.match(resetRefusal({ KV_PATH: ":memory:" })!, /nothing to delete/);
});

Deno.test("a store is its SQLite file and the files SQLite keeps beside it", () => {
  assert.deepEqual(storeFiles(undefined), [
    "./data/shop.kv",
    "./data/shop.kv-wal",
    "./data/shop.kv-shm",
    "./data/shop.kv-journal",
  ]);
  assert.deepEqual(storeFiles("/srv/a.kv").slice(0, 2), ["/srv/a.kv", "/srv/a.kv-wal"]);
});

Deno.test("db:reset deletes only a SQLite store: another file at KV_PATH is refused", async () => {
  const dir = await Deno.makeTempDir({ prefix: "reset-kind-" });
  try {
    const notes = `${dir}/notes.txt`;
    await Deno.writeTextFile(notes, "not a store\n");
    assert.match((await notStoreRefusal(notes))!, /not a Deno KV store/);
    const kv = await Deno.openKv(`${dir}/shop.kv`);
    await kv.set(["a"], 1);
    kv.close();
    assert.equal(await notStoreRefusal(`${dir}/shop.kv`), null);
    assert.equal(
      await notStoreRefusal(`${dir}/missing.kv`),
      null,
      "nothing there: nothing to refuse",
    );
    assert.match(resetRefusal({ KV_PATH: "HTTPS://kv.example/v2" })!, /remote store/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
