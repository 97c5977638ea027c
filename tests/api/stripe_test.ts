import { shopperMails } from "../helpers/shop_fixtures.ts";
import assert from "node:assert/strict";
import { COMPONENTS, switchKey } from "../../shared/bom.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { computeTotals } from "../../shared/policy.ts";
import { keys } from "../../server/kv/keys.ts";
import { findOrder, listOrders } from "../../server/orders/store.ts";
import type { Order } from "../../server/orders/order.ts";
import { sweepHolds } from "../../server/orders/expiry.ts";
import { releaseOrder } from "../../server/orders/release.ts";
import { stopPayment } from "../../server/orders/stops.ts";
import type { StopJob } from "../../server/orders/stop_job.ts";
import { migrate } from "../../server/ops/migrations.ts";
import type { StockRecord } from "../../server/stock/record.ts";
import { listOutbox } from "../../server/email/outbox.ts";
import { INTERNATIONAL_COUNTRIES } from "../../server/payments/stripe/provider.ts";
import {
  FAKE_STRIPE_ENV,
  type FakeStripe,
  fakeStripePayments,
  startFakeStripe,
} from "../helpers/fake_stripe.ts";
import { changedKeys, createTestApp, snapshot, type TestApp } from "../helpers/test_app.ts";
import { storedJobs } from "../helpers/stored_jobs.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const STRIPE_ENV = FAKE_STRIPE_ENV;

const US_ADDRESS = {
  street: "1 Main St",
  apartment: "",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
};

/**
 * A Stripe-mode test app whose provider talks to a fresh fake Stripe on loopback; the test runs
 * its stored jobs (`runDue` runs the jobs the clock has reached).
 */
async function stripeShop(
  onStep?: (step: string) => void | Promise<void>,
  env: Record<string, string> = {},
) {
  const fake = await startFakeStripe();
  const t = await createTestApp({
    env: { ...STRIPE_ENV, ...env },
    onStep,
    payments: fakeStripePayments(fake),
  });
  const queue = storedJobs(t.kv);
  // Stripe's expires_at window is judged against the shop's (test) clock.
  fake.now = () => t.clock.now();
  return {
    t,
    fake,
    queue,
    runDue: () => queue.runDue(t),
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await fake[Symbol.asyncDispose]();
    },
  };
}

/** A cart with two Starter Packs and one other product; answers the cart as the API shows it. */
async function fillCart(t: TestApp): Promise<Json> {
  const first = await t.request("/api/cart/add?itemId=384&quantity=2", { method: "POST" });
  assert.equal(first.status, 200, first.text);
  const second = await t.request(`/api/cart/add?itemId=380&quantity=1&cartId=${first.json.id}`, {
    method: "POST",
  });
  assert.equal(second.status, 200, second.text);
  return second.json;
}

async function hostedCheckout(t: TestApp, region: "us" | "international" = "us") {
  const cart = await fillCart(t);
  const res = await t.request(`/api/cart/${cart.id}/checkout/${region}`, { method: "POST" });
  assert.equal(res.status, 200, res.text);
  const order = (await findOrder(t.kv, res.json.orderNumber))!;
  return { cart, res, order, sessionId: order.payment!.id };
}

async function embeddedCheckout(t: TestApp) {
  const cart = await fillCart(t);
  const res = await t.request("/api/orders/create", {
    method: "POST",
    body: {
      cartId: cart.id,
      email: "ann@example.com",
      customerName: "Ann Lee",
      shippingAddress: US_ADDRESS,
    },
  });
  assert.equal(res.status, 200, res.text);
  return { cart, res, intentId: res.json.paymentIntentId as string };
}

function postWebhook(t: TestApp, body: string, signature?: string) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (signature !== undefined) headers["Stripe-Signature"] = signature;
  return t.request("/api/webhooks/stripe", { method: "POST", body, headers });
}

async function deliver(t: TestApp, fake: FakeStripe, type: string, object: Json, id?: string) {
  const signed = await fake.signedEvent(type, object, { id });
  const res = await postWebhook(t, signed.body, signed.signature);
  assert.equal(res.status, 200, res.text);
  return res;
}

/** Sellable stock and used counts over every component. */
/** Units free to reserve (on the shelf, not held) and units sold, over every component. */
async function stockTotals(kv: Deno.Kv): Promise<{ free: number; used: number }> {
  let free = 0;
  let used = 0;
  for await (const e of kv.list<StockRecord>({ prefix: keys.stocks() })) {
    free += e.value.stock - e.value.reserved;
    used += e.value.used;
  }
  return { free, used };
}

async function order(t: TestApp, orderNumber: string): Promise<Order> {
  return (await findOrder(t.kv, orderNumber))!;
}

// ---------------------------------------------------------------------------------------------
// Creating payments

