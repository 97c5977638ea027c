import assert from "node:assert/strict";
import { createTestApp, setStock, type TestApp } from "../helpers/test_app.ts";
import {
  payDemo,
  sessionIdOf,
  shopperMails,
  STARTER,
  stockCounts,
  US_ADDRESS,
} from "../helpers/shop_fixtures.ts";
import { keys } from "../../server/kv/keys.ts";
import { switchKey } from "../../shared/bom.ts";
import { getOrder } from "../../server/orders/store.ts";
import { expireIfLapsed, sweepHolds } from "../../server/orders/expiry.ts";
import { handlePaymentEvent } from "../../server/orders/payment.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { computeTotals } from "../../shared/policy.ts";
import { listOutbox } from "../../server/email/outbox.ts";

async function cartWith(t: TestApp, itemId = STARTER.id, quantity = 1): Promise<string> {
  const res = await t.request(`/api/cart/add?itemId=${itemId}&quantity=${quantity}`, {
    method: "POST",
  });
  assert.equal(res.status, 200, res.text);
  return res.json.id;
}

function stockOf(t: TestApp, key: Parameters<typeof keys.stock>[0]) {
  return stockCounts(t.kv, key);
}

/** Units a checkout could still reserve: on the shelf and not held. */
async function freeOf(t: TestApp, key: Parameters<typeof keys.stock>[0]): Promise<number> {
  const record = await stockOf(t, key);
  return record.stock - record.reserved;
}

/** A hosted checkout; `client` is the shopper's address (holds are counted per address). */
async function hosted(t: TestApp, cartId: string, region = "us", client?: string) {
  return await t.request(`/api/cart/${cartId}/checkout/${region}`, { method: "POST", client });
}

Deno.test("hosted US checkout: reserve, pay with 4242, order paid once with one email", async () => {
  await using t = await createTestApp();
  const cartId = await cartWith(t);
  const firstSwitch = switchKey(STARTER.switchIds[0]);
  const before = await stockOf(t, firstSwitch);

  const start = await hosted(t, cartId);
  assert.equal(start.status, 200, start.text);
  assert.match(start.json.url, /^\/demo-checkout\/cs_demo_[A-Za-z0-9_-]+$/);
  assert.match(start.json.orderNumber, /^ST[0-9A-Z]{18}$/);
  assert.equal(await freeOf(t, firstSwitch), before.stock - 1, "reserved at checkout");
  assert.equal((await stockOf(t, firstSwitch)).stock, before.stock, "still on the shelf");

  const sessionId = sessionIdOf(start.json.url);
  const summary = await t.request(`/api/demo/checkout-sessions/${sessionId}`);
  assert.equal(summary.json.order.totalCents, computeTotals(999, "us").totalCents);

  const paid = await payDemo(t, sessionId, {
    cardNumber: "4242 4242 4242 4242",
    email: "ann@example.com",
    name: "Ann Lee",
    address: US_ADDRESS,
  });
  assert.equal(paid.status, 200, paid.text);
  assert.equal(paid.json.redirectUrl, `/order-success?session_id=${sessionId}`);
  const again = await payDemo(t, sessionId, { cardNumber: "4242424242424242" });
  assert.equal(again.status, 200, "paying a paid session is harmless");

  const order = await getOrder(t.kv, start.json.orderNumber);
  assert.equal(order.status, "PAYMENT_RECEIVED");
  assert.equal(order.email, "ann@example.com");
  assert.deepEqual(order.shippingAddress, US_ADDRESS);
  const after = await stockOf(t, firstSwitch);
  assert.equal(after.stock, before.stock - 1, "paid units leave the shelf");
  assert.equal(after.reserved, before.reserved, "and are no longer held");
  assert.equal(after.used, before.used + 1, "and are counted as used");

  const bySession = await t.request(`/api/orders/session/${sessionId}`);
  assert.equal(bySession.json.orderNumber, order.orderNumber);
  const cart = await t.request(`/api/cart/${cartId}`);
  assert.equal(cart.json.items.length, 0, "the cart is emptied after payment");

  assert.equal(await t.deliverEmails(), 2, "the confirmation and the owner's note");
  assert.equal(shopperMails(t).length, 1);
  assert.equal(shopperMails(t)[0].to, "ann@example.com");
  assert.match(shopperMails(t)[0].text, new RegExp(`/order/track/${order.orderNumber}`));
});

