/**
 * The owner's API Keys tab and a dashboard that reflects the role: the owner makes a staff key
 * (shown once, with Copy), a script uses it, the owner revokes it and the script is refused; a
 * browser whose admin calls carry a staff key sees only the staff's tabs, no Cancel and no
 * customer export, ships an order, and reads a role's refusal in a toast.
 */
import assert from "node:assert/strict";
import { axeFindings } from "./helpers/axe.ts";
import { e2eTest } from "./helpers/e2e.ts";
import { austinBuyer, paidOrder } from "./helpers/api.ts";
import { expectToast } from "./helpers/browser.ts";
import { PACKS } from "../../shared/catalog/packs.ts";

/** A script's call with a bearer key; answers the status. */
async function scriptCall(base: string, key: string, path = "/api/admin/orders"): Promise<number> {
  const res = await fetch(new URL(path, base), { headers: { Authorization: `Bearer ${key}` } });
  await res.body?.cancel();
  return res.status;
}

e2eTest(
  "the owner makes, copies and revokes an API key; staff see only their tabs",
  async (e2e) => {
    const { shop } = e2e;
    const order = await paidOrder(
      shop.url,
      austinBuyer("keys@example.com", "Key Buyer", "1 Main Street"),
      PACKS[0].id,
    );
    const { page, context, problems } = await e2e.newPage({ allow: [/\/tracking/] });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto("/admin");
    await page.getByLabel("Enter admin password").fill(shop.adminPassword);
    await page.getByLabel("Enter admin password").press("Enter");
    await page.getByRole("tab", { name: "API Keys" }).click();
    await page.getByRole("heading", { name: "API keys" }).waitFor();

    // Made with a name and a role; shown once with a warning and a Copy button.
    await page.getByLabel("Name", { exact: true }).fill("Label printer");
    await page.getByLabel("Role").selectOption("staff");
    await page.getByRole("button", { name: "Make key" }).click();
    const shown = page.getByTestId("new-api-key");
    await shown.getByText("it is not shown again").waitFor();
    const key = await shown.getByLabel("API key for Label printer").inputValue();
    assert.match(key, /^shk_[\w-]{43}$/);
    await shown.getByRole("button", { name: "Copy" }).click();
    await expectToast(page, "Key copied");
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
    assert.deepEqual(await axeFindings(page), [], "API Keys tab with a new key");
    await shown.getByRole("button", { name: "Done" }).click();
    await shown.waitFor({ state: "detached" });
    assert.equal(await page.getByText(key).count(), 0, "the key is not shown again");
    assert.equal(await scriptCall(shop.url, key), 200);

    // A browser of its own (no owner cookie) whose admin calls carry the staff key.
    const staff = await e2e.newPage({ allow: [/\/tracking/] });
    await staff.page.route("**/api/admin/**", async (route) => {
      const headers = { ...route.request().headers(), authorization: `Bearer ${key}` };
      await route.continue({ headers });
    });
    await staff.page.addInitScript(() => sessionStorage.setItem("adminAuth", "true"));
    await staff.page.goto("/admin");
    await staff.page.getByRole("tab", { name: "Orders" }).waitFor();
    const tabs = await staff.page.getByRole("tab").allTextContents();
    assert.deepEqual(tabs, ["Orders", "Inventory", "Print day", "Emails"]);
    const row = staff.page.getByTestId("new-orders").locator(`[data-order="${order}"]`);
    await row.getByLabel(`Tracking number for ${order}`).waitFor();
    assert.equal(await row.getByRole("button", { name: /^Cancel order/ }).count(), 0);
    assert.equal(await staff.page.getByRole("button", { name: "Download CSV" }).count(), 0);
    // A refusal that still happens (a role changed while the page was open) is said as it is.
    await staff.page.route("**/api/admin/orders/*/tracking", (route) =>
      route.fulfill({
        status: 403,
        contentType: "application/json",
        body: JSON.stringify({ error: "Only the owner can ship orders." }),
      }), { times: 1 });
    await row.getByLabel(`Tracking number for ${order}`).fill("9400111122223333444455");
    await row.getByRole("button", { name: /^Add tracking number/ }).click();
    await expectToast(staff.page, "Only the owner can ship orders.");
    // Staff ship with their own role: the tracking number is taken.
    await row.getByRole("button", { name: /^Add tracking number/ }).click();
    await expectToast(staff.page, "Tracking number added");

    // Revoked after one question: the script is refused from its next request.
    await page.reload();
    await page.getByRole("tab", { name: "API Keys" }).click();
    const listed = page.locator('[data-api-key="Label printer"]');
    await listed.waitFor();
    page.once("dialog", (dialog) => dialog.accept());
    await listed.getByRole("button", { name: "Revoke API key Label printer" }).click();
    await expectToast(page, "API key Label printer revoked");
    await listed.waitFor({ state: "detached" });
    assert.equal(await scriptCall(shop.url, key), 401);

    // The tab with a key shown, in the dark theme too.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await page.getByRole("tab", { name: "API Keys" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Night script");
    await page.getByRole("button", { name: "Make key" }).click();
    await shown.waitFor();
    assert.equal(await page.locator("html").getAttribute("data-theme"), "dark");
    assert.deepEqual(await axeFindings(page), [], "API Keys tab, dark theme");
    assert.deepEqual(problems.errors, []);
  },
);