Deno.test("US hosted checkout creates a Checkout Session with the server's prices", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { cart, res, order: o, sessionId } = await hostedCheckout(t);
  const totals = computeTotals(cart.subtotalCents, "us");

  const [req] = fake.requestsTo("POST", "/v1/checkout/sessions");
  assert.equal(fake.requestsTo("POST", "/v1/checkout/sessions").length, 1);
  assert.equal(res.json.url, fake.sessions.get(sessionId)!.url);
  assert.equal(res.json.orderNumber, o.orderNumber);
  assert.equal(req.idempotencyKey, `checkout-session-${o.orderNumber}`);
  const p = req.params;
  assert.equal(p.mode, "payment");
  const expectedLines = cart.items.map((l: Json) => ({
    quantity: String(l.quantity),
    price_data: {
      currency: "usd",
      unit_amount: String(l.item.priceCents),
      product_data: { name: l.item.name },
    },
  }));
  expectedLines.push({
    quantity: "1",
    price_data: {
      currency: "usd",
      unit_amount: String(totals.taxCents),
      product_data: { name: "Estimated tax" },
    },
  });
  assert.deepEqual(p.line_items, expectedLines);
  assert.equal(Number(p.shipping_options[0].shipping_rate_data.fixed_amount.amount), 799);
  assert.equal(fake.sessions.get(sessionId)!.amount_total, totals.totalCents);
  assert.equal(o.totalCents, totals.totalCents);

  const ahead = Number(p.expires_at) - t.clock.now() / 1000;
  assert.ok(ahead >= 30 * 60 && ahead <= 32 * 60, `expires_at is ${ahead} s ahead`);
  assert.equal(p.allow_promotion_codes, "true");
  assert.deepEqual(p.shipping_address_collection, { allowed_countries: ["US"] });
  assert.equal(p.tax_id_collection, undefined);
  assert.equal(p.client_reference_id, o.orderNumber);
  assert.equal(p.metadata.orderNumber, o.orderNumber);
  assert.equal(p.payment_intent_data.metadata.orderNumber, o.orderNumber);
  assert.match(p.success_url, /\/order-success\?session_id=\{CHECKOUT_SESSION_ID\}$/);
  assert.match(p.cancel_url, /\/cart$/);
  assert.deepEqual(o.payment, {
    provider: "stripe",
    kind: "hosted",
    id: sessionId,
    url: res.json.url,
  });
  assert.equal(o.status, "STARTED");
});

Deno.test("a Stripe hosted checkout keeps room for 90 parts: its page takes only Stripe's own promotion codes", async () => {
  await using shop = await stripeShop(undefined, { MAX_HELD_UNITS_PER_CLIENT: "1000" });
  const { t } = shop;
  for (const key of [...COMPONENTS, ...SWITCHES.map((s) => switchKey(s.id))]) {
    await t.writeStock(key, { stock: 10_000, reserved: 0, used: 0 });
  }
  // 85 switches in testers of 20 (the last made up with switches already in the order) and their
  // parts: 88 distinct parts, more than the demo page's 86 and within the shop's 90.
  const ids = SWITCHES.slice(0, 85).map((s) => s.id);
  let cartId: string | null = null;
  for (let i = 0; i < ids.length; i += 20) {
    const picked = ids.slice(i, i + 20);
    const size = picked.length <= 10 ? 10 : picked.length <= 15 ? 15 : 20;
    for (const id of ids) if (picked.length < size && !picked.includes(id)) picked.push(id);
    const added = await t.request("/api/cart/add/tester", {
      method: "POST",
      body: {
        name: "Custom Switch Tester",
        size,
        keycaps: "random",
        switches: picked.map((id) => ({ id })),
        ...(cartId ? { cartId } : {}),
      },
    });
    assert.equal(added.status, 200, added.text);
    cartId = added.json.id;
  }
  const res = await t.request(`/api/cart/${cartId}/checkout/us`, { method: "POST" });
  assert.equal(res.status, 200, res.text);
  const order = (await findOrder(t.kv, res.json.orderNumber))!;
  assert.equal(order.reservation.items.length, 88);
});

Deno.test("international hosted checkout collects a non-US address and a tax ID", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { cart } = await hostedCheckout(t, "international");
  const { params: p } = fake.requestsTo("POST", "/v1/checkout/sessions")[0];
  assert.deepEqual(p.tax_id_collection, { enabled: "true" });
  const countries: string[] = p.shipping_address_collection.allowed_countries;
  assert.deepEqual(countries, [...INTERNATIONAL_COUNTRIES]);
  assert.ok(!countries.includes("US"));
  for (const c of ["CA", "GB", "DE", "JP", "AU"]) assert.ok(countries.includes(c), c);
  assert.equal(Number(p.shipping_options[0].shipping_rate_data.fixed_amount.amount), 2299);
  assert.equal(p.allow_promotion_codes, "true");
  const totals = computeTotals(cart.subtotalCents, "international");
  const [session] = fake.sessions.values();
  assert.equal(session.amount_total, totals.totalCents);
});

Deno.test("POST /api/orders/create creates a PaymentIntent for the order total", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { cart, res, intentId } = await embeddedCheckout(t);
  const totals = computeTotals(cart.subtotalCents, "us");
  const intent = fake.intents.get(intentId)!;
  assert.equal(res.json.stripeClientSecret, intent.client_secret);
  assert.match(res.json.stripeClientSecret, /^pi_test_\w+_secret_/);
  assert.equal(intent.amount, totals.totalCents);
  const [req] = fake.requestsTo("POST", "/v1/payment_intents");
  assert.equal(req.idempotencyKey, `payment-intent-${res.json.orderNumber}`);
  assert.equal(req.params.currency, "usd");
  assert.equal(req.params.automatic_payment_methods.enabled, "true");
  assert.equal(req.params.receipt_email, "ann@example.com");
  assert.equal(req.params.metadata.orderNumber, res.json.orderNumber);
});

Deno.test("a second checkout of the same cart expires the first session at Stripe", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { cart, order: first, sessionId } = await hostedCheckout(t);
  const before = await stockTotals(t.kv);
  const again = await t.request(`/api/cart/${cart.id}/checkout/us`, { method: "POST" });
  assert.equal(again.status, 200, again.text);
  assert.equal(fake.sessions.get(sessionId)!.status, "expired");
  assert.equal((await order(t, first.orderNumber)).status, "CANCELLED");
  assert.deepEqual(await stockTotals(t.kv), before, "the stock is held once, by the new order");
});

