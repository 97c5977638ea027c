import assert from "node:assert/strict";

Deno.test("a bad PORT stops the server with one readable line", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../server/main.ts", import.meta.url).pathname],
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
    args: ["run", "-A", new URL("../../server/main.ts", import.meta.url).pathname],
    env: {
      DENO_ENV: "production",
      ADMIN_PASSWORD: "a-long-admin-password",
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
