import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { type E2E, e2eTest } from "./helpers/e2e.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { computeTotals, TIMINGS } from "../../shared/policy.ts";
import { customTesterCents, formatCents, packCents } from "../../shared/pricing.ts";
import type { PublicOrderView } from "../../shared/api_types.ts";
import { getOk, postOk } from "./helpers/api.ts";
import { settle, waitForBadge } from "./helpers/browser.ts";

/** A switch with only two units: a tester of quantity 2 holding it sells it out. */
const SCARCE = SWITCHES.find((s) => s.name === "Halo Clear" && s.initialStock === 2)!;
/** Nine plentiful switches to fill a 10-switch tester around the scarce one. */
const PLENTY = SWITCHES.filter((s) => s.initialStock > 50 && s.id !== SCARCE.id).slice(0, 9);

/** 4xx answers the tests provoke on purpose (declines, bad codes, unknown ids). */
const EXPECTED_ERRORS = [
  /\/api\/demo\/payment-intents\/.+\/confirm/,
  /\/api\/demo\/checkout-sessions\/.+\/pay/,
  /\/api\/promo\/validate/,
];

function post(e2e: E2E, path: string, body?: unknown) {
  return postOk(e2e.shop.url, path, body);
}

function get<T>(e2e: E2E, path: string): Promise<T> {
  return getOk<T>(e2e.shop.url, path);
}

async function scarceAvailable(e2e: E2E): Promise<boolean> {
  const switches = await get<{ id: number; available: boolean }[]>(e2e, "/api/switches");
  return switches.find((s) => s.id === SCARCE.id)!.available;
}

/** Opens a page whose localStorage holds the cart id, as the storefront leaves it. */
function pageWithCart(e2e: E2E, cartId: string, viewport?: { width: number; height: number }) {
  return e2e.newPage({ allow: EXPECTED_ERRORS, viewport, storage: { cartId } });
}

async function text(page: Page, testId: string): Promise<string | null> {
  return await page.getByTestId(testId).textContent();
}

/** Checks the tracking page's totals against the shared rule. */
async function assertOrderTotals(
  page: Page,
  subtotal: number,
  region: "us" | "international",
  percentOff = 0,
) {
  const totals = computeTotals(subtotal, region, percentOff);
  assert.equal(await text(page, "order-subtotal"), formatCents(totals.subtotalCents));
  assert.equal(
    await text(page, "order-shipping"),
    totals.shippingCents === 0 ? "Free" : formatCents(totals.shippingCents),
  );
  assert.equal(await text(page, "order-tax"), formatCents(totals.taxCents));
  assert.equal(await text(page, "order-total"), formatCents(totals.totalCents));
  if (totals.discountCents > 0) {
    assert.equal(await text(page, "order-discount"), `-${formatCents(totals.discountCents)}`);
  } else {
    assert.equal(await page.getByTestId("order-discount").count(), 0);
  }
}

/** The hold countdown's text: 'We're holding your items for 29:41'. */
const HOLD_TEXT = /^We're holding your items for (\d{2,}):(\d{2})$/;

