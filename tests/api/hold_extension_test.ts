/**
 * The shopper keeps an unpaid checkout's hold longer, once (WCAG 2.2.1 Timing Adjustable): proved
 * by the payment the page shows, refused twice, after the hold ended and for someone else's order,
 * and the expiry then happens at the new end, not the old one.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers/test_app.ts";
import { storedJobs } from "../helpers/stored_jobs.ts";
import {
  newPackCart,
  payDemo,
  startHostedCheckout,
  stockCounts,
  US_ADDRESS,
} from "../helpers/shop_fixtures.ts";
import { getOrder } from "../../server/orders/store.ts";
import { switchKey } from "../../shared/bom.ts";
import { PACKS } from "../../shared/catalog/packs.ts";

const MINUTE = 60_000;
const GOOD_CARD = "4242424242424242";

function extend(t: TestApp, orderNumber: string, body: unknown, client?: string) {
  return t.request(`/api/orders/${orderNumber}/extend-hold`, { method: "POST", body, client });
}

Deno.test("a hold is extended once by the configured minutes, and the payment page follows", async () => {
  await using t = await createTestApp();
  const { orderNumber, sessionId } = await startHostedCheckout(t);
  const before = (await t.request(`/api/orders/${orderNumber}`)).json;
  assert.equal(before.holdSecondsLeft, 30 * 60);
  assert.equal(before.holdExtendMinutes, 10, "the page can offer 10 more minutes");

  t.clock.advance(25 * MINUTE);
  const res = await extend(t, orderNumber, { paymentId: sessionId });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.holdSecondsLeft, 15 * 60, "5 minutes were left, now 15");
  assert.equal(res.json.holdExtendMinutes, null, "no second offer");
  assert.equal(
    (await getOrder(t.kv, orderNumber)).reservation.expiresAt,
    t.clock.now() + 15 * MINUTE,
  );

  const again = await extend(t, orderNumber, { paymentId: sessionId });
  assert.equal(again.status, 409);
  assert.equal(
    again.json.error,
    "Your hold was already extended once and cannot be extended again.",
  );

  // Past the old end the demo page still takes the card: the provider's payment was kept open too.
  t.clock.advance(10 * MINUTE);
  const paid = await payDemo(t, sessionId, { cardNumber: GOOD_CARD, address: US_ADDRESS });
  assert.equal(paid.status, 200, paid.text);
  assert.equal((await getOrder(t.kv, orderNumber)).status, "PAYMENT_RECEIVED");
});

Deno.test("an ended hold, someone else's order and bad input are refused, changing nothing", async () => {
  await using t = await createTestApp();
  const mine = await startHostedCheckout(t);
  const theirs = await startHostedCheckout(t);
  const wrong = await extend(t, theirs.orderNumber, { paymentId: mine.sessionId });
  assert.equal(wrong.status, 404);
  assert.equal(wrong.json.error, "Order not found");
  for (const body of [{}, { paymentId: "" }, { paymentId: 42 }, null]) {
    const bad = await extend(t, mine.orderNumber, body);
    assert.equal(bad.status, 400, JSON.stringify(body));
    assert.equal(typeof bad.json.error, "string");
  }
  const unknown = await extend(t, "ST0000NOPE", { paymentId: mine.sessionId });
  assert.equal(unknown.status, 404);

  t.clock.advance(30 * MINUTE);
  const lapsed = await extend(t, mine.orderNumber, { paymentId: mine.sessionId });
  assert.equal(lapsed.status, 409);
  assert.equal(
    lapsed.json.error,
    "Your hold has already ended. Return to your cart to check out again.",
  );
  const order = await getOrder(t.kv, theirs.orderNumber);
  assert.equal(order.reservation.extendedAt, undefined, "their hold untouched");
});

Deno.test("guessing through the extend route is counted like order lookups", async () => {
  await using t = await createTestApp();
  const { orderNumber } = await startHostedCheckout(t);
  let last;
  for (let i = 0; i < 31; i++) {
    last = await extend(t, orderNumber, { paymentId: `cs_demo_guess${i}xxxxxxxx` }, "127.0.0.9");
  }
  assert.equal(last!.status, 429);
  const other = await extend(t, orderNumber, { paymentId: "cs_demo_guessxxxxxxxx" }, "127.0.0.10");
  assert.equal(other.status, 404, "another address is not locked out");
});

Deno.test("a paid order's hold is not extended", async () => {
  await using t = await createTestApp();
  const { orderNumber, sessionId } = await startHostedCheckout(t);
  await payDemo(t, sessionId, { cardNumber: GOOD_CARD, address: US_ADDRESS });
  const res = await extend(t, orderNumber, { paymentId: sessionId });
  assert.equal(res.status, 409);
  assert.match(res.json.error, /no longer waiting for payment/);
});

Deno.test("the expiry comes at the extended end, not the old one, and gives the stock back", async () => {
  await using t = await createTestApp();
  const queue = storedJobs(t.kv);
  const key = switchKey(PACKS[0].switchIds[0]);
  const before = await stockCounts(t.kv, key);
  const { orderNumber, sessionId } = await startHostedCheckout(t, await newPackCart(t));
  t.clock.advance(29 * MINUTE);
  assert.equal((await extend(t, orderNumber, { paymentId: sessionId })).status, 200);

  t.clock.advance(1 * MINUTE); // the old end: the queued job comes and looks again
  await queue.runDue(t);
  assert.equal((await getOrder(t.kv, orderNumber)).status, "STARTED");
  assert.equal((await stockCounts(t.kv, key)).reserved, before.reserved + 1);

  t.clock.advance(10 * MINUTE - 1);
  await queue.runDue(t);
  assert.equal((await getOrder(t.kv, orderNumber)).status, "STARTED", "a millisecond early");
  t.clock.advance(1);
  await queue.runDue(t);
  assert.equal((await getOrder(t.kv, orderNumber)).status, "EXPIRED");
  assert.deepEqual(await stockCounts(t.kv, key), before);
});

Deno.test("HOLD_EXTENSION_MINUTES sets the extension", async () => {
  await using t = await createTestApp({ env: { HOLD_EXTENSION_MINUTES: "5" } });
  const { orderNumber, sessionId } = await startHostedCheckout(t);
  const res = await extend(t, orderNumber, { paymentId: sessionId });
  assert.equal(res.json.holdSecondsLeft, 35 * 60);
});
