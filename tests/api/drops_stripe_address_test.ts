/**
 * A hosted drop checkout paid through Stripe, whose page collected a delivery address far longer
 * than the shop's own forms allow: the drop counts it per address all the same (a KV key holds at
 * most 2 KB), and the payment is recorded.
 */
import assert from "node:assert/strict";
import { findOrder } from "../../server/orders/store.ts";
import { FAKE_STRIPE_ENV, fakeStripePayments, startFakeStripe } from "../helpers/fake_stripe.ts";
import { createTestApp } from "../helpers/test_app.ts";
import { storedJobs } from "../helpers/stored_jobs.ts";
import { ledgerOf, placeFor, scheduleDrop } from "../helpers/drop_fixtures.ts";
import { STARTER } from "../helpers/shop_fixtures.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { COMPONENTS, switchKey } from "../../shared/bom.ts";

const STRIPE_ENV = FAKE_STRIPE_ENV;

Deno.test("a Stripe payment whose address is longer than a KV key is recorded and counted", async () => {
  await using fake = await startFakeStripe();
  await using t = await createTestApp({
    env: STRIPE_ENV,
    payments: fakeStripePayments(fake),
  });
  const queue = storedJobs(t.kv);
  fake.now = () => t.clock.now();
  const other = PACKS[1];
  for (const id of new Set([...STARTER.switchIds, ...other.switchIds])) {
    await t.writeStock(switchKey(id), { stock: 1000, reserved: 0, used: 0 });
  }
  for (const key of COMPONENTS) await t.writeStock(key, { stock: 1000, reserved: 0, used: 0 });
  const drop = await scheduleDrop(t);
  const made = await t.request(`/api/cart/add?itemId=${other.id}`, { method: "POST" });
  assert.equal(made.status, 200, made.text);
  const cartId = made.json.id;
  const ticket = await placeFor(t, drop, `cart:${cartId}`);
  const added = await t.request(
    `/api/cart/add?itemId=${STARTER.id}&cartId=${cartId}&ticket=${ticket}`,
    { method: "POST" },
  );
  assert.equal(added.status, 200, added.text);
  const started = await t.request(`/api/cart/${cartId}/checkout/us`, { method: "POST" });
  assert.equal(started.status, 200, started.text);
  const order = (await findOrder(t.kv, started.json.orderNumber))!;

  // Stripe takes address lines of thousands of characters; the shop's own forms stop at 200.
  const session = fake.markSessionPaid(order.payment!.id, {
    email: "ann@example.com",
    address: {
      line1: "Long Road ".repeat(400),
      city: "Springfield",
      postal_code: "12345",
      country: "US",
    },
  });
  const signed = await fake.signedEvent("checkout.session.completed", session);
  await t.request("/api/webhooks/stripe", {
    method: "POST",
    body: signed.body,
    headers: { "Content-Type": "application/json", "Stripe-Signature": signed.signature },
  });
  await queue.runDue(t);
  const paid = (await findOrder(t.kv, order.orderNumber))!;
  assert.equal(paid.status, "PAYMENT_RECEIVED", "the charge is recorded");
  assert.deepEqual(await ledgerOf(t, drop), { holding: 0, sold: 1 });
  assert.equal(paid.dropHold?.state, "sold");
  assert.ok(paid.dropHold!.persons.some((p) => p.startsWith("address:")), "counted by its address");
});
