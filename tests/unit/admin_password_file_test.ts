import assert from "node:assert/strict";
import {
  ADMIN_PASSWORD_FILE,
  adminPasswordFolder,
  keptAdminPassword,
} from "../../server/ops/admin_password_file.ts";

Deno.test("the development password is kept beside a local KV file, and nowhere else", () => {
  const local = { deployed: false };
  assert.equal(adminPasswordFolder(undefined, local), "./data");
  assert.equal(adminPasswordFolder("/tmp/shop/shop.kv", local), "/tmp/shop");
  assert.equal(adminPasswordFolder("data/dev.kv", local), "data");
  assert.equal(adminPasswordFolder("shop.kv", local), ".");
  assert.equal(adminPasswordFolder("/shop.kv", local), "/");
  // A throwaway store, a remote one and Deno Deploy's managed one have no folder of the shop's.
  assert.equal(adminPasswordFolder(":memory:", local), null);
  assert.equal(adminPasswordFolder("https://kv.example/v2", local), null);
  assert.equal(adminPasswordFolder("http://127.0.0.1:4512", local), null);
  assert.equal(adminPasswordFolder(undefined, { deployed: true }), null);
});

Deno.test("a kept password is made once, then read back", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const made = await keptAdminPassword(`${dir}/nested`, () => "first-password-16");
    assert.equal(made, "first-password-16");
    const again = await keptAdminPassword(`${dir}/nested`, () => "second-password-1");
    assert.equal(again, "first-password-16");
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(`${dir}/nested/admin_password`)).mode! & 0o777, 0o600);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a kept file too short to be a password (a start cut off mid-write) is replaced", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/admin_password`, "");
    assert.equal(await keptAdminPassword(dir, () => "fresh-password-16"), "fresh-password-16");
    assert.equal(await Deno.readTextFile(`${dir}/admin_password`), "fresh-password-16\n");
    await Deno.writeTextFile(`${dir}/admin_password`, "short\n");
    assert.equal(await keptAdminPassword(dir, () => "other-password-16"), "other-password-16");
    // One the owner wrote by hand (8 or more characters) is theirs: kept as written.
    await Deno.writeTextFile(`${dir}/admin_password`, "my own choice\n");
    assert.equal(await keptAdminPassword(dir, () => "unused-password-1"), "my own choice");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("two first starts at once agree on one password, and the file holds it", async () => {
  for (let round = 0; round < 20; round++) {
    const dir = await Deno.makeTempDir({ prefix: "pw-race-" });
    try {
      const [a, b] = await Promise.all([
        keptAdminPassword(dir, () => "AAAAAAAAAAAA"),
        keptAdminPassword(dir, () => "BBBBBBBBBBBB"),
      ]);
      const kept = (await Deno.readTextFile(`${dir}/${ADMIN_PASSWORD_FILE}`)).trim();
      assert.deepEqual([a, b], [kept, kept], `round ${round}`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("a kept password file others could read is made the owner's alone", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pw-mode-" });
  try {
    const file = `${dir}/${ADMIN_PASSWORD_FILE}`;
    await Deno.writeTextFile(file, "hand-written-password\n", { mode: 0o644 });
    await Deno.chmod(file, 0o644);
    assert.equal(await keptAdminPassword(dir, () => "unused-password"), "hand-written-password");
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the password folder of a KV Connect URL in any case is none", () => {
  assert.equal(adminPasswordFolder("HTTPS://kv.example.com/db", { deployed: false }), null);
});
