import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { e2eTest } from "./helpers/e2e.ts";
import { expectToast, settle } from "./helpers/browser.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { maskEmail, maskOrderNumber, maskTracking } from "../../shared/mask.ts";
import { carrierTrackingUrl } from "../../shared/status.ts";
import { paidOrder } from "./helpers/api.ts";

const EMAIL = "shopper@example.com";
const STREET = "1 Main Street";
const TRACKING = "9400111899223344551234";

const SAM_ADDRESS = {
  street: STREET,
  apartment: "",
  city: "Austin",
  state: "TX",
  zipCode: "73301",
  country: "US",
};

/** The Starter Pack's id, the item the admin's order holds. */
const STARTER_PACK_ID = 384;

/** The shopper's tracking page shows the progress and, from PROCESSING on, the carrier link. */
async function shopperSees(page: Page, orderNumber: string, percent: number): Promise<void> {
  await page.goto(`/order/track/${orderNumber}`);
  const bar = page.getByRole("progressbar");
  await page.waitForFunction(
    (p) => document.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow") === p,
    String(percent),
  );
  assert.equal(await bar.getAttribute("aria-valuenow"), String(percent));
  const link = page.getByRole("link", { name: TRACKING });
  assert.equal(await link.getAttribute("href"), carrierTrackingUrl(TRACKING));
}

/** An order's status as its tracking page's API answers it. */
async function getStatus(url: string, orderNumber: string): Promise<string> {
  return (await (await fetch(`${url}/api/orders/${orderNumber}`)).json()).status;
}