Deno.test("Stripe answering 500 gives a 503 and releases the reservation", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const cart = await fillCart(t);
  const before = await stockTotals(t.kv);
  fake.failNext = 1;
  const res = await t.request(`/api/cart/${cart.id}/checkout/us`, { method: "POST" });
  assert.equal(res.status, 503, res.text);
  assert.match(res.json.error, /Nothing was charged/);
  assert.deepEqual(await stockTotals(t.kv), before);
});

// ---------------------------------------------------------------------------------------------
// Webhooks

Deno.test("checkout.session.completed records the payment, address and tax ID once", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { order: o, sessionId } = await hostedCheckout(t, "international");
  const reserved = await stockTotals(t.kv);
  const items = o.reservation.items.reduce((n, [, q]) => n + q, 0);
  const session = fake.markSessionPaid(sessionId, {
    email: "kim@example.de",
    name: "Kim Weber",
    address: {
      line1: "Hauptstr. 5",
      line2: "2. OG",
      city: "Berlin",
      postal_code: "10115",
      country: "DE",
    },
    taxId: { type: "eu_vat", value: "DE123456789" },
  });
  const res = await deliver(t, fake, "checkout.session.completed", session);
  assert.deepEqual(res.json, { received: true });

  const paid = await order(t, o.orderNumber);
  assert.equal(paid.status, "PAYMENT_RECEIVED");
  assert.equal(paid.reservation.state, "committed");
  assert.equal(paid.email, "kim@example.de");
  assert.equal(paid.customerName, "Kim Weber");
  assert.deepEqual(paid.shippingAddress, {
    street: "Hauptstr. 5",
    apartment: "2. OG",
    city: "Berlin",
    state: "",
    zipCode: "10115",
    country: "DE",
  });
  assert.deepEqual(paid.taxId, { type: "eu_vat", value: "DE123456789" });
  assert.equal(paid.totalCents, o.totalCents);
  const after = await stockTotals(t.kv);
  assert.equal(after.free, reserved.free, "the reserved stock stays taken");
  assert.equal(after.used, reserved.used + items, "and is counted as used");

  assert.equal(await t.deliverEmails(), 2, "the confirmation and the owner's note");
  assert.equal(shopperMails(t).length, 1);
  assert.equal(shopperMails(t)[0].to, "kim@example.de");
  assert.match(shopperMails(t)[0].subject, new RegExp(o.orderNumber));
});

Deno.test("the same webhook delivered ten times records one payment and one email", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { order: o, sessionId } = await hostedCheckout(t);
  const reserved = await stockTotals(t.kv);
  const signed = await fake.signedEvent(
    "checkout.session.completed",
    fake.markSessionPaid(sessionId),
  );
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => postWebhook(t, signed.body, signed.signature)),
  );
  for (const a of answers) assert.equal(a.status, 200, a.text);
  const paid = await order(t, o.orderNumber);
  assert.equal(paid.status, "PAYMENT_RECEIVED");
  assert.equal(paid.history.filter((h) => h.status === "PAYMENT_RECEIVED").length, 1);
  const items = o.reservation.items.reduce((n, [, q]) => n + q, 0);
  assert.equal((await stockTotals(t.kv)).used, reserved.used + items);
  assert.equal((await listOutbox(t.kv)).length, 2, "the confirmation and the owner's note");
  await t.deliverEmails();
  assert.equal(shopperMails(t).length, 1);
});

Deno.test("webhooks out of order: an older failure or expiry after success keeps the order paid", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { res, intentId } = await embeddedCheckout(t);
  const declined = fake.failIntent(intentId);
  const succeeded = fake.markIntentPaid(intentId);
  await deliver(t, fake, "payment_intent.succeeded", succeeded);
  await deliver(t, fake, "payment_intent.payment_failed", declined);
  const paid = await order(t, res.json.orderNumber);
  assert.equal(paid.status, "PAYMENT_RECEIVED");
  assert.equal(paid.paymentError, null);

  const hosted = await hostedCheckout(t);
  const session = fake.markSessionPaid(hosted.sessionId);
  await deliver(t, fake, "checkout.session.completed", session);
  const reserved = await stockTotals(t.kv);
  await deliver(t, fake, "checkout.session.expired", { ...session, status: "expired" });
  assert.equal((await order(t, hosted.order.orderNumber)).status, "PAYMENT_RECEIVED");
  assert.deepEqual(await stockTotals(t.kv), reserved, "no stock released");
  await t.deliverEmails();
  assert.equal(shopperMails(t).length, 2);
});

Deno.test("a bad or missing signature answers 400 and changes nothing", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { sessionId } = await hostedCheckout(t);
  const signed = await fake.signedEvent(
    "checkout.session.completed",
    fake.markSessionPaid(sessionId),
  );
  const before = await snapshot(t.kv);
  const tampered = signed.body.replace('"payment_status": "paid"', '"payment_status": "paid" ');
  const otherSecret = await startFakeStripe({ webhookSecret: "whsec_other" });
  const forged = await otherSecret.signedEvent(
    "checkout.session.completed",
    JSON.parse(signed.body).data.object,
  );
  await otherSecret[Symbol.asyncDispose]();
  const attempts = [
    await postWebhook(t, signed.body, "t=1,v1=deadbeef"),
    await postWebhook(t, tampered, signed.signature),
    await postWebhook(t, forged.body, forged.signature),
    await postWebhook(t, signed.body, ""),
    await postWebhook(t, signed.body),
  ];
  for (const a of attempts) {
    assert.equal(a.status, 400, a.text);
    assert.deepEqual(a.json, { error: "Invalid signature" });
  }
  assert.deepEqual(changedKeys(before, await snapshot(t.kv)), []);
});