Deno.test("the card rules of the demo provider", async () => {
  await using t = await createTestApp();
  const start = await hosted(t, await cartWith(t));
  const sessionId = sessionIdOf(start.json.url);
  const declined = await payDemo(t, sessionId, { cardNumber: "4000 0000 0000 0002" });
  assert.equal(declined.status, 402);
  assert.equal(declined.json.error, "Your card was declined.");
  const invalid = await payDemo(t, sessionId, { cardNumber: "4242 4242 4242 4241" });
  assert.equal(invalid.json.error, "Your card number is invalid.");
  assert.equal(
    (await payDemo(t, sessionId, { cardNumber: "abc" })).json.error,
    "Your card number is invalid.",
  );
  const order = await getOrder(t.kv, start.json.orderNumber);
  assert.equal(order.status, "STARTED", "a decline pays nothing");
  assert.equal(order.reservation.state, "held", "the reservation stands until expiry");
  assert.equal(order.paymentError, "Your card number is invalid.");
  assert.equal((await payDemo(t, sessionId, { cardNumber: "4242424242424242" })).status, 200);
});

Deno.test("checkout refuses an unknown cart, an empty cart and a bad region", async () => {
  await using t = await createTestApp();
  assert.equal((await hosted(t, "no-such-cart-123")).status, 404);
  const cartId = await cartWith(t);
  const lines = (await t.request(`/api/cart/${cartId}`)).json.items;
  await t.request(`/api/cart/${cartId}/items/${lines[0].item.id}`, { method: "DELETE" });
  const empty = await hosted(t, cartId);
  assert.equal(empty.status, 404);
  assert.equal(empty.json.error, "Your cart is empty");
  assert.equal((await hosted(t, cartId, "mars")).status, 400);
});

Deno.test("insufficient stock answers 409 naming every short item, and reserves nothing", async () => {
  await using t = await createTestApp();
  const cartId = await cartWith(t, STARTER.id, 3);
  await t.request(`/api/cart/add?itemId=1&quantity=2&cartId=${cartId}`, { method: "POST" });
  await setStock(t, switchKey(STARTER.switchIds[4]), 1);
  await setStock(t, "SMALL_BOX", 2);
  const boxBefore = await stockOf(t, "SMALL_BOX");
  const res = await hosted(t, cartId);
  assert.equal(res.status, 409);
  assert.deepEqual(res.json.insufficientStock, { "Starter Pack": 1, "Layout Tester": 2 });
  assert.deepEqual(await stockOf(t, "SMALL_BOX"), boxBefore, "nothing half-reserved");
});

Deno.test("a lapsed reservation gives its stock back and cannot be paid", async () => {
  await using t = await createTestApp();
  const cartId = await cartWith(t);
  const key = switchKey(STARTER.switchIds[0]);
  const before = await stockOf(t, key);
  const start = await hosted(t, cartId);
  t.clock.advance(29 * 60_000);
  assert.equal(await expireIfLapsed(t, start.json.orderNumber), null, "not yet");
  t.clock.advance(2 * 60_000);
  assert.deepEqual((await sweepHolds(t)).expired, [start.json.orderNumber]);
  assert.deepEqual(await stockOf(t, key), before, "stock returned exactly");
  assert.equal((await getOrder(t.kv, start.json.orderNumber)).status, "EXPIRED");
  assert.deepEqual((await sweepHolds(t)).expired, [], "expiry is idempotent");
  assert.deepEqual(await stockOf(t, key), before, "and returns stock only once");
  const late = await payDemo(t, sessionIdOf(start.json.url), { cardNumber: "4242424242424242" });
  assert.equal(late.status, 409);
  assert.match(late.json.error, /expired/);
});