/** Adds a tracking number as the owner's scripts do, with the password as a bearer token. */
async function ownerTrack(
  shop: { url: string; adminPassword: string },
  orderNumber: string,
  trackingNumber: string,
): Promise<void> {
  const res = await fetch(`${shop.url}/api/admin/orders/${orderNumber}/tracking`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${shop.adminPassword}` },
    body: JSON.stringify({ trackingNumber }),
  });
  assert.equal(res.status, 200, await res.text());
}

e2eTest(
  "the admin logs in, ships an order from tracking number to delivery, masks data and edits stock",
  async (e2e) => {
    const { shop } = e2e;
    const orderNumber = await paidOrder(shop.url, {
      email: EMAIL,
      name: "Sam Shopper",
      address: SAM_ADDRESS,
    }, STARTER_PACK_ID);
    const { page, context, problems } = await e2e.newPage({
      // Expected: the wrong password, the stale flag's session check, a refused stock value, and
      // the orders read that logging out overtakes.
      allow: [
        /401.*\/api\/admin\/verify/,
        /401.*\/api\/admin\/session/,
        /401.*\/api\/admin\/orders/,
        /400.*\/api\/admin\/inventory\/switches\//,
      ],
    });
    const shopper = await e2e.newPage();

    // A stale adminAuth flag without a session cookie falls back to the password form.
    await page.goto("/admin");
    await page.evaluate(() => sessionStorage.setItem("adminAuth", "true"));
    await page.reload();
    await page.getByRole("heading", { name: "Admin Access" }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem("adminAuth")), null);

    // Wrong password, then the right one.
    const password = page.getByLabel("Enter admin password");
    assert.equal(await password.getAttribute("placeholder"), "Enter admin password");
    await password.fill("not-the-password");
    await page.getByRole("button", { name: "Access Admin Panel" }).click();
    await expectToast(page, "Invalid password");
    await password.fill(shop.adminPassword);
    await password.press("Enter");
    await expectToast(page, "Admin access granted");
    await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem("adminAuth")), "true");

    // A reload keeps the dashboard.
    await page.reload();
    await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();
    assert.equal(await page.getByRole("heading", { name: "Admin Access" }).count(), 0);
    // The test shop pays through the demo provider: the owner is told no real money moves.
    await page.getByTestId("demo-payments-banner").getByText("Payments are simulated").waitFor();
    assert.equal(
      await page.getByRole("tab", { name: "Orders" }).getAttribute("aria-selected"),
      "true",
    );

    // The paid order is in New, with its details behind Show Details.
    const fresh = page.getByTestId("new-orders");
    const row = fresh.locator(`[data-order="${orderNumber}"]`);
    await row.waitFor();
    assert.ok(await row.getByText(EMAIL).isVisible());
    assert.ok(await row.getByText(STREET).isVisible());
    await row.getByRole("button", { name: "Show Details" }).click();
    assert.ok(await row.getByText("Quantity: 1").isVisible());
    assert.ok(await row.getByText("Total", { exact: true }).isVisible());
    await row.getByRole("button", { name: "Hide Details" }).click();
    assert.equal(await row.getByText("Quantity: 1").count(), 0);

    // Tracking: empty is refused, shown beside the field it belongs to (marked invalid, the message
    // its description) with the toast repeating it; a foreign letter too; then a number is added
    // (the order moves to PROCESSING) and the mark goes.
    const trackingField = row.getByLabel(`Tracking number for ${orderNumber}`);
    async function fieldSays(message: RegExp): Promise<void> {
      assert.equal(await trackingField.getAttribute("aria-invalid"), "true");
      const describedBy = await trackingField.getAttribute("aria-describedby");
      assert.ok(describedBy, "the field points at its message");
      assert.match(await page.locator(`[id="${describedBy}"]`).innerText(), message);
    }
    await row.getByRole("button", { name: /^Add tracking number/ }).click();
    await expectToast(page, "Please enter a tracking number");
    await fieldSays(/Please enter a tracking number/);
    assert.ok(await trackingField.evaluate((el) => el === document.activeElement));
    await trackingField.fill("9400 1000 ß000");
    assert.equal(await trackingField.getAttribute("aria-invalid"), null, "typing clears the mark");
    await row.getByRole("button", { name: /^Add tracking number/ }).click();
    await fieldSays(/letters and digits|tracking number/i);
    await trackingField.fill(TRACKING);
    await row.getByRole("button", { name: /^Add tracking number/ }).click();
    await expectToast(page, "Tracking number added successfully");
    await row.getByText("Processing", { exact: true }).waitFor();
    await shopperSees(shopper.page, orderNumber, 55);

    // Download CSV saves new_orders.csv holding the order.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    assert.equal(download.suggestedFilename(), "new_orders.csv");
    const csv = await Deno.readTextFile((await download.path())!);
    // A byte order mark first, so spreadsheet programs read the file as UTF-8.
    assert.match(csv, /^\uFEFF"?Order Number"?,/);
    assert.ok(csv.includes(orderNumber), "the CSV lists the order");
    assert.ok(csv.includes(TRACKING), "with its tracking number");

    // Ship Orders lists what it will ship and asks once: Cancel ships nothing.
    const ship = page.getByRole("button", { name: "Ship Orders" });
    assert.equal(await ship.getAttribute("title"), "Mark all processed orders as shipped");
    await ship.click();
    const confirm = page.getByRole("dialog", { name: "Ship 1 order?" });
    await confirm.waitFor();
    const listed = confirm.getByTestId("ship-order");
    assert.equal(await listed.count(), 1);
    const toShip = await listed.innerText();
    for (const part of [orderNumber, "Sam Shopper", TRACKING]) {
      assert.ok(toShip.includes(part), toShip);
    }
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "detached" });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Ship Orders");
    assert.equal(await getStatus(shop.url, orderNumber), "PROCESSING", "nothing shipped");

    // Confirming ships exactly the listed orders: one that gained a tracking number meanwhile
    // waits for the next round, where it is listed first.
    await ship.click();
    await confirm.waitFor();
    const late = await paidOrder(shop.url, {
      email: "late@example.com",
      name: "Lee Late",
      address: { ...SAM_ADDRESS, street: "2 Late Lane" },
    }, STARTER_PACK_ID);
    await ownerTrack(shop, late, "9400 1000 0000 0000 0000 99");
    await confirm.getByRole("button", { name: "Ship 1 order" }).click();
    await expectToast(page, "1 order marked as shipped");
    assert.equal(await getStatus(shop.url, late), "PROCESSING", "not shipped unseen");
    const processed = page.getByTestId("processed-orders");
    const shipped = processed.locator(`[data-order="${orderNumber}"]`);
    await shipped.getByText("Shipped", { exact: true }).waitFor();
    assert.equal(await fresh.locator(`[data-order="${orderNumber}"]`).count(), 0);
    assert.equal(
      await shipped.getByRole("link", { name: TRACKING }).getAttribute("href"),
      carrierTrackingUrl(TRACKING),
    );
    await shopperSees(shopper.page, orderNumber, 76);

    // Mark Delivered.
    await shipped.getByRole("button", { name: "Mark Delivered" }).click();
    await expectToast(page, "Order marked as delivered");
    await shipped.getByText("Delivered", { exact: true }).waitFor();
    assert.equal(await shipped.getByRole("button", { name: "Mark Delivered" }).count(), 0);
    await shopperSees(shopper.page, orderNumber, 100);

    // Hide User Data masks email, street, tracking and order number; Show User Data restores.
    await page.getByRole("button", { name: "Hide User Data" }).click();
    await shipped.getByText(maskEmail(EMAIL)).waitFor();
    assert.ok(maskEmail(EMAIL).includes("***@"));
    assert.equal(await page.getByText(EMAIL).count(), 0);
    assert.ok(await shipped.getByText(maskOrderNumber(orderNumber)).isVisible());
    assert.equal(await page.getByText(orderNumber).count(), 0);
    assert.ok(await shipped.getByText("***", { exact: true }).isVisible());
    assert.equal(await page.getByText(STREET).count(), 0);
    assert.ok(await shipped.getByText(maskTracking(TRACKING)).isVisible());
    assert.equal(await page.getByText(TRACKING).count(), 0);
    assert.equal(
      await page.getByRole("button", { name: "Show User Data" }).getAttribute("aria-pressed"),
      "true",
    );
    await page.getByRole("button", { name: "Show User Data" }).click();
    await shipped.getByText(EMAIL).waitFor();
    assert.ok(await shipped.getByText(orderNumber).isVisible());
    assert.ok(await shipped.getByText(STREET).isVisible());

    // Inventory, reached with the arrow key from the Orders tab.
    await page.getByRole("tab", { name: "Orders" }).focus();
    await page.keyboard.press("ArrowRight");
    const inventoryTab = page.getByRole("tab", { name: "Inventory" });
    assert.equal(await inventoryTab.getAttribute("aria-selected"), "true");
    assert.ok(await inventoryTab.evaluate((el) => el === document.activeElement));
    const chart = page.getByRole("region", { name: "Switches Stock", exact: true });
    await chart.locator("svg.recharts-surface").first().waitFor();
    assert.equal(await chart.locator(".recharts-bar-rectangle").count() > 100, true);
    const pieTexts = page.getByText(/^Stock: \d+ \| Used: \d+$/);
    await pieTexts.first().waitFor();
    assert.equal(await pieTexts.count(), 5);
    assert.equal(await page.getByText(/^Reserved: \d+ \| Available: \d+$/).count(), 5);
    assert.equal(await page.locator(".recharts-pie").count(), 5);

    // The table shows the shelf count, which is the number to edit, beside what it holds.
    const table = page.getByRole("table", { name: "Stock of every switch and component" });
    assert.deepEqual(
      await table.getByRole("columnheader").allTextContents(),
      [
        "Name",
        "Type",
        "Stock (on shelf)",
        "Reserved",
        "Available",
        "Used",
        "Low at",
        "Days left",
        "Waiting",
      ],
    );
    assert.ok(
      await page.getByText(
        "Stock is what is on the shelf, reserved units included. Count the shelf and enter that number.",
      ).isVisible(),
    );

    // Edit a switch's stock: a refused value shows the server's message, a good one persists.
    const sw = SWITCHES[2];
    const name = `${sw.brand} ${sw.name}`;
    await page.getByLabel("Search switches and components").fill(name);
    const stock = page.getByLabel(`Stock of ${name}`, { exact: true });
    await stock.fill("1.5");
    await page.getByRole("button", { name: `Save stock of ${name}` }).click();
    await expectToast(page, "Stock must be a whole number");
    await stock.fill("77");
    await page.getByRole("button", { name: `Save stock of ${name}` }).click();
    await expectToast(page, `Stock of ${name} set to 77`);
    await page.reload();
    await page.getByRole("tab", { name: "Inventory" }).click();
    await page.getByLabel("Search switches and components").fill(name);
    assert.equal(await page.getByLabel(`Stock of ${name}`, { exact: true }).inputValue(), "77");
    // Nothing holds this switch, so all 77 on the shelf are free to sell.
    const line = table.locator("tr", { has: page.getByRole("rowheader", { name, exact: true }) });
    assert.equal(await line.locator('[data-label="Reserved"]').textContent(), "0");
    assert.equal(await line.locator('[data-label="Available"]').textContent(), "77");
    const inventory = await (await fetch(`${shop.url}/api/admin/inventory`, {
      headers: { Authorization: `Bearer ${shop.adminPassword}` },
    })).json();
    assert.equal(
      inventory.switches.find((s: { id: number }) => s.id === sw.id).stock,
      77,
    );

    // Test tab: the ping's text comes back as a toast.
    await page.getByRole("tab", { name: "Test" }).click();
    await page.getByRole("heading", { name: "Test Endpoints" }).waitFor();
    await page.getByRole("button", { name: "Test Ping" }).click();
    await expectToast(page, /^pong: the server is up/);

    // Log out while the Orders tab's read is still under way, and let that read answer once the
    // server has ended the session but before the page has heard so: the read is refused (401),
    // which is no error to show the owner who asked to leave (no toast, nothing in the console).
    // Then the form is back and the server session is gone.
    const isOrders = (url: URL) => url.pathname === "/api/admin/orders";
    const ordersAsked = Promise.withResolvers<void>();
    const ordersHeld = Promise.withResolvers<void>();
    await page.route(isOrders, async (route) => {
      ordersAsked.resolve();
      await ordersHeld.promise;
      await route.continue();
    });
    const sessionEnded = Promise.withResolvers<void>();
    const logoutHeld = Promise.withResolvers<void>();
    await page.route((url) => url.pathname === "/api/admin/logout", async (route) => {
      const response = await route.fetch();
      sessionEnded.resolve();
      await logoutHeld.promise;
      await route.fulfill({ response });
    });
    await page.getByRole("tab", { name: "Orders" }).click();
    await ordersAsked.promise;
    await page.getByRole("button", { name: "Log out" }).click();
    await sessionEnded.promise;
    await page.getByRole("status").filter({ hasText: "Logging out..." }).waitFor();
    const refused = page.waitForResponse((res) => isOrders(new URL(res.url())));
    ordersHeld.resolve();
    assert.equal((await refused).status(), 401);
    await (await refused).finished();
    await settle(page);
    await settle(page);
    logoutHeld.resolve();
    await page.getByRole("heading", { name: "Admin Access" }).waitFor();
    await expectToast(page, "Logged out");
    assert.deepEqual(
      await page.getByRole("status").filter({ hasText: /session has ended/ }).allTextContents(),
      [],
    );
    assert.equal(await page.evaluate(() => sessionStorage.getItem("adminAuth")), null);
    assert.equal((await context.request.get(`${shop.url}/api/admin/session`)).status(), 401);

    assert.deepEqual(problems.errors, []);
    assert.deepEqual(shopper.problems.errors, []);
  },
);

e2eTest("the admin form says so after too many wrong passwords", async (e2e) => {
  const { page, problems } = await e2e.newPage({ allow: [/(401|429).*\/api\/admin\/verify/] });
  await page.goto("/admin");
  // The limit counts in the clock's minutes (fixed windows, SECURITY.md): six tries that straddle
  // a minute's edge would land in two windows and the sixth would pass. The shop runs on real
  // time here, so start with at least 20 seconds of the minute left.
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 40_000) await new Promise((done) => setTimeout(done, 60_500 - intoMinute));
  const password = page.getByLabel("Enter admin password");
  const ready = () =>
    page.waitForFunction(() =>
      document.querySelector(".admin-login button")?.getAttribute("aria-busy") === "false"
    );
  for (let i = 0; i < 5; i++) {
    await ready();
    await password.fill(`wrong-${i}`);
    const answer = page.waitForResponse((r) => r.url().endsWith("/api/admin/verify"));
    await page.getByRole("button", { name: "Access Admin Panel" }).click();
    assert.equal((await answer).status(), 401);
    // Refused, the password field has the focus again, to type the next try.
    await page.waitForFunction(() => document.activeElement?.id === "admin-password");
  }
  await password.fill(e2e.shop.adminPassword);
  const button = page.getByRole("button", { name: "Access Admin Panel" });
  // The form is ready again once the last answer is handled (a press while busy is ignored).
  await ready();
  const refused = page.waitForResponse((r) => r.url().endsWith("/api/admin/verify"));
  await button.click();
  assert.equal((await refused).status(), 429);
  await expectToast(page, /^Too many wrong passwords/);
  assert.equal(await page.getByRole("heading", { name: "Admin Access" }).count(), 1);
  assert.equal(await page.evaluate(() => sessionStorage.getItem("adminAuth")), null);
  assert.deepEqual(problems.errors, []);
});