Deno.test("payment_intent.payment_failed records the decline; the order stays STARTED", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { res, intentId } = await embeddedCheckout(t);
  const reserved = await stockTotals(t.kv);
  await deliver(t, fake, "payment_intent.payment_failed", fake.failIntent(intentId));
  const o = await order(t, res.json.orderNumber);
  assert.equal(o.status, "STARTED");
  assert.equal(o.paymentError, "Your card was declined.");
  assert.equal(o.reservation.state, "held");
  assert.deepEqual(await stockTotals(t.kv), reserved);
  assert.equal((await listOutbox(t.kv)).length, 0);

  // Paying after the decline still works.
  await deliver(t, fake, "payment_intent.succeeded", fake.markIntentPaid(intentId));
  const paid = await order(t, res.json.orderNumber);
  assert.equal(paid.status, "PAYMENT_RECEIVED");
  assert.equal(paid.paymentError, null);
});

Deno.test("checkout.session.expired releases the stock once and expires the order", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const before = await stockTotals(t.kv);
  const { order: o, sessionId } = await hostedCheckout(t);
  assert.notDeepEqual(await stockTotals(t.kv), before);
  const session = { ...fake.sessions.get(sessionId)!, status: "expired" };
  await deliver(t, fake, "checkout.session.expired", session);
  const expired = await order(t, o.orderNumber);
  assert.equal(expired.status, "EXPIRED");
  assert.equal(expired.reservation.state, "released");
  assert.deepEqual(await stockTotals(t.kv), before);
  // An already-expired order: answered without harm, stock released only once.
  await deliver(t, fake, "checkout.session.expired", session);
  assert.deepEqual(await stockTotals(t.kv), before);
  assert.equal((await order(t, o.orderNumber)).status, "EXPIRED");
});

Deno.test("a webhook for an unknown order answers 200, is logged and writes nothing", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { sessionId } = await hostedCheckout(t);
  const session = fake.markSessionPaid(sessionId);
  // Event ids are remembered as handled (a redelivery does nothing); nothing else may change.
  const before = await snapshot(t.kv, ["payment_events"]);
  const strangers = [
    {
      ...session,
      id: "cs_test_stranger",
      metadata: { orderNumber: "STNOSUCHORDER0000000" },
      client_reference_id: null,
    },
    { ...session, id: "cs_test_stranger2", metadata: {}, client_reference_id: null },
  ];
  for (const object of strangers) {
    const res = await deliver(t, fake, "checkout.session.completed", object);
    assert.deepEqual(res.json, { received: true });
  }
  // Each recording stored its safety-net job (for a process dying before handling it); run,
  // they find nothing to do, and nothing is left changed.
  t.clock.advance(60_000);
  await s.runDue();
  assert.deepEqual(changedKeys(before, await snapshot(t.kv, ["payment_events"])), []);
  const warnings = t.logs.filter((l) => l.msg === "payment event for an unknown order");
  assert.equal(warnings.length, 2);
});

Deno.test("events the shop does not act on are acknowledged and ignored", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { sessionId, order: o } = await hostedCheckout(t);
  const before = await snapshot(t.kv);
  const res = await deliver(t, fake, "charge.refunded", { id: "ch_test_1", object: "charge" });
  assert.deepEqual(res.json, { received: true, ignored: true });
  // Checkout's own PaymentIntent: the session's events record it, under the session's id.
  const session = fake.markSessionPaid(sessionId);
  const pi = fake.intents.get(session.payment_intent)!;
  const ignored = await deliver(t, fake, "payment_intent.succeeded", pi);
  assert.deepEqual(ignored.json, { received: true, ignored: true });
  assert.deepEqual(changedKeys(before, await snapshot(t.kv)), []);
  assert.equal((await order(t, o.orderNumber)).status, "STARTED");
});

// ---------------------------------------------------------------------------------------------
// Redirects, polls, refunds

Deno.test("the success page's poll records a payment the webhook has not reported yet", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { order: o, sessionId } = await hostedCheckout(t);
  const reserved = await stockTotals(t.kv);
  const waiting = await t.request(`/api/orders/session/${sessionId}`);
  assert.deepEqual(waiting.json, { orderNumber: o.orderNumber, status: "STARTED" });

  const session = fake.markSessionPaid(sessionId, { email: "pat@example.com" });
  const polled = await t.request(`/api/orders/session/${sessionId}`);
  assert.equal(polled.status, 200, polled.text);
  assert.deepEqual(polled.json, { orderNumber: o.orderNumber, status: "PAYMENT_RECEIVED" });
  const paid = await order(t, o.orderNumber);
  assert.equal(paid.email, "pat@example.com");
  assert.equal(paid.shippingAddress?.city, "Springfield");

  await deliver(t, fake, "checkout.session.completed", session);
  await t.request(`/api/orders/session/${sessionId}`);
  const items = o.reservation.items.reduce((n, [, q]) => n + q, 0);
  assert.equal((await stockTotals(t.kv)).used, reserved.used + items);
  assert.equal((await order(t, o.orderNumber)).history.length, 2);
  assert.equal(await t.deliverEmails(), 2, "the confirmation and the owner's note");
  assert.equal(shopperMails(t).length, 1);
});