Deno.test("a paid event for a lapsed order takes stock again, or refunds when it is gone", async () => {
  await using t = await createTestApp();
  const start = await hosted(t, await cartWith(t));
  const order = await getOrder(t.kv, start.json.orderNumber);
  t.clock.advance(31 * 60_000);
  await sweepHolds(t);
  const paid = await handlePaymentEvent(t, {
    id: "evt_late_1",
    type: "paid",
    orderNumber: order.orderNumber,
    paymentId: order.payment!.id,
    paymentKind: "hosted",
  });
  assert.equal(paid?.status, "PAYMENT_RECEIVED", "stock was still there");

  const second = await hosted(t, await cartWith(t));
  t.clock.advance(31 * 60_000);
  await sweepHolds(t);
  await setStock(t, switchKey(STARTER.switchIds[0]), 0);
  const refunded = await handlePaymentEvent(t, {
    id: "evt_late_2",
    type: "paid",
    orderNumber: second.json.orderNumber,
    paymentId: (await getOrder(t.kv, second.json.orderNumber)).payment!.id,
    paymentKind: "hosted",
  });
  assert.equal(refunded?.status, "CANCELLED");
  assert.match(refunded?.cancelReason ?? "", /refunded in full/);
  assert.equal((await stockOf(t, switchKey(STARTER.switchIds[0]))).stock, 0, "never negative");
});

Deno.test("a payment event for an unknown order is logged and changes nothing", async () => {
  await using t = await createTestApp();
  const result = await handlePaymentEvent(t, {
    id: "evt_x",
    type: "paid",
    orderNumber: "STNOSUCHORDER000000",
    paymentId: "cs_demo_nothing",
    paymentKind: "hosted",
  });
  assert.equal(result, null);
  assert.ok(t.logs.some((l) => /unknown order/.test(l.msg)));
});

Deno.test("20 concurrent checkouts for the last 3 units give exactly 3 orders", async () => {
  await using t = await createTestApp();
  const carts = await Promise.all(Array.from({ length: 20 }, () => cartWith(t)));
  const key = switchKey(STARTER.switchIds[0]);
  await setStock(t, key, 3);
  const results = await Promise.all(carts.map((id, i) => hosted(t, id, "us", `127.0.0.${i + 2}`)));
  const ok = results.filter((r) => r.status === 200);
  const refused = results.filter((r) => r.status === 409);
  assert.equal(ok.length, 3);
  assert.equal(refused.length, 17);
  for (const r of refused) assert.equal(r.json.insufficientStock["Starter Pack"], 0);
  assert.equal(await freeOf(t, key), 0);
  assert.deepEqual(await stockOf(t, key), { stock: 3, reserved: 3, used: 0 }, "held, not sold");
  assert.equal(new Set(ok.map((r) => r.json.orderNumber)).size, 3);
});

Deno.test("checking out the same cart again releases the earlier reservation", async () => {
  await using t = await createTestApp();
  const cartId = await cartWith(t);
  const key = switchKey(STARTER.switchIds[0]);
  const before = await stockOf(t, key);
  const first = await hosted(t, cartId);
  const second = await hosted(t, cartId, "international");
  assert.equal(await freeOf(t, key), before.stock - 1, "held once, not twice");
  const old = await getOrder(t.kv, first.json.orderNumber);
  assert.equal(old.status, "CANCELLED");
  const stale = await payDemo(t, sessionIdOf(first.json.url), { cardNumber: "4242424242424242" });
  assert.equal(stale.status, 409);
  assert.equal((await getOrder(t.kv, second.json.orderNumber)).shippingCents, 2299);
});

