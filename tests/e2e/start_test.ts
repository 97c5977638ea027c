import assert from "node:assert/strict";
import { tempDir } from "../helpers/shop_process.ts";

/**
 * server/main.ts on node_modules as the test run set it up: in "auto" mode a start that meets
 * another process installing prints "Blocking waiting for file lock on node_modules directory"
 * first, and these tests read stderr line by line (with 4 test files at a time it did).
 */
const MAIN = [
  "run",
  "-A",
  "--node-modules-dir=manual",
  new URL("../../server/main.ts", import.meta.url).pathname,
];

Deno.test("a bad PORT stops the server with one readable line", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: MAIN,
    env: { PORT: "eighty", KV_PATH: ":memory:" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 1);
  const stderr = new TextDecoder().decode(out.stderr).trim();
  assert.equal(
    stderr,
    'Cannot start the shop: Invalid PORT="eighty": must be a whole number from 0 to 65535',
  );
});

Deno.test("production without PUBLIC_URL refuses to start, naming it", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: MAIN,
    env: {
      DENO_ENV: "production",
      ADMIN_PASSWORD: "a-long-admin-password",
      DEMO_PAYMENTS: "1",
      KV_PATH: ":memory:",
      PORT: "0",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 1);
  const lines = new TextDecoder().decode(out.stderr).trim().split("\n");
  assert.equal(lines.length, 1, lines.join("\n"));
  assert.match(
    lines[0],
    /^Cannot start the shop: Missing PUBLIC_URL: it is required when DENO_ENV=production/,
  );
});

/** Runs server/main.ts with `env` (in `cwd` when given) until it exits; answers its code and stderr lines. */
async function startFails(env: Record<string, string>, cwd?: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: MAIN,
    env: { PORT: "0", ...env },
    cwd,
    // A shop that starts when it should refuse would never exit: the test fails instead of hanging.
    signal: AbortSignal.timeout(30_000),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const lines = new TextDecoder().decode(out.stderr).trim().split("\n");
  return { code: out.code, lines };
}

Deno.test("production without payment keys refuses to start in one line naming both ways out", async () => {
  const { code, lines } = await startFails({
    DENO_ENV: "production",
    ADMIN_PASSWORD: "a-long-admin-password",
    PUBLIC_URL: "https://shop.example",
    KV_PATH: ":memory:",
  });
  assert.equal(code, 1);
  assert.equal(lines.length, 1, lines.join("\n"));
  assert.match(lines[0], /^Cannot start the shop: Missing payment settings: .*STRIPE_SECRET_KEY/);
  assert.match(lines[0], /DEMO_PAYMENTS=1/);
});

Deno.test("a bad HOST and a KV_PATH of another scheme are refused together, creating nothing", async () => {
  await using dir = await tempDir("shop-start-");
  const { code, lines } = await startFails(
    { HOST: "not_a_host", KV_PATH: "ftp://example" },
    dir.path,
  );
  assert.equal(code, 1);
  assert.deepEqual(lines, [
    'Cannot start the shop: Invalid HOST="not_a_host": must be a hostname, an IPv4 address or an IPv6 address without brackets',
    'Cannot start the shop: Invalid KV_PATH="ftp://example": must be :memory:, a file path, or an http(s):// URL of a KV Connect server',
  ]);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(dir.path)), [], "no KV file was made");
});