Deno.test("the /completion poll records a PaymentIntent paid without a webhook", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { res, intentId } = await embeddedCheckout(t);
  fake.markIntentPaid(intentId);
  const polled = await t.request(`/api/orders/session/${intentId}`);
  assert.deepEqual(polled.json, { orderNumber: res.json.orderNumber, status: "PAYMENT_RECEIVED" });
  await deliver(t, fake, "payment_intent.succeeded", fake.intents.get(intentId)!);
  await t.deliverEmails();
  assert.equal(shopperMails(t).length, 1);
  assert.equal(shopperMails(t)[0].to, "ann@example.com");
});

Deno.test("expiry asks Stripe first: a session paid without a webhook becomes a paid order", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { order: o, sessionId } = await hostedCheckout(t);
  fake.markSessionPaid(sessionId); // paid at Stripe; the webhook never came
  t.clock.advance(31 * 60_000);
  await sweepHolds(t);
  const paid = await order(t, o.orderNumber);
  assert.equal(paid.status, "PAYMENT_RECEIVED", "never EXPIRED with the money in");
  assert.equal(paid.reservation.state, "committed");
  assert.equal(fake.refunds.length, 0);
});

Deno.test("a payment the shelf can no longer fill is refunded at Stripe", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { order: o, sessionId } = await hostedCheckout(t);
  // The owner counts the shelf and enters fewer units than this checkout holds.
  const [key, n] = o.reservation.items[0];
  const held = (await t.kv.get<StockRecord>(keys.stock(key))).value!;
  await t.writeStock(key, { ...held, stock: 0 });
  const session = fake.markSessionPaid(sessionId);
  await deliver(t, fake, "checkout.session.completed", session);
  const cancelled = await order(t, o.orderNumber);
  assert.equal(cancelled.status, "CANCELLED");
  assert.equal(cancelled.refund?.state, "refunded");
  assert.equal(fake.refunds.length, 1);
  assert.equal(fake.refunds[0].payment_intent, session.payment_intent);
  assert.equal(fake.refunds[0].amount, session.amount_total);
  const [refundReq] = fake.requestsTo("POST", "/v1/refunds");
  assert.equal(refundReq.idempotencyKey, `order-refund-${o.orderNumber}`);
  const { lowAlerted: _, ...after } = (await t.kv.get<StockRecord>(keys.stock(key))).value!;
  assert.deepEqual(after, { ...held, stock: 0, reserved: held.reserved - n }, "never negative");
});

Deno.test("a payment for a checkout replaced meanwhile is refunded, not kept", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { cart, order: first, sessionId } = await hostedCheckout(t);
  // The customer pays in the first tab while a second checkout replaces it, and the session
  // cannot be expired in time (Stripe is briefly unreachable).
  fake.failNext = 1;
  const again = await t.request(`/api/cart/${cart.id}/checkout/us`, { method: "POST" });
  assert.equal(again.status, 200, again.text);
  assert.equal(fake.sessions.get(sessionId)!.status, "open");
  const session = fake.markSessionPaid(sessionId);
  const signed = await fake.signedEvent("checkout.session.completed", session);
  for (let i = 0; i < 3; i++) {
    assert.equal((await postWebhook(t, signed.body, signed.signature)).status, 200);
  }
  assert.equal((await order(t, first.orderNumber)).status, "CANCELLED");
  assert.equal(fake.refunds.length, 1, "refunded once");
  assert.equal(fake.refunds[0].payment_intent, session.payment_intent);
  assert.equal((await order(t, again.json.orderNumber)).status, "STARTED");
  // The shopper who paid the old tab and the owner are both told, once.
  const told = (await listOutbox(t.kv)).map((e) => [e.email.to, e.email.subject]).sort();
  assert.deepEqual(told, [
    ["buyer@example.com", `Switch Tester Shop: order ${first.orderNumber} cancelled`],
    [
      t.config.shopEmail,
      `Order ${first.orderNumber} cancelled: $${(session.amount_total / 100).toFixed(2)} refunded`,
    ],
  ]);
  const shopperText = (await listOutbox(t.kv)).find((e) => e.email.to === "buyer@example.com")!
    .email.text;
  assert.match(shopperText, /Replaced by a new checkout\. A payment for it arrived afterwards/);
});

Deno.test("a promotion code applied on Stripe's page is recorded with the order's total", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { order: o, sessionId } = await hostedCheckout(t);
  const session = fake.markSessionPaid(sessionId, { discountCents: 500 });
  await deliver(t, fake, "checkout.session.completed", session);
  const paid = await order(t, o.orderNumber);
  assert.equal(paid.totalCents, o.totalCents - 500);
  assertDiscountSplit(o, paid, 500);
});

/**
 * A Stripe code's discount falls on the goods and on the estimated tax line alike, by their
 * amounts: the order keeps the goods' part as its discount and the tax as charged, and its
 * breakdown adds up to the total charged.
 */
function assertDiscountSplit(before: Order, paid: Order, discountCents: number) {
  assert.ok(before.taxCents > 0, "the order has tax for the code to fall on");
  const goods = Math.round(
    discountCents * before.subtotalCents / (before.subtotalCents + before.taxCents),
  );
  assert.equal(paid.discountCents, goods);
  assert.equal(paid.taxCents, before.taxCents - (discountCents - goods));
  assert.equal(
    paid.subtotalCents - paid.discountCents + paid.taxCents + paid.shippingCents,
    paid.totalCents,
  );
}