Deno.test("international: business purchases need a tax id, which the order keeps", async () => {
  await using t = await createTestApp();
  const start = await hosted(t, await cartWith(t), "international");
  const sessionId = sessionIdOf(start.json.url);
  const missing = await payDemo(t, sessionId, {
    cardNumber: "4242424242424242",
    businessPurchase: true,
  });
  assert.equal(missing.status, 400);
  assert.match(missing.json.error, /VAT or Tax ID/);
  const paid = await payDemo(t, sessionId, {
    cardNumber: "4242424242424242",
    businessPurchase: true,
    taxId: "DE123456789",
    address: { ...US_ADDRESS, state: "", zipCode: "10115", country: "DE" },
  });
  assert.equal(paid.status, 200, paid.text);
  const order = await getOrder(t.kv, start.json.orderNumber);
  assert.deepEqual(order.taxId, { type: "vat_or_tax_id", value: "DE123456789" });
  assert.equal(order.shippingAddress?.country, "DE");
  assert.equal(order.shippingCents, 2299);
  // An export carries no US sales tax: the shopper pays the items and the shipping.
  assert.equal(order.taxCents, 0);
  assert.equal(order.totalCents, order.subtotalCents - order.discountCents + order.shippingCents);
  // And the demo payment page showed (and took) that total before the shopper paid.
  const shown = await t.request(`/api/demo/checkout-sessions/${sessionId}`);
  assert.equal(shown.json.order.taxCents, 0);
  assert.equal(shown.json.order.totalCents, order.totalCents);
});

Deno.test("embedded checkout: create with LATEDELIVERY, confirm, completion lookup", async () => {
  await using t = await createTestApp();
  const cartId = await cartWith(t, STARTER.id, 2);
  const body = {
    cartId,
    email: "bo@example.com",
    customerName: "Bo Smith",
    shippingAddress: US_ADDRESS,
    promoCode: "latedelivery",
  };
  const created = await t.request("/api/orders/create", { method: "POST", body });
  assert.equal(created.status, 200, created.text);
  assert.match(created.json.stripeClientSecret, /^pi_demo_.+_secret_.+$/);
  const expected = computeTotals(1998, "us", 16);
  const order = await getOrder(t.kv, created.json.orderNumber);
  assert.equal(order.discountCents, expected.discountCents);
  assert.equal(order.totalCents, expected.totalCents);
  assert.equal(order.promoCode, "LATEDELIVERY");

  const confirm = await t.request(
    `/api/demo/payment-intents/${created.json.paymentIntentId}/confirm`,
    { method: "POST", body: { cardNumber: "4242424242424242" } },
  );
  assert.equal(confirm.status, 200, confirm.text);
  assert.equal(
    confirm.json.redirectUrl,
    `/completion?payment_intent=${created.json.paymentIntentId}&redirect_status=succeeded`,
  );
  const lookup = await t.request(`/api/orders/session/${created.json.paymentIntentId}`);
  assert.equal(lookup.json.orderNumber, created.json.orderNumber);
  assert.equal(lookup.json.status, "PAYMENT_RECEIVED");
  await t.deliverEmails();
  assert.equal(shopperMails(t).length, 1);
});

Deno.test("orders/create validates its input", async () => {
  await using t = await createTestApp();
  const cartId = await cartWith(t);
  const good = { cartId, email: "a@b.co", customerName: "A B", shippingAddress: US_ADDRESS };
  const cases: [unknown, number, RegExp][] = [
    [{ ...good, email: "nope" }, 400, /valid email/],
    [{ ...good, shippingAddress: { ...US_ADDRESS, zipCode: "123" } }, 400, /5 digits/],
    [{ ...good, shippingAddress: { ...US_ADDRESS, city: "" } }, 400, /City is required/],
    [{ ...good, shippingAddress: { ...US_ADDRESS, country: "CA" } }, 400, /United States/],
    [{ ...good, promoCode: "FREESTUFF" }, 400, /FREESTUFF is not valid/],
    [{ ...good, cartId: "" }, 400, /No cart found/],
    [{ ...good, cartId: "missing-cart-1234" }, 404, /Cart not found/],
  ];
  for (const [body, status, message] of cases) {
    const res = await t.request("/api/orders/create", { method: "POST", body });
    assert.equal(res.status, status, JSON.stringify(body));
    assert.match(res.json.error, message);
  }
  assert.equal((await listOutbox(t.kv)).length, 0);
});

