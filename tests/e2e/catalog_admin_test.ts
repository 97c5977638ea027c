/**
 * The owner runs the catalogue from the dashboard's Catalogue tab and the shop follows at once:
 * a new switch is sold in a custom tester, a price rise reaches new carts (and says so in carts
 * that held the old price) but not a paid order, a retired switch marks the lines holding it,
 * a stale edit is refused with a way to reload, and a pack's new title shows in the shop.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { type E2E, e2eTest } from "./helpers/e2e.ts";
import { expectToast, waitForBadge } from "./helpers/browser.ts";
import { postOk } from "./helpers/api.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { customTesterCents, formatCents } from "../../shared/pricing.ts";

/** The switch the owner adds: a brand the configurator already lists, a name it does not. */
const NEW_SWITCH = {
  brand: "Gateron",
  name: "Tidal Blue",
  type: "tactile",
  force: "62g",
  extraPrice: "0.75",
  referralLink: "https://www.gateron.com/",
  stock: "40",
};
const NEW_LABEL = `${NEW_SWITCH.brand} ${NEW_SWITCH.name}`;

/** Nine plentiful switches to fill a 10-switch tester around the new one. */
const PLENTY = SWITCHES.filter((s) => s.initialStock > 50 && s.extraPriceCents === 0).slice(0, 9);

