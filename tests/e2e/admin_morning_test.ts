/**
 * The owner's morning in a real browser: what sold (Sales), what to print (Print day's pick list
 * and packing slips), shipping two chosen orders, what the shop told whom (Emails), the orders
 * search, and the inventory's low-stock filter; each new tab checked with axe in both themes.
 */
import assert from "node:assert/strict";
import { axeFindings } from "./helpers/axe.ts";
import { e2eTest } from "./helpers/e2e.ts";
import { expectToast, settle } from "./helpers/browser.ts";
import { ownerPost, paidOrder } from "./helpers/api.ts";

const STARTER_PACK_ID = 384;

function buyer(n: number) {
  return {
    email: `buyer${n}@example.com`,
    name: `Buyer Number${n}`,
    address: {
      street: `${n} Main Street`,
      apartment: "",
      city: "Austin",
      state: "TX",
      zipCode: "73301",
      country: "US",
    },
  };
}

e2eTest(
  "the owner's morning: sales, pick list, ship two orders, the emails that went out",
  async (e2e) => {
    const { shop } = e2e;
    const orders: string[] = [];
    for (let n = 1; n <= 3; n++) orders.push(await paidOrder(shop.url, buyer(n), STARTER_PACK_ID));
    for (const orderNumber of orders.slice(0, 2)) {
      await ownerPost(shop, `/api/admin/orders/${orderNumber}/tracking`, {
        trackingNumber: "9400 1111 2222",
      });
    }

    // A shopper asks for a password reset link: the owner sees that it went, never the link.
    const shopper = { email: "buyer1@example.com", password: "Sw1tchesRule" };
    for (const path of ["/auth/register", "/auth/password-reset"]) {
      const res = await fetch(`${shop.url}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(shopper),
      });
      await res.body?.cancel();
    }

    const { page } = await e2e.newPage();
    await page.goto("/admin");
    await page.getByLabel("Enter admin password").fill(shop.adminPassword);
    await page.getByLabel("Enter admin password").press("Enter");
    await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();

    // Orders: a search by name finds one order.
    await page.getByRole("searchbox", { name: "Search" }).fill("number2");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("1 order shown").waitFor();
    assert.equal(await page.getByTestId("admin-order").count(), 1);
    assert.ok(await page.getByText("buyer2@example.com").isVisible());

    // A search whose answer is slow is overtaken by the next one: its late answer replaces nothing.
    let release = () => {};
    const held = new Promise<void>((resolve) => release = resolve);
    const slow = /\/api\/admin\/orders\?.*q=number1/;
    await page.route(slow, async (route) => {
      await held;
      await route.continue();
    });
    const asked = page.waitForRequest(slow);
    await page.getByRole("searchbox", { name: "Search" }).fill("number1");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await asked;
    await page.getByRole("searchbox", { name: "Search" }).fill("number3");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("buyer3@example.com").waitFor();
    const answered = page.waitForResponse(slow);
    release();
    await answered;
    await settle(page);
    assert.deepEqual(
      await page.getByTestId("admin-order").locator(".admin-email").allInnerTexts(),
      ["buyer3@example.com"],
      "the last search stays shown",
    );
    await page.unroute(slow);

    // Sales: today's three orders of $18.98.
    await page.getByRole("tab", { name: "Sales" }).click();
    const totals = page.getByTestId("sales-totals");
    await totals.waitFor();
    assert.match(await totals.innerText(), /Revenue\s*\$56\.94/);
    assert.match(await totals.innerText(), /Orders\s*3/);
    assert.match(await totals.innerText(), /Average order\s*\$18\.98/);
    await page.getByText("Starter Pack: 3").waitFor();
    assert.deepEqual(await axeFindings(page), [], "Sales tab");

    // Print day: three Starter Packs to pack, three slips.
    await page.getByRole("tab", { name: "Print day" }).click();
    const boxes = page.locator('[data-testid="pick-component"][data-name="SMALL_BOX"]');
    await boxes.waitFor();
    assert.match(await boxes.innerText(), /Small boxes.*\s+3/);
    assert.equal(await page.getByTestId("pick-switch").count(), 10);
    assert.equal(await page.getByTestId("packing-slip").count(), 3);
    assert.deepEqual(await axeFindings(page), [], "Print day tab");

    // Ship the two with tracking numbers, chosen on their slips.
    for (const orderNumber of orders.slice(0, 2)) {
      await page.getByRole("article", { name: `Order ${orderNumber}` })
        .getByRole("checkbox", { name: /Choose to ship/ }).check();
    }
    await page.getByRole("button", { name: "Ship chosen orders (2)" }).click();
    await expectToast(page, "2 orders marked as shipped");
    await page.waitForFunction(() =>
      document.querySelectorAll('[data-testid="packing-slip"]').length === 1
    );
    assert.ok(await page.getByRole("article", { name: `Order ${orders[2]}` }).isVisible());

    // Emails: the shipped emails are listed, newest first, and one is sent again.
    await page.getByRole("tab", { name: "Emails" }).click();
    const rows = page.getByTestId("admin-email");
    await rows.first().waitFor();
    const shipped = rows.filter({ hasText: "has shipped" });
    assert.equal(await shipped.count(), 2);
    assert.match(await rows.first().innerText(), /has shipped/, "newest first");
    assert.equal(await rows.filter({ hasText: "New order" }).count(), 3, "the owner's notes");
    await page.getByRole("searchbox", { name: "Recipient" }).fill("buyer1@example.com");
    await page.getByRole("button", { name: "Show" }).click();
    await page.getByText(/emails? to this address/).waitFor();
    const mine = await rows.count();
    const reset = rows.filter({ hasText: "reset your password" });
    await reset.getByText("reset your password").click();
    const resetText = await reset.locator("pre").innerText();
    assert.match(resetText, /restore-password\?token=\[hidden\]/);
    await reset.getByRole("button", { name: /Resend/ }).click();
    await expectToast(page, /Password reset emails are not resent/);
    await rows.filter({ hasText: "has shipped" }).getByRole("button", { name: /Resend/ }).click();
    await expectToast(page, "Email to buyer1@example.com queued again");
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="admin-email"]').length === n + 1,
      mine,
    );
    assert.deepEqual(await axeFindings(page), [], "Emails tab");

    // Inventory: the low-stock filter and a level edited in place.
    await page.getByRole("tab", { name: "Inventory" }).click();
    await page.getByRole("checkbox", { name: /Low stock only/ }).check();
    const shown = page.getByText(/^\d+ of \d+ shown$/);
    await shown.waitFor();
    const [low] = (await shown.innerText()).split(" of ");
    const cubeLevel = page.getByLabel("Low-stock level of CUBE_BODY");
    assert.equal(await cubeLevel.count(), 0, "cube bodies are well stocked");
    await page.getByRole("checkbox", { name: /Low stock only/ }).uncheck();
    await page.getByLabel("Low-stock level of CUBE_BODY").fill("100000");
    await page.getByRole("button", { name: "Save stock of CUBE_BODY" }).click();
    await expectToast(page, "Low-stock level of CUBE_BODY set to 100000");
    await page.getByRole("checkbox", { name: /Low stock only/ }).check();
    await page.getByLabel("Low-stock level of CUBE_BODY").waitFor();
    assert.match(await shown.innerText(), new RegExp(`^${Number(low) + 1} of`));
  },
);

e2eTest("the new admin tabs pass the accessibility check in the dark theme", async (e2e) => {
  const { shop } = e2e;
  await paidOrder(shop.url, buyer(1), STARTER_PACK_ID);
  const { page } = await e2e.newPage();
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/admin");
  await page.getByLabel("Enter admin password").fill(shop.adminPassword);
  await page.getByLabel("Enter admin password").press("Enter");
  await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();
  assert.equal(await page.locator("html").getAttribute("data-theme"), "dark");
  for (
    const [tab, ready] of [["Sales", "Revenue"], ["Print day", "Pick list"], [
      "Emails",
      "Recipient",
    ]]
  ) {
    await page.getByRole("tab", { name: tab }).click();
    await page.getByText(ready, { exact: true }).first().waitFor();
    await page.waitForLoadState("networkidle");
    assert.deepEqual(await axeFindings(page), [], `${tab} tab, dark theme`);
  }
});