/** Waits for the payment page's hold countdown and answers the seconds it shows. */
async function holdSeconds(page: Page): Promise<number> {
  const timer = page.getByRole("timer");
  await timer.waitFor();
  const shown = (await timer.textContent()) ?? "";
  const match = shown.match(HOLD_TEXT);
  assert.ok(match, `the countdown reads mm:ss: ${shown}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** Fills /checkout's contact and shipping sections. */
async function fillCheckoutForm(page: Page): Promise<void> {
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Lovelace");
  await page.getByLabel("Address", { exact: true }).fill("1 Analytical Way");
  await page.getByLabel("City").fill("San Francisco");
  await page.getByLabel("State").fill("CA");
  await page.getByLabel("ZIP code").fill("94103");
}

e2eTest(
  "US hosted checkout: cart → demo page → paid order, cart emptied and stock used",
  async (e2e) => {
    const cart = await post(e2e, "/api/cart/add/tester", {
      cartId: null,
      name: "Custom Switch Tester",
      size: 10,
      keycaps: "none",
      switches: [SCARCE, ...PLENTY].map((s) => ({ id: s.id, quantity: 1 })),
      quantity: 2,
      bodyColor: "white",
    });
    const cartId = cart.id as string;
    const unit = customTesterCents(10, "none", [SCARCE, ...PLENTY].map((s) => s.extraPriceCents));
    const subtotal = 2 * unit;
    assert.ok(subtotal < 5000, "under $50, so US shipping is charged");
    assert.equal(await scarceAvailable(e2e), true, `${SCARCE.name} is in stock before`);

    const { page, problems } = await pageWithCart(e2e, cartId);
    await page.goto("/cart");
    await waitForBadge(page, 2);
    await page.getByRole("button", { name: "Checkout (United States)" }).click();
    await page.waitForURL(/\/demo-checkout\/cs_demo_/);
    const sessionUrl = page.url();

    // The demo provider's page: summary, contact and address, the card field and the way back.
    await page.getByTestId("demo-line").first().waitFor();
    const held = await holdSeconds(page);
    assert.ok(held > 0, "the stock hold counts down");
    await page.getByText("If the timer runs out, the items go back on sale").waitFor();

    // The hold can be kept longer once (WCAG 2.2.1): the button leaves, the focus stays on the
    // clock it changed, and the extension is spoken once.
    await page.getByRole("button", { name: "Keep my items 10 more minutes" }).click();
    await page.getByText("Your hold was extended by 10 minutes.").waitFor({ state: "attached" });
    assert.ok(await holdSeconds(page) > held + 9 * 60, "ten more minutes on the clock");
    assert.equal(await page.getByRole("button", { name: /Keep my items/ }).count(), 0);
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute("role")),
      "timer",
    );
    assert.equal(await text(page, "demo-subtotal"), formatCents(subtotal));
    assert.equal(await text(page, "demo-shipping"), formatCents(799));
    assert.equal(
      await page.getByRole("link", { name: "Back to cart" }).getAttribute("href"),
      "/cart",
    );
    const country = page.getByLabel("Country");
    assert.deepEqual(await country.locator("option").allTextContents(), ["United States"]);
    assert.equal(await page.getByText("I'm purchasing as a business").count(), 0, "US: no VAT");
    await page.getByLabel("Email").fill("grace@example.com");
    await page.getByLabel("Full name").fill("Grace Hopper");
    await page.getByLabel("Address", { exact: true }).fill("2 Compiler Court");
    await page.getByLabel("City").fill("Arlington");
    await page.getByLabel("State").fill("VA");
    await page.getByLabel("ZIP code").fill("22201");
    await page.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pay now" }).click();

    await page.waitForURL(/\/order\/track\/[A-Z0-9]+$/);
    await page.getByRole("heading", { level: 1, name: "Thank you for your order!" }).waitFor();
    const orderNumber = page.url().split("/").pop()!;
    assert.equal(await text(page, "order-number"), orderNumber);
    assert.equal(await text(page, "order-status"), "Payment received");
    assert.equal(
      await page.getByRole("progressbar").getAttribute("aria-valuenow"),
      "29",
      "PAYMENT_RECEIVED is 29%",
    );
    assert.equal(
      await page.locator('[aria-current="step"] .step-label').textContent(),
      "Payment received",
    );
    assert.equal(await page.locator(".progress-step.done").count(), 1, "Order placed is filled");
    assert.equal(
      await text(page, "tracking-text"),
      "Tracking number will be available after order is processed",
    );
    await assertOrderTotals(page, subtotal, "us");

    // The items list toggles the testers' switches.
    assert.equal(await page.getByTestId("order-item-details").count(), 0);
    await page.getByRole("button", { name: "Show details" }).click();
    const details = page.getByTestId("order-item-details");
    assert.ok((await details.textContent())?.includes(`${SCARCE.brand}: ${SCARCE.name}`));
    await page.getByRole("button", { name: "Hide details" }).click();
    assert.equal(await details.count(), 0);

    // The cart is emptied: no badge, and the server's cart is empty too.
    await waitForBadge(page, null);
    const serverCart = await get<{ items: unknown[] }>(e2e, `/api/cart/${cartId}`);
    assert.equal(serverCart.items.length, 0);
    await page.getByRole("link", { name: /^Cart(, \d+ items?)?$/ }).click();
    await page.getByText("Nothing here yet!").waitFor();

    // The stock is used: both units of the scarce switch went into this order.
    assert.equal(await scarceAvailable(e2e), false, `${SCARCE.name} is sold out after paying`);
    const order = await get<PublicOrderView>(e2e, `/api/orders/${orderNumber}`);
    assert.equal(order.status, "PAYMENT_RECEIVED");
    assert.equal(order.customerName, "Grace Hopper");

    // The paid session's page says so instead of offering to pay again.
    await page.goto(sessionUrl);
    await page.getByRole("heading", { name: "This order is already paid" }).waitFor();
    assert.deepEqual(problems.errors, []);
  },
);

e2eTest("/checkout: promo LATEDELIVERY, terms, demo card, then the tracking page", async (e2e) => {
  const first = await post(e2e, "/api/cart/add?itemId=384&quantity=2");
  const cartId = first.id as string;
  await post(e2e, `/api/cart/add?itemId=1&quantity=1&cartId=${cartId}`);
  const subtotal = 2 * packCents(false) + 799;

  const { page, problems } = await pageWithCart(e2e, cartId);
  await page.clock.install();
  await page.goto("/checkout");
  await page.getByRole("heading", { name: "Order Details" }).waitFor();
  assert.equal(await page.getByTestId("summary-line").count(), 2);
  assert.equal(await text(page, "summary-subtotal"), formatCents(subtotal));
  assert.equal(await text(page, "summary-shipping"), "Enter your ZIP code");

  // The estimate waits TIMINGS.zipEstimateDelayMs after a complete ZIP. The page's clock stands
  // still from before the ZIP is typed, so only runFor moves it, however slow the machine.
  await page.clock.pauseAt(await page.evaluate(() => Date.now()) + 1000);
  await fillCheckoutForm(page);
  await page.clock.runFor(TIMINGS.zipEstimateDelayMs - 100);
  await settle(page);
  assert.equal(await text(page, "summary-shipping"), "Enter your ZIP code", "not before the delay");
  await page.clock.runFor(200);
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="summary-shipping"]')?.textContent === "$7.99"
  );
  // From here on time flows again (the order is created after a short debounce).
  await page.clock.resume();
  const payNow = page.getByRole("button", { name: "Pay now" });
  assert.ok(await payNow.isDisabled(), "Pay now waits for the terms");

  // A wrong code gets the server's reason; the banner's code gets 16% off.
  await page.getByLabel("Promo code").fill("NOPE");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.getByText("The promo code NOPE is not valid").waitFor();
  await page.waitForFunction(() => document.activeElement?.id === "promo-code");
  await page.getByLabel("Promo code").fill("latedelivery");
  await page.getByRole("button", { name: "Apply" }).click();
  const totals = computeTotals(subtotal, "us", 16);
  await page.getByTestId("summary-discount").waitFor();
  // Applied, the field gives way to the code: the focus is on its Remove button, not the page.
  await page.waitForFunction(() => document.activeElement?.id === "promo-remove");
  // Pay now is reachable before it can pay, and says why.
  assert.ok(
    await payNow.evaluate((b) =>
      (b as HTMLButtonElement).tabIndex === 0 && !b.hasAttribute("disabled")
    ),
  );
  const why = await payNow.getAttribute("aria-describedby");
  assert.ok(why && (await page.locator(`[id="${why.split(" ").at(-1)}"]`).innerText()).length > 0);
  assert.equal(await text(page, "summary-discount"), `-${formatCents(totals.discountCents)}`);
  assert.equal(await text(page, "summary-tax"), formatCents(totals.taxCents));
  assert.equal(await text(page, "summary-total"), formatCents(totals.totalCents));

  await page.getByLabel("I agree to the terms of service").check();
  assert.equal(
    await page.getByRole("link", { name: "terms of service", exact: true }).getAttribute("href"),
    "/tos",
  );
  const created = page.waitForResponse((r) => r.url().endsWith("/api/orders/create"));
  await page.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
  const createdBody = await (await created).json();
  assert.equal(createdBody.totals.totalCents, totals.totalCents, "server and page agree");
  await payNow.click();

  await page.waitForURL(/\/order\/track\/[A-Z0-9]+$/);
  await page.getByRole("heading", { level: 1, name: "Thank you for your order!" }).waitFor();
  await assertOrderTotals(page, subtotal, "us", 16);
  assert.equal(await text(page, "order-status"), "Payment received");
  await waitForBadge(page, null);
  const order = await get<PublicOrderView>(e2e, `/api/orders/${await text(page, "order-number")}`);
  assert.equal(order.promoCode, "LATEDELIVERY");
  assert.equal(order.customerName, "Ada Lovelace");
  assert.deepEqual(problems.errors, []);
});

e2eTest("/checkout: a declined card leaves the order unpaid and the cart kept", async (e2e) => {
  const first = await post(e2e, "/api/cart/add?itemId=384&quantity=1");
  const cartId = first.id as string;
  const { page, problems } = await pageWithCart(e2e, cartId);
  await page.goto("/checkout");
  await fillCheckoutForm(page);
  const created = page.waitForResponse((r) => r.url().endsWith("/api/orders/create"));
  await page.getByLabel("I agree to the terms of service").check();
  const orderNumber = (await (await created).json()).orderNumber as string;
  assert.ok(await holdSeconds(page) > 0, "the payment step shows the stock hold");

  const card = page.getByLabel("Card number", { exact: true });
  const payNow = page.getByRole("button", { name: "Pay now" });
  await card.fill("4000 0000 0000 0002");
  await payNow.click();
  const alert = page.getByRole("alert").filter({ hasText: "Your card was declined." });
  await alert.waitFor();
  const describedBy = (await card.getAttribute("aria-describedby"))?.split(" ") ?? [];
  assert.ok(describedBy.includes((await alert.getAttribute("id"))!), "the error names the field");
  assert.ok(page.url().endsWith("/checkout"), "still on the payment page");
  const order = await get<PublicOrderView>(e2e, `/api/orders/${orderNumber}`);
  assert.equal(order.status, "STARTED");
  assert.equal(order.paymentError, "Your card was declined.");
  const serverCart = await get<{ items: unknown[] }>(e2e, `/api/cart/${cartId}`);
  assert.equal(serverCart.items.length, 1, "the cart is kept");
  await waitForBadge(page, 1);

  // A mistyped number is refused too; the right card then pays the same order.
  await card.fill("4242 4242 4242 4241");
  await payNow.click();
  await page.getByText("Your card number is invalid.").waitFor();
  await card.fill("4242 4242 4242 4242");
  await payNow.click();
  await page.waitForURL(new RegExp(`/order/track/${orderNumber}$`));
  await page.getByRole("heading", { level: 1, name: "Thank you for your order!" }).waitFor();
  assert.equal(await page.getByText("Your payment did not go through").count(), 0);
  assert.deepEqual(problems.errors, []);
});

e2eTest("hosted checkout: the hold counts down on the page's clock, then Pay now locks", async (
  e2e,
) => {
  const cart = await post(e2e, "/api/cart/add?itemId=384&quantity=1");
  const { url } = await post(e2e, `/api/cart/${cart.id}/checkout/us`);
  const { page, problems } = await e2e.newPage();
  await page.clock.install();
  await page.goto(url);
  await page.getByRole("timer").waitFor();
  // The page's clock stands still from here, so only runFor and fastForward move the countdown.
  await page.clock.pauseAt(await page.evaluate(() => Date.now()) + 1000);
  await settle(page);
  const before = await holdSeconds(page);
  assert.ok(before > 60, `a fresh hold has minutes left, not ${before} seconds`);
  await page.clock.runFor(60_000);
  await settle(page);
  const after = await holdSeconds(page);
  assert.ok(Math.abs(before - 60 - after) <= 1, `a minute later: ${before} then ${after}`);
  const payNow = page.getByRole("button", { name: "Pay now" });
  assert.ok(await payNow.isEnabled());

  await page.clock.fastForward(after * 1000);
  await page.getByText("Your hold has ended. Return to your cart to check out again.").waitFor();
  assert.equal(await page.getByRole("timer").count(), 0);
  assert.ok(await payNow.isDisabled(), "no payment once the hold has ended");
  assert.equal(await page.getByRole("link", { name: "Go to cart" }).getAttribute("href"), "/cart");
  assert.deepEqual(problems.errors, []);
});

e2eTest("missing things: unknown order, no cart, no ids, dead checkout links", async (e2e) => {
  const { page, problems } = await e2e.newPage({
    allow: [/\/api\/orders\/NOSUCHORDER123/, /\/api\/demo\/checkout-sessions\/cs_demo_/],
  });
  await page.goto("/order/track/NOSUCHORDER123");
  await page.getByRole("heading", { level: 1, name: "Order Not Found" }).waitFor();
  await page.getByText(
    "We couldn't find your order details. Please contact support if this persists.",
  ).waitFor();
  assert.equal(
    await page.getByRole("link", { name: "Contact support" }).getAttribute("href"),
    "/contact",
  );

  await page.goto("/order-success");
  await page.getByText("No session ID or order number found").waitFor();
  await page.goto("/completion");
  await page.getByText("No session ID or order number found").waitFor();
  await page.goto("/completion?payment_intent=pi_demo_whatever123&redirect_status=failed");
  assert.equal(
    await page.getByRole("link", { name: "Return to checkout" }).getAttribute("href"),
    "/checkout",
  );

  await page.goto("/checkout");
  await page.getByText("No cart found").waitFor();

  // A session replaced by a newer checkout of the same cart cannot be paid any more.
  const cart = await post(e2e, "/api/cart/add?itemId=384&quantity=1");
  const old = await post(e2e, `/api/cart/${cart.id}/checkout/us`);
  await post(e2e, `/api/cart/${cart.id}/checkout/us`);
  await page.goto(old.url);
  await page.getByRole("heading", { name: "This checkout was cancelled" }).waitFor();
  assert.equal(
    await page.getByRole("link", { name: "Back to cart" }).getAttribute("href"),
    "/cart",
  );
  assert.equal(await page.getByRole("button", { name: "Pay now" }).count(), 0);
  await page.goto("/demo-checkout/cs_demo_doesnotexist1234");
  await page.getByRole("heading", { name: "This checkout link is not valid" }).waitFor();
  assert.deepEqual(problems.errors, []);
});

e2eTest("international hosted checkout: business purchase with a VAT ID, $22.99 shipping", async (
  e2e,
) => {
  const first = await post(e2e, "/api/cart/add?itemId=380&quantity=1");
  const cartId = first.id as string;
  const subtotal = packCents(false);
  const { page, problems } = await pageWithCart(e2e, cartId, { width: 390, height: 844 });
  await page.goto("/cart");
  await page.getByRole("button", { name: "Checkout (International)" }).click();
  await page.waitForURL(/\/demo-checkout\/cs_demo_/);
  await page.getByTestId("demo-line").waitFor();
  assert.equal(await text(page, "demo-shipping"), formatCents(2299));

  await page.getByLabel("Email").fill("ines@example.com");
  await page.getByLabel("Full name").fill("Inês Example");
  await page.getByLabel("Country").selectOption("DE");
  await page.getByLabel("Address", { exact: true }).fill("Unter den Linden 1");
  await page.getByLabel("City").fill("Berlin");
  await page.getByLabel("Postal code").fill("10117");
  assert.equal(await page.getByLabel("VAT or Tax ID").count(), 0, "hidden until a business");
  await page.getByLabel("I'm purchasing as a business").check();
  const taxId = page.getByLabel("VAT or Tax ID");
  await taxId.waitFor();

  // The banner code works here too; the preview uses the shared rule.
  const totals = computeTotals(subtotal, "international", 16);
  await page.getByLabel("Promo code").fill("LATEDELIVERY");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.getByTestId("demo-discount").waitFor();
  assert.equal(await text(page, "demo-total"), formatCents(totals.totalCents));

  await page.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay now" }).click();
  await page.getByText("Enter your VAT or Tax ID to purchase as a business").waitFor();
  await taxId.fill("DE123456789");
  await page.getByRole("button", { name: "Pay now" }).click();

  await page.waitForURL(/\/order\/track\/[A-Z0-9]+$/);
  await page.getByRole("heading", { level: 1, name: "Thank you for your order!" }).waitFor();
  await assertOrderTotals(page, subtotal, "international", 16);
  assert.equal(await text(page, "order-shipping"), "$22.99");
  const order = await get<PublicOrderView>(e2e, `/api/orders/${await text(page, "order-number")}`);
  assert.equal(order.country, "DE");
  assert.equal(order.region, "international");
  await waitForBadge(page, null);
  assert.deepEqual(problems.errors, []);
});