Deno.test("a percentage code on Stripe's page records the tax of the discounted goods, not the tax before it", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { order: o, sessionId } = await hostedCheckout(t);
  // 10% off every line, the estimated tax's included, as Stripe applies a percentage code.
  const discount = Math.round(o.subtotalCents * 0.1) + Math.round(o.taxCents * 0.1);
  const session = fake.markSessionPaid(sessionId, { discountCents: discount });
  await deliver(t, fake, "checkout.session.completed", session);
  const paid = await order(t, o.orderNumber);
  assert.equal(paid.totalCents, o.totalCents - discount);
  assert.equal(paid.discountCents, Math.round(o.subtotalCents * 0.1));
  // What the shop's own rule taxes the discounted goods at, to the cent.
  const own = computeTotals(o.subtotalCents, o.region, { amountOffCents: paid.discountCents });
  assert.ok(Math.abs(paid.taxCents - own.taxCents) <= 1, `${paid.taxCents} vs ${own.taxCents}`);
});

Deno.test("a session paid in the customer's currency records the dollar total", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { order: o, sessionId } = await hostedCheckout(t, "international");
  const session = fake.markSessionPaid(sessionId, { discountCents: 1000 });
  const usdTotal = session.amount_total;
  // Adaptive pricing: the customer saw and paid euros; the conversion block keeps the dollars.
  const eur = {
    ...session,
    currency: "eur",
    amount_total: Math.round(usdTotal * 0.9),
    total_details: { ...session.total_details, amount_discount: 900 },
    currency_conversion: {
      amount_subtotal: session.amount_subtotal,
      amount_total: usdTotal,
      fx_rate: "0.9",
      source_currency: "usd",
    },
  };
  await deliver(t, fake, "checkout.session.completed", eur);
  const paid = await order(t, o.orderNumber);
  assert.equal(paid.totalCents, o.totalCents - 1000);
  if (o.taxCents > 0) assertDiscountSplit(o, paid, 1000);
  else assert.equal(paid.discountCents, 1000);
});

// ---------------------------------------------------------------------------------------------
// Which provider answers

Deno.test("demo routes answer 404 when Stripe is configured", async () => {
  await using s = await stripeShop();
  const { t } = s;
  const { sessionId } = await hostedCheckout(t);
  const page = await t.request(`/api/demo/checkout-sessions/${sessionId}`);
  assert.equal(page.status, 404);
  const pay = await t.request(`/api/demo/checkout-sessions/${sessionId}/pay`, {
    method: "POST",
    body: { cardNumber: "4242 4242 4242 4242" },
  });
  assert.equal(pay.status, 404);
  assert.match(pay.json.error, /Stripe is configured/);
});

Deno.test("the Stripe webhook answers 404 in demo mode", async () => {
  await using t = await createTestApp();
  await using fake = await startFakeStripe();
  const signed = await fake.signedEvent("checkout.session.completed", { id: "cs_test_1" });
  const res = await postWebhook(t, signed.body, signed.signature);
  assert.equal(res.status, 404);
  assert.equal(typeof res.json.error, "string");
});

Deno.test("a session made for an order expired meanwhile is expired at Stripe and answered 409", async () => {
  let expireBeforeAttach: (() => Promise<unknown>) | null = null;
  await using s = await stripeShop(async (step) => {
    if (step === "create payment" && expireBeforeAttach) await expireBeforeAttach();
  });
  const { t, fake } = s;
  const cart = await fillCart(t);
  expireBeforeAttach = async () => {
    expireBeforeAttach = null;
    // The hold lapses while Stripe makes the session (an outage that lasted the whole hold).
    const [order] = await listOrders(t.kv);
    await releaseOrder(t, order.orderNumber, "EXPIRED", "The reservation lapsed");
  };
  const res = await t.request(`/api/cart/${cart.id}/checkout/us`, { method: "POST" });
  assert.equal(res.status, 409, res.text);
  assert.match(res.json.error, /replaced or cancelled before its payment could start/);
  const [session] = [...fake.sessions.values()];
  assert.equal(session.status, "expired", "nobody can pay it");
  const [order] = await listOrders(t.kv);
  assert.equal(order.payment, null, "the expired order keeps no payable session");
});

// ---------------------------------------------------------------------------------------------
// Refunds and stops followed to their end (found by the simulation: a refund was taken as done
// when Stripe accepted it, a refused one was retried every minute forever with a log line, and a
// replaced session was stopped once, with no retry)

/** A paid hosted order (paid by its webhook), answered with its session. */
async function paidHosted(t: TestApp, fake: FakeStripe) {
  const { order: o, sessionId } = await hostedCheckout(t);
  const session = fake.markSessionPaid(sessionId, { email: "ann@example.com" });
  await deliver(t, fake, "checkout.session.completed", session);
  assert.equal((await order(t, o.orderNumber)).status, "PAYMENT_RECEIVED");
  return { orderNumber: o.orderNumber, session };
}

function adminCancel(t: TestApp, orderNumber: string) {
  return t.request(`/api/admin/orders/${orderNumber}/cancel`, {
    method: "POST",
    headers: { Authorization: `Bearer ${t.config.adminPassword}` },
  });
}

/** The owner's emails about a refund that needs them. */
async function refundNotes(t: TestApp, orderNumber: string) {
  return (await listOutbox(t.kv)).filter((e) =>
    e.email.subject === `Refund for order ${orderNumber} needs you`
  );
}

