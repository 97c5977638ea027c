import assert from "node:assert/strict";
import { tempDir } from "../helpers/shop_process.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Runs `deno task <name>` from the repository as a person would, with `env` added. */
async function task(name: string, env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", name],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** How many entries the store at `path` holds. */
async function entries(path: string): Promise<number> {
  using kv = await Deno.openKv(path);
  let count = 0;
  for await (const _ of kv.list({ prefix: [] })) count++;
  return count;
}

Deno.test("db:seed fills an empty store, and db:reset empties it again", async () => {
  await using data = await tempDir("shop-db-");
  const KV_PATH = `${data.path}/shop.kv`;

  const seeded = await task("db:seed", { KV_PATH });
  assert.equal(seeded.code, 0, seeded.stderr);
  assert.match(seeded.stdout, /^Seeded the empty store at .*shop\.kv/);
  const count = await entries(KV_PATH);
  assert.ok(count > 100, `a seeded shop holds its catalogue and stock (${count} entries)`);

  const again = await task("db:seed", { KV_PATH });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /already held data/);
  assert.equal(await entries(KV_PATH), count, "a second seed changes nothing");

  await Deno.writeTextFile(`${data.path}/admin_password`, "kept-password-1\n");
  const reset = await task("db:reset", { KV_PATH });
  assert.equal(reset.code, 0, reset.stderr);
  assert.match(reset.stdout, /^Deleted .*shop\.kv/);
  await assert.rejects(Deno.stat(KV_PATH), Deno.errors.NotFound);
  assert.equal(
    await Deno.readTextFile(`${data.path}/admin_password`),
    "kept-password-1\n",
    "the development admin password outlives a reset",
  );

  const nothing = await task("db:reset", { KV_PATH });
  assert.equal(nothing.code, 0, nothing.stderr);
  assert.match(nothing.stdout, /^No store at .*: nothing to delete/);
});

Deno.test("db:reset refuses production and a remote store, deleting nothing", async () => {
  await using data = await tempDir("shop-db-");
  const KV_PATH = `${data.path}/shop.kv`;
  assert.equal((await task("db:seed", { KV_PATH })).code, 0);

  const production = await task("db:reset", { KV_PATH, DENO_ENV: "production" });
  assert.equal(production.code, 1);
  assert.match(production.stderr, /^db:reset refused: .*DENO_ENV=production/);
  assert.equal(production.stderr.split("\n").length, 1, "one line");
  await Deno.stat(KV_PATH);

  const remote = await task("db:reset", { KV_PATH: "https://kv.example/v2" });
  assert.equal(remote.code, 1);
  assert.match(remote.stderr, /^db:reset refused: .*remote store/);
});