/** An admin call with the password as a bearer token, as a second owner tab or script would. */
async function adminFetch(
  e2e: E2E,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Response> {
  return await fetch(`${e2e.shop.url}${path}`, {
    method: init.method ?? "GET",
    headers: {
      Authorization: `Bearer ${e2e.shop.adminPassword}`,
      ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/** A switch as the admin list answers it. */
interface AdminSwitch {
  id: number;
  brand: string;
  name: string;
  extraPrice: number;
  version: string;
}

async function adminSwitch(e2e: E2E, name: string): Promise<AdminSwitch> {
  const res = await adminFetch(e2e, "/api/admin/catalog/switches");
  assert.equal(res.status, 200);
  const all = await res.json() as AdminSwitch[];
  const found = all.find((s) => s.name === name);
  assert.ok(found, `${name} is in the admin list`);
  return found;
}

/** Logs the owner in and opens the Catalogue tab. */
async function openCatalogue(page: Page, password: string): Promise<void> {
  await page.goto("/admin");
  await page.getByLabel("Enter admin password").fill(password);
  await page.getByLabel("Enter admin password").press("Enter");
  await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();
  await page.getByRole("tab", { name: "Catalogue" }).click();
  await page.getByRole("tablist", { name: "Catalogue sections" }).waitFor();
}

/** A cart holding one 10-switch tester with `switchIds`, made over HTTP; answers its id. */
async function cartWithTester(e2e: E2E, switchIds: number[]): Promise<string> {
  const cart = await postOk(e2e.shop.url, "/api/cart/add/tester", {
    cartId: null,
    name: "Custom Switch Tester",
    size: 10,
    keycaps: "none",
    switches: switchIds.map((id) => ({ id, quantity: 1 })),
    quantity: 1,
    bodyColor: "white",
  });
  return cart.id as string;
}

/** Opens the cart page of `cartId` in a fresh context and answers the page. */
async function openCart(e2e: E2E, cartId: string): Promise<Page> {
  const { page } = await e2e.newPage({ storage: { cartId } });
  await page.goto("/cart");
  await page.getByTestId("cart-line").first().waitFor();
  return page;
}

e2eTest(
  "the owner adds a switch, a shopper pays for a tester with it, a price rise spares the order",
  async (e2e) => {
    const admin = await e2e.newPage({
      // Expected: the stale edit the test provokes.
      allow: [/409.*\/api\/admin\/catalog\/switches\//],
    });
    const { page } = admin;
    await openCatalogue(page, e2e.shop.adminPassword);
    await page.getByRole("heading", { name: /^Switches/ }).waitFor();

    // Add the switch through the dialog; a bad force is refused beside its field first.
    await page.getByRole("button", { name: "Add a switch" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a switch" });
    await dialog.getByLabel("Name", { exact: true }).fill(NEW_SWITCH.name);
    await dialog.getByLabel("Brand", { exact: true }).fill(NEW_SWITCH.brand);
    await dialog.getByLabel("Type", { exact: true }).selectOption(NEW_SWITCH.type);
    await dialog.getByLabel("Extra price", { exact: true }).fill(NEW_SWITCH.extraPrice);
    await dialog.getByLabel("Stock (on shelf)", { exact: true }).fill(NEW_SWITCH.stock);
    await dialog.getByLabel("Referral link", { exact: true }).fill(NEW_SWITCH.referralLink);
    await dialog.getByRole("button", { name: "Add switch" }).click();
    const force = dialog.getByLabel("Force", { exact: true });
    assert.equal(await force.getAttribute("aria-invalid"), "true", "a blank force is refused");
    assert.ok(await force.evaluate((el) => el === document.activeElement), "and focused");
    await force.fill(NEW_SWITCH.force);
    await dialog.getByRole("button", { name: "Add switch" }).click();
    await expectToast(page, `${NEW_LABEL} added`);
    await dialog.waitFor({ state: "detached" });
    await page.getByLabel("Search switches").fill("Tidal");
    const row = page.locator("tr", { hasText: NEW_SWITCH.name });
    await row.waitFor();
    assert.match((await row.textContent())!, /\$0\.75/);

    const added = await adminSwitch(e2e, NEW_SWITCH.name);
    const picks = [added.id, ...PLENTY.map((s) => s.id)];
    const oldCents = customTesterCents(10, "none", [75, ...PLENTY.map((s) => s.extraPriceCents)]);
    const newCents = customTesterCents(10, "none", [150, ...PLENTY.map((s) => s.extraPriceCents)]);

    // A shopper builds a tester with it in the configurator and pays with the demo card.
    const shopper = await e2e.newPage();
    const buyer = shopper.page;
    await buyer.goto("/testers/custom");
    await buyer.locator(".switch-grid").waitFor();
    await buyer.getByLabel("Search switches").fill("Tidal");
    const card = buyer.getByTestId(`switch-${added.id}`);
    assert.match((await card.textContent())!, /Tidal Blue/);
    await card.click();
    await buyer.getByLabel("Search switches").fill("");
    for (const sw of PLENTY) await buyer.getByTestId(`switch-${sw.id}`).click();
    await buyer.getByRole("button", { name: "Add to Cart" }).click();
    await expectToast(buyer, "Custom Switch Tester added to cart");
    await buyer.goto("/cart");
    await waitForBadge(buyer, 1);
    const line = buyer.getByTestId("cart-line");
    assert.equal(await line.locator(".price").textContent(), formatCents(oldCents));
    await buyer.getByRole("button", { name: "Checkout (United States)" }).click();
    await buyer.waitForURL(/\/demo-checkout\//);
    await buyer.getByLabel("Email").fill("ada@example.com");
    await buyer.getByLabel("Full name").fill("Ada Lovelace");
    await buyer.getByLabel("Address", { exact: true }).fill("1 Analytical Way");
    await buyer.getByLabel("City").fill("San Francisco");
    await buyer.getByLabel("State").fill("CA");
    await buyer.getByLabel("ZIP code").fill("94103");
    await buyer.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
    await buyer.getByRole("button", { name: "Pay now" }).click();
    await buyer.waitForURL(/\/order\/track\/[A-Z0-9]+$/);
    const orderNumber = buyer.url().split("/").pop()!;
    await buyer.getByTestId("order-subtotal").waitFor();
    assert.equal(await buyer.getByTestId("order-subtotal").textContent(), formatCents(oldCents));

    // Another shopper's cart holds the switch at the old price when the owner raises it.
    const heldCart = await cartWithTester(e2e, picks);

    // The owner raises its extra price in the edit dialog.
    await row.getByRole("button", { name: `Edit ${NEW_LABEL}` }).click();
    const edit = page.getByRole("dialog", { name: `Edit ${NEW_LABEL}` });
    await edit.getByLabel("Extra price", { exact: true }).fill("1.50");
    await edit.getByRole("button", { name: "Save switch" }).click();
    await expectToast(page, `${NEW_LABEL} saved`);
    await edit.waitFor({ state: "detached" });
    await row.getByText("$1.50").waitFor();

    // The paid order keeps the price it was paid at, on the tracking page and for the owner.
    await buyer.reload();
    await buyer.getByTestId("order-subtotal").waitFor();
    assert.equal(await buyer.getByTestId("order-subtotal").textContent(), formatCents(oldCents));
    const orders = await (await adminFetch(e2e, "/api/admin/orders")).json() as {
      orderNumber: string;
      subtotal: number;
    }[];
    assert.equal(
      orders.find((o) => o.orderNumber === orderNumber)?.subtotal,
      oldCents / 100,
      "the admin's order keeps the old subtotal",
    );

    // A new cart prices the tester with the new extra price.
    const fresh = await openCart(e2e, await cartWithTester(e2e, picks));
    assert.equal(
      await fresh.getByTestId("cart-line").locator(".price").textContent(),
      formatCents(newCents),
    );
    assert.equal(await fresh.getByTestId("line-price-changed").count(), 0, "nothing changed");

    // The cart that held the old price says it changed.
    const held = await openCart(e2e, heldCart);
    assert.equal(
      await held.getByTestId("line-price-changed").textContent(),
      `Price changed from ${formatCents(oldCents)} to ${formatCents(newCents)} since you added it.`,
    );

    // A stale edit: the switch changes elsewhere while the dialog is open.
    await row.getByRole("button", { name: `Edit ${NEW_LABEL}` }).click();
    const stale = page.getByRole("dialog", { name: `Edit ${NEW_LABEL}` });
    const current = await adminSwitch(e2e, NEW_SWITCH.name);
    const elsewhere = await adminFetch(e2e, `/api/admin/catalog/switches/${current.id}`, {
      method: "PATCH",
      body: { force: "63.5g", version: current.version },
    });
    assert.equal(elsewhere.status, 200, await elsewhere.text());
    // One of the 40 was sold, so 39 are on the shelf; the owner counts 35.
    const shelf = stale.getByLabel("Stock (on shelf)", { exact: true });
    assert.equal(await shelf.inputValue(), "39");
    await shelf.fill("35");
    await stale.getByRole("button", { name: "Save switch" }).click();
    const notice = stale.getByRole("alert").filter({ hasText: /changed/i });
    await notice.waitFor();
    await stale.getByRole("button", { name: "Reload this switch" }).click();
    await notice.waitFor({ state: "detached" });
    assert.equal(await stale.getByLabel("Force", { exact: true }).inputValue(), "63.5g");
    await stale.getByRole("button", { name: "Close" }).click();
    await stale.waitFor({ state: "detached" });

    // Retiring it marks the line in the held cart unavailable and stops its checkout.
    await row.getByRole("button", { name: `Retire ${NEW_LABEL}` }).click();
    await expectToast(page, `${NEW_LABEL} retired`);
    await row.getByText("Retired", { exact: true }).waitFor();
    await held.reload();
    const unavailable = held.getByTestId("line-unavailable");
    await unavailable.waitFor();
    assert.ok(
      await held.getByRole("button", { name: "Checkout (United States)" }).isDisabled(),
      "no checkout with an unavailable line",
    );
    assert.match(
      (await held.getByTestId("checkout-blocked").textContent())!,
      /no longer available\. Remove it to check out\./,
    );
    const switches = await (await fetch(`${e2e.shop.url}/api/switches`)).json() as { id: number }[];
    assert.ok(!switches.some((s) => s.id === added.id), "the configurators no longer list it");

    // The history lists the edits, newest first.
    await page.getByRole("tab", { name: "History" }).click();
    const history = page.getByTestId("history-row");
    await history.first().waitFor();
    assert.match((await history.first().textContent())!, /Retired/);
    assert.ok(
      await page.getByRole("cell", { name: /\$0\.75.*\$1\.50/ }).count() > 0,
      "the price rise is listed with its old and new value",
    );

    assert.deepEqual(admin.problems.errors, []);
    assert.deepEqual(shopper.problems.errors, []);
  },
);

e2eTest(
  "the owner renames a pack and takes it off sale; the shop and its page follow",
  async (e2e) => {
    const admin = await e2e.newPage();
    const { page } = admin;
    await openCatalogue(page, e2e.shop.adminPassword);
    await page.getByRole("tab", { name: "Packs" }).click();
    await page.getByRole("button", { name: "Edit Starter Pack" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Starter Pack" });
    await dialog.getByLabel("Title", { exact: true }).fill("Starter Pack 2027");
    await dialog.getByLabel("Price", { exact: true }).fill("11.50");
    await dialog.getByRole("button", { name: "Save pack" }).click();
    await expectToast(page, "Starter Pack 2027 saved");
    await dialog.waitFor({ state: "detached" });

    const shopper = await e2e.newPage();
    const shop = shopper.page;
    await shop.goto("/shop");
    const card = shop.locator('[data-product-id="384"]');
    await card.getByRole("heading", { name: "Starter Pack 2027" }).waitFor();
    assert.equal(await card.locator(".price").textContent(), "$11.50");
    await shop.goto("/testers/starter-pack");
    await shop.getByRole("heading", { level: 1, name: "Starter Pack 2027" }).waitFor();
    assert.equal(await shop.getByTestId("pack-price").textContent(), "$11.50");
    await shop.getByLabel(/Add transparent keycaps/).check();
    assert.equal(await shop.getByTestId("pack-price").textContent(), "$13.50", "keycaps: +$2.00");
    await shop.goto("/");
    await shop.getByRole("link", { name: "Starter Pack 2027" }).waitFor();

    // Off sale: the pack page says so and cannot add it; the shop no longer lists it.
    await page.getByRole("button", { name: "Edit Starter Pack 2027" }).click();
    const again = page.getByRole("dialog", { name: "Edit Starter Pack 2027" });
    await again.getByLabel("On sale", { exact: true }).uncheck();
    await again.getByRole("button", { name: "Save pack" }).click();
    await expectToast(page, "Starter Pack 2027 saved");
    await page.locator('tr[data-pack-id="384"]').getByText("Not sold").waitFor();
    await shop.goto("/testers/starter-pack");
    await shop.getByTestId("pack-not-sold").waitFor();
    const add = shop.getByRole("button", { name: "No longer sold" });
    assert.ok(await add.isDisabled());
    await shop.goto("/shop");
    await shop.locator('[data-product-id="380"]').waitFor();
    await shop.waitForFunction(() => !document.querySelector('[data-product-id="384"]'));

    assert.deepEqual(admin.problems.errors, []);
    assert.deepEqual(shopper.problems.errors, []);
  },
);

e2eTest("the owner creates and edits a promo code and rewrites the notice", async (e2e) => {
  const admin = await e2e.newPage();
  const { page } = admin;
  await openCatalogue(page, e2e.shop.adminPassword);
  await page.getByRole("tab", { name: "Promo codes" }).click();
  await page.locator('tr[data-promo="LATEDELIVERY"]').waitFor();

  // A percentage out of range is refused beside its field, with the server's words.
  await page.getByRole("button", { name: "New promo code" }).click();
  const create = page.getByRole("dialog", { name: "New promo code" });
  await create.getByLabel("Code", { exact: true }).fill("spring10");
  await create.getByLabel("Percent off", { exact: true }).fill("150");
  await create.getByLabel("Maximum uses", { exact: true }).fill("5");
  await create.getByLabel("Minimum subtotal", { exact: true }).fill("20");
  await create.getByRole("button", { name: "Create promo code" }).click();
  await create.getByText("percentOff must be a whole number from 1 to 100").waitFor();
  await create.getByLabel("Percent off", { exact: true }).fill("10");
  await create.getByRole("button", { name: "Create promo code" }).click();
  await expectToast(page, "Promo code SPRING10 created");
  const row = page.locator('tr[data-promo="SPRING10"]');
  await row.waitFor();
  assert.match((await row.textContent())!, /10% off/);
  assert.equal(await row.getByTestId("promo-uses").textContent(), "0 of 5");
  assert.match((await row.textContent())!, /Subtotal from \$20\.00/);

  // Edit: an amount off instead, and no use limit.
  await row.getByRole("button", { name: "Edit promo code SPRING10" }).click();
  const edit = page.getByRole("dialog", { name: "Edit promo code SPRING10" });
  await edit.getByLabel("Amount off the subtotal").check();
  await edit.getByLabel("Amount off", { exact: true }).fill("3");
  await edit.getByLabel("Maximum uses", { exact: true }).fill("");
  await edit.getByRole("button", { name: "Save promo code" }).click();
  await expectToast(page, "Promo code SPRING10 saved");
  await row.getByText("$3.00 off").waitFor();
  assert.equal(await row.getByTestId("promo-uses").textContent(), "0");

  // The notice: the preview follows the text, and the banner changes once saved.
  await page.getByRole("tab", { name: "Notice" }).click();
  const text = page.getByLabel("Banner text");
  await text.fill("Spring sale: use SPRING10 for $3 off.");
  const preview = page.getByTestId("notice-preview");
  assert.equal(await preview.textContent(), "Spring sale: use SPRING10 for $3 off.");
  await page.getByRole("button", { name: "Save notice" }).click();
  await expectToast(page, "Notice saved and shown");
  // This tab's own banner follows at once.
  await page.getByRole("note").filter({ hasText: "Spring sale: use SPRING10 for $3 off." })
    .first().waitFor();
  const shopper = await e2e.newPage();
  await shopper.page.goto("/");
  await shopper.page.getByRole("note").filter({ hasText: "Spring sale" }).waitFor();

  // The history has both.
  await page.getByRole("tab", { name: "History" }).click();
  await page.getByTestId("history-row").first().waitFor();
  assert.ok(await page.getByRole("cell", { name: /Promo code SPRING10/ }).count() > 0);
  assert.ok(await page.getByRole("cell", { name: /^Notice/ }).count() > 0);

  assert.deepEqual(admin.problems.errors, []);
  assert.deepEqual(shopper.problems.errors, []);
});