Deno.test("a refund Stripe accepts as pending is followed: its webhook says it went through", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { orderNumber } = await paidHosted(t, fake);
  fake.refundStatus = "pending";
  const cancelled = await adminCancel(t, orderNumber);
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal(cancelled.json.refund, "requested", "accepted, not final");
  const requested = (await order(t, orderNumber)).refund!;
  assert.equal(requested.providerId, fake.refunds[0].id);
  assert.equal(fake.refunds[0].metadata.orderNumber, orderNumber, "its events find the order");
  await deliver(t, fake, "refund.updated", fake.settleRefund(fake.refunds[0].id, "succeeded"));
  assert.equal((await order(t, orderNumber)).refund?.state, "refunded");
  // The check queued for later finds it done and asks Stripe nothing more.
  const before = fake.requests.length;
  t.clock.advance(60 * 60_000);
  await s.runDue();
  assert.equal(fake.requestsTo("GET", "/v1/refunds").length, 0);
  assert.equal(fake.requests.length, before);
});

Deno.test("a refund Stripe fails after accepting it reaches the owner; the shopper still sees it owed", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { orderNumber } = await paidHosted(t, fake);
  fake.refundStatus = "pending";
  assert.equal((await adminCancel(t, orderNumber)).status, 200);
  const failed = fake.settleRefund(fake.refunds[0].id, "failed", "expired_or_canceled_card");
  await deliver(t, fake, "refund.failed", failed);
  const o = await order(t, orderNumber);
  assert.equal(o.refund?.state, "failed");
  assert.equal(o.refund?.lastError, "expired_or_canceled_card");
  const notes = await refundNotes(t, orderNumber);
  assert.equal(notes.length, 1);
  assert.match(notes[0].email.text, /accepted it, then failed it: expired_or_canceled_card/);
  assert.equal(notes[0].email.to, t.config.shopEmail);
  assert.equal((await t.request(`/api/orders/${orderNumber}`)).json.refund, "pending");
  // The same event again changes nothing and emails nobody.
  await deliver(t, fake, "refund.failed", failed);
  assert.equal((await refundNotes(t, orderNumber)).length, 1);
});

Deno.test("without its webhook, a pending refund's end is read from Stripe", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { orderNumber } = await paidHosted(t, fake);
  fake.refundStatus = "pending";
  assert.equal((await adminCancel(t, orderNumber)).status, 200);
  await s.runDue();
  assert.equal((await order(t, orderNumber)).refund?.state, "requested", "not final yet");
  fake.settleRefund(fake.refunds[0].id, "succeeded");
  t.clock.advance(15 * 60_000);
  await s.runDue();
  assert.equal(fake.requestsTo("GET", `/v1/refunds/${fake.refunds[0].id}`).length, 1);
  assert.equal((await order(t, orderNumber)).refund?.state, "refunded");
  assert.equal(fake.refunds.length, 1, "refunded once");
});

Deno.test("a refund Stripe keeps refusing is tried on a widening schedule; the owner hears once", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { orderNumber } = await paidHosted(t, fake);
  fake.failNext = 1_000;
  assert.equal((await adminCancel(t, orderNumber)).status, 200, "the cancellation stands");
  const start = t.clock.now();
  const failures = async () => (await order(t, orderNumber)).refund!.failures ?? 0;
  assert.equal(await failures(), 1);
  const tries: number[] = [];
  for (let minute = 0; minute <= 240; minute++) {
    const before = await failures();
    await s.runDue();
    if (await failures() > before) tries.push(minute);
    t.clock.advance(60_000);
  }
  // Once at the cancel, then 1, 5, 15 and 60 minutes apart, then every 3 hours.
  assert.deepEqual(tries, [1, 6, 21, 81]);
  const owed = (await order(t, orderNumber)).refund!;
  assert.deepEqual([owed.state, owed.failures, owed.failingSince], ["pending", 5, start]);
  const notes = await refundNotes(t, orderNumber);
  assert.equal(notes.length, 1, "told once, after an hour of refusals");
  assert.match(
    notes[0].email.text,
    /refused it since .* \(5 tries; the last answer: .*Fake outage/,
  );
  fake.failNext = 0;
  t.clock.advance(3 * 60 * 60_000);
  await s.runDue();
  assert.equal((await order(t, orderNumber)).refund?.state, "refunded");
  assert.equal(fake.refunds.length, 1);
  assert.equal((await s.queue.ofType("refund")).length, 0, "nothing more to try");
});

Deno.test("a refund Stripe accepted after a refused try starts afresh: a later failed check does not tell the owner it needs them", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { orderNumber } = await paidHosted(t, fake);
  fake.failNext = 1;
  assert.equal((await adminCancel(t, orderNumber)).status, 200);
  assert.equal((await order(t, orderNumber)).refund!.failures, 1, "the first try was refused");
  // A minute on, Stripe accepts it, pending (a new account's balance, say).
  fake.refundStatus = "pending";
  t.clock.advance(60_000);
  await s.runDue();
  const accepted = (await order(t, orderNumber)).refund!;
  assert.deepEqual(
    [accepted.state, accepted.failures, accepted.failingSince],
    ["requested", 0, null],
  );
  // Over an hour after the refused try, one look at the pending refund fails.
  t.clock.advance(60 * 60_000);
  fake.failNext = 1;
  await s.runDue();
  const looked = (await order(t, orderNumber)).refund!;
  assert.equal(looked.failures, 1, "one failed look, counted on its own");
  assert.deepEqual(
    await refundNotes(t, orderNumber),
    [],
    "the owner is not told a refund Stripe accepted needs them",
  );
  // The next look comes a minute later, not hours, and finds it done.
  fake.settleRefund(fake.refunds[0].id, "succeeded");
  t.clock.advance(60_000);
  await s.runDue();
  assert.equal((await order(t, orderNumber)).refund?.state, "refunded");
});