Deno.test("promo validation and free shipping from $50 after the discount", async () => {
  await using t = await createTestApp();
  const cartId = await cartWith(t, STARTER.id, 6);
  const promo = await t.request("/api/promo/validate", {
    method: "POST",
    body: { code: " LateDelivery ", cartId },
  });
  assert.equal(promo.status, 200);
  assert.equal(promo.json.percentOff, 16);
  assert.equal(promo.json.discountCents, Math.round(5994 * 0.16));
  const bad = await t.request("/api/promo/validate", { method: "POST", body: { code: "NOPE" } });
  assert.equal(bad.status, 400);
  assert.match(bad.json.error, /NOPE is not valid/);
  const start = await hosted(t, cartId);
  const order = await getOrder(t.kv, start.json.orderNumber);
  assert.equal(order.subtotalCents, 5994);
  assert.equal(order.shippingCents, 0, "free shipping over $50");
});

Deno.test("the public order view masks the email and street; guesses are throttled", async () => {
  await using t = await createTestApp();
  const start = await hosted(t, await cartWith(t));
  await payDemo(t, sessionIdOf(start.json.url), {
    cardNumber: "4242424242424242",
    email: "johnsmith@example.com",
    address: US_ADDRESS,
  });
  const view = await t.request(`/api/orders/${start.json.orderNumber}`);
  assert.equal(view.status, 200);
  assert.equal(view.json.email, "joh***@example.com");
  assert.equal(view.json.address, "***");
  assert.equal(view.json.city, "Springfield");
  assert.equal(view.json.progress, 29);
  assert.equal(
    view.json.trackingText,
    "Tracking number will be available after order is processed",
  );
  assert.doesNotMatch(view.text, /1 Main St/);

  for (let i = 0; i < 30; i++) {
    assert.equal((await t.request(`/api/orders/STGUESS${i}XXXXXXXXXXX`)).status, 404);
  }
  const limited = await t.request("/api/orders/STGUESSLASTXXXXXXXXX");
  assert.equal(limited.status, 429);
  t.clock.advance(10 * 60_000);
  assert.equal((await t.request(`/api/orders/${start.json.orderNumber}`)).status, 200);
});

Deno.test("a custom tester's switches are reserved one by one", async () => {
  await using t = await createTestApp();
  const picks = SWITCHES.filter((s) => s.initialStock > 20).slice(0, 15);
  const add = await t.request("/api/cart/add/tester", {
    method: "POST",
    body: {
      name: "Custom Switch Tester",
      size: 15,
      keycaps: "transparent",
      switches: picks.map((s) => ({ id: s.id, quantity: 1 })),
    },
  });
  const before = await Promise.all(picks.map((s) => stockOf(t, switchKey(s.id))));
  const caps = await stockOf(t, "TRANSPARENT_KEYCAP");
  const box = await stockOf(t, "LARGE_BOX");
  assert.equal((await hosted(t, add.json.id)).status, 200);
  const after = await Promise.all(picks.map((s) => stockOf(t, switchKey(s.id))));
  after.forEach((a, i) => assert.equal(a.reserved, before[i].reserved + 1));
  assert.equal((await stockOf(t, "TRANSPARENT_KEYCAP")).reserved, caps.reserved + 15);
  assert.equal((await stockOf(t, "LARGE_BOX")).reserved, box.reserved + 1);
});

/** A hook that makes the next workflow to report `step` wait there until released. */
function pauseAt(step: string) {
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  let armed = true;
  return {
    onStep: async (name: string) => {
      if (!armed || name !== step) return;
      armed = false;
      reached();
      await gate;
    },
    arrived,
    release,
  };
}

const PAY_BODY = { cardNumber: "4242424242424242", email: "ann@example.com", address: US_ADDRESS };

