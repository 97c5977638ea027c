import assert from "node:assert/strict";
import { startShop, tempDir } from "../helpers/shop_process.ts";

/** The password a start printed, from its "Admin password (...): <password>" line. */
function printedPassword(output: string[]): string {
  const line = output.find((l) => l.startsWith("Admin password"));
  assert.ok(line, `no admin password line in:\n${output.join("\n")}`);
  return line.slice(line.lastIndexOf(" ") + 1);
}

/** Whether the owner's dashboard lets `password` in (the bearer form of the admin login). */
async function opensTheDashboard(url: string, password: string): Promise<boolean> {
  const res = await fetch(`${url}/api/admin/orders`, {
    headers: { Authorization: `Bearer ${password}` },
  });
  await res.body?.cancel();
  return res.status === 200;
}

Deno.test("without ADMIN_PASSWORD, development keeps one password across restarts", async () => {
  await using data = await tempDir("shop-data-");
  const kvPath = `${data.path}/shop.kv`;
  // An empty ADMIN_PASSWORD counts as unset, as in a .env file that leaves it blank.
  const env = { ADMIN_PASSWORD: "" };

  const first = await startShop({ kvPath, env });
  const password = printedPassword(first.output);
  try {
    assert.ok(await opensTheDashboard(first.url, password));
  } finally {
    await first.kill();
  }

  const second = await startShop({ kvPath, env });
  try {
    assert.equal(printedPassword(second.output), password, "the restart prints the same one");
    assert.ok(await opensTheDashboard(second.url, password), "and it still opens the dashboard");
  } finally {
    await second.kill();
  }

  const file = `${data.path}/admin_password`;
  assert.equal((await Deno.readTextFile(file)).trim(), password, "kept beside the KV file");
  if (Deno.build.os !== "windows") {
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600, "readable by its owner only");
  }
});

Deno.test("a set ADMIN_PASSWORD is used as it is, and nothing is written", async () => {
  await using data = await tempDir("shop-data-");
  const shop = await startShop({ kvPath: `${data.path}/shop.kv` });
  try {
    assert.ok(!shop.output.some((l) => l.startsWith("Admin password")));
    assert.ok(await opensTheDashboard(shop.url, shop.adminPassword));
  } finally {
    await shop.kill();
  }
  await assert.rejects(Deno.stat(`${data.path}/admin_password`), Deno.errors.NotFound);
});