Deno.test("a replaced checkout's session Stripe cannot expire now is expired by its queued job", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { cart, sessionId } = await hostedCheckout(t);
  fake.failNext = 1;
  const again = await t.request(`/api/cart/${cart.id}/checkout/us`, { method: "POST" });
  assert.equal(again.status, 200, again.text);
  assert.equal(fake.sessions.get(sessionId)!.status, "open", "Stripe refused the stop");
  // The job queued with the replacing write keeps at it until Stripe answers.
  fake.failNext = 1;
  await s.runDue();
  assert.equal(fake.sessions.get(sessionId)!.status, "open");
  t.clock.advance(30_000);
  await s.runDue();
  assert.equal(fake.sessions.get(sessionId)!.status, "expired");
  assert.equal((await s.queue.ofType("stop-payment")).length, 0);
});

Deno.test("a refund Stripe says failed after it went through is the owner's to see to", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { orderNumber } = await paidHosted(t, fake);
  assert.equal((await adminCancel(t, orderNumber)).status, 200);
  assert.equal((await order(t, orderNumber)).refund?.state, "refunded");
  // Rare, but Stripe allows it: the card's bank sends the refund back.
  const failed = fake.settleRefund(fake.refunds[0].id, "failed", "lost_or_stolen_card");
  await deliver(t, fake, "refund.failed", failed);
  assert.equal((await order(t, orderNumber)).refund?.state, "failed");
  assert.equal((await refundNotes(t, orderNumber)).length, 1);
  // An update that it succeeded, arriving late, changes nothing back.
  await deliver(t, fake, "refund.updated", { ...failed, status: "succeeded" });
  assert.equal((await order(t, orderNumber)).refund?.state, "failed");
});

Deno.test("a refund's queued try that arrives a few seconds early still runs", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { orderNumber } = await paidHosted(t, fake);
  fake.failNext = 1;
  assert.equal((await adminCancel(t, orderNumber)).status, 200);
  const { nextTryAt } = (await order(t, orderNumber)).refund!;
  // Another isolate's clock runs 5 seconds behind the one that queued the try.
  t.clock.set(nextTryAt! - 5_000);
  const { settleRefund } = await import("../../server/orders/refunds.ts");
  await settleRefund(t, orderNumber, { queued: true });
  assert.equal((await order(t, orderNumber)).refund?.state, "refunded");
});

Deno.test("sessions recorded before the payment kinds' new names are still expired at Stripe", async () => {
  await using s = await stripeShop();
  const { t, fake } = s;
  const { cart, order: first, sessionId } = await hostedCheckout(t);
  // As the previous version stored it: the kind under Stripe's name for it.
  const stored = (await t.kv.get<Order>(keys.order(first.orderNumber)))!;
  await t.kv.set(stored.key, {
    ...stored.value!,
    payment: { ...stored.value!.payment!, kind: "checkout_session" },
  });
  await t.kv.delete(keys.migration("6-payment-kinds"));
  assert.deepEqual((await migrate(t.kv, t.clock)).applied, [6]);
  assert.equal((await order(t, first.orderNumber)).payment?.kind, "hosted");

  // A stop job that the previous version queued names the old kind too; it still stops it.
  fake.failNext = 1;
  const again = await t.request(`/api/cart/${cart.id}/checkout/us`, { method: "POST" });
  assert.equal(again.status, 200, again.text);
  assert.equal(fake.sessions.get(sessionId)!.status, "open", "Stripe refused the stop");
  const queued = (await s.queue.ofType("stop-payment"))[0].job as unknown as StopJob;
  const oldShape = { ...queued, payment: { ...queued.payment, kind: "checkout_session" } };
  await stopPayment(t, oldShape as unknown as StopJob);
  assert.equal(fake.sessions.get(sessionId)!.status, "expired");
});

Deno.test("a hold is extended only as far as Stripe keeps the payment open", async () => {
  // A Checkout Session's end is fixed when it is made (at least 30 minutes, Stripe's floor): a
  // 30-minute hold cannot run 10 minutes past it, a 5-minute one can; a payment intent has no end.
  {
    await using shop = await stripeShop();
    const { t } = shop;
    const { order, sessionId } = await hostedCheckout(t);
    const res = await t.request(`/api/orders/${order.orderNumber}/extend-hold`, {
      method: "POST",
      body: { paymentId: sessionId },
    });
    assert.equal(res.status, 409, res.text);
    assert.match(res.json.error, /cannot be kept open longer/);
    const after = (await findOrder(t.kv, order.orderNumber))!;
    assert.equal(after.reservation.expiresAt, order.reservation.expiresAt, "the hold is unchanged");
    assert.equal(after.reservation.extendedAt, undefined, "nothing is recorded");

    const { res: created, intentId } = await embeddedCheckout(t);
    const embedded = await t.request(`/api/orders/${created.json.orderNumber}/extend-hold`, {
      method: "POST",
      body: { paymentId: intentId },
    });
    assert.equal(embedded.status, 200, embedded.text);
    assert.equal(embedded.json.holdSecondsLeft, 40 * 60);
  }
  {
    await using shop = await stripeShop(undefined, { RESERVATION_MINUTES: "5" });
    const { t } = shop;
    const { order, sessionId } = await hostedCheckout(t);
    const res = await t.request(`/api/orders/${order.orderNumber}/extend-hold`, {
      method: "POST",
      body: { paymentId: sessionId },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.holdSecondsLeft, 15 * 60);
  }
});