Deno.test("a checkout started while the cart's previous checkout is paid becomes no second order", async () => {
  // Found by the simulation (and 20 of 20 races over HTTP): the reservation checked the
  // pending-checkout pointer, which the payment had cleared, not the cart it had priced.
  let pause: ReturnType<typeof pauseAt> | null = null;
  await using t = await createTestApp({ onStep: (step) => pause?.onStep(step) });
  const cartId = await cartWith(t);
  const first = await hosted(t, cartId);
  assert.equal(first.status, 200, first.text);
  // The second checkout waits right after pricing the cart while the first is paid.
  const pauseSecond = pause = pauseAt("load cart");
  const second = hosted(t, cartId);
  await pauseSecond.arrived;
  const paid = await payDemo(t, sessionIdOf(first.json.url), PAY_BODY);
  assert.equal(paid.status, 200, paid.text);
  pauseSecond.release();
  const answer = await second;
  assert.equal(answer.status, 404, answer.text);
  assert.equal(answer.json.error, "Your cart is empty");
  const statuses = [];
  for await (const e of t.kv.list<{ status: string }>({ prefix: keys.orders() })) {
    statuses.push(e.value.status);
  }
  assert.deepEqual(statuses, ["PAYMENT_RECEIVED"]);
});

Deno.test("a checkout holds the cart as it is when the order is made, not as first priced", async () => {
  const pause = pauseAt("load cart");
  await using t = await createTestApp({ onStep: pause.onStep });
  const cartId = await cartWith(t);
  const started = hosted(t, cartId);
  await pause.arrived;
  const added = await t.request(`/api/cart/add?itemId=1&cartId=${cartId}`, { method: "POST" });
  assert.equal(added.status, 200, added.text);
  pause.release();
  const answer = await started;
  assert.equal(answer.status, 200, answer.text);
  const order = await getOrder(t.kv, answer.json.orderNumber);
  assert.deepEqual(order.items.map((i) => [i.lineId, i.quantity]).sort(), [
    ["1", 1],
    [String(STARTER.id), 1],
  ]);
});

Deno.test("a checkout meeting the previous checkout's charge still being recorded is refused", async () => {
  let stopAfterCharge = true;
  await using t = await createTestApp({
    onStep: (step) => {
      if (step === "charge" && stopAfterCharge) {
        stopAfterCharge = false;
        throw new Error("the process stops after the charge");
      }
    },
  });
  const cartId = await cartWith(t);
  const first = await hosted(t, cartId);
  const charged = await payDemo(t, sessionIdOf(first.json.url), PAY_BODY);
  assert.equal(charged.status, 500);
  const again = await hosted(t, cartId);
  assert.equal(again.status, 409, again.text);
  assert.match(again.json.error, /previous checkout of this cart has just been paid/);
  // The recorded charge is handled (the queue's job, or the next start): paid, cart emptied.
  const { recoverOrders } = await import("../../server/orders/recovery.ts");
  await recoverOrders(t);
  assert.equal((await getOrder(t.kv, first.json.orderNumber)).status, "PAYMENT_RECEIVED");
  const cart = await t.request(`/api/cart/${cartId}`);
  assert.deepEqual(cart.json.items, []);
});

Deno.test("paying takes only the lines bought out of the cart; lines added since stay", async () => {
  // Found by the simulation: the paid write emptied the whole cart.
  await using t = await createTestApp();
  const cartId = await cartWith(t);
  const started = await hosted(t, cartId);
  assert.equal(started.status, 200, started.text);
  for (const itemId of [1, STARTER.id]) {
    const res = await t.request(`/api/cart/add?itemId=${itemId}&cartId=${cartId}`, {
      method: "POST",
    });
    assert.equal(res.status, 200, res.text);
  }
  const paid = await payDemo(t, sessionIdOf(started.json.url), PAY_BODY);
  assert.equal(paid.status, 200, paid.text);
  const cart = await t.request(`/api/cart/${cartId}`);
  assert.deepEqual(
    cart.json.items.map((i: { item: { id: string }; quantity: number }) => [i.item.id, i.quantity])
      .sort(),
    [["1", 1], [String(STARTER.id), 1]],
  );
});
