/**
 * What the shop tells the owner and the shopper through an order's life, each email once, and
 * the Emails tab's list and resend.
 */
import assert from "node:assert/strict";
import { adminCookie, createTestApp, type TestApp } from "../helpers/test_app.ts";
import { paidOrder, shopperMails, US_ADDRESS } from "../helpers/shop_fixtures.ts";
import { listOutbox } from "../../server/email/outbox.ts";
import { GIVE_UP_AFTER_MS } from "../../server/email/delivery_schedule.ts";

async function admin(t: TestApp, cookie: string, path: string, body?: unknown) {
  return await t.request(`/api/admin${path}`, {
    method: body === undefined ? "GET" : "POST",
    body,
    headers: { Cookie: cookie },
  });
}

/** Subjects of the outbox, oldest first, with the order number written N. */
async function subjects(t: TestApp, to?: string): Promise<string[]> {
  return (await listOutbox(t.kv)).filter((e) => !to || e.email.to === to)
    .map((e) => e.email.subject.replace(/ST[A-Z0-9]+/, "N"));
}

Deno.test("the owner hears of every paid order once: items, total and where it goes", async () => {
  await using t = await createTestApp();
  const { orderNumber } = await paidOrder(t, { name: "Ann Lee" });
  const owner = (await listOutbox(t.kv)).filter((e) => e.email.to === t.config.shopEmail);
  assert.equal(owner.length, 1);
  const { subject, text } = owner[0].email;
  assert.equal(subject, `New order ${orderNumber}: $18.98`);
  assert.match(text, /1 × Starter Pack/);
  assert.match(text, /Total: \$18\.98/);
  assert.ok(text.includes(US_ADDRESS.street) && text.includes("Ann Lee"));
  assert.match(text, /\/admin/);
});

Deno.test("tracking, shipping and delivery each tell the shopper once", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const { orderNumber } = await paidOrder(t);
  const track = (n: string) =>
    admin(t, cookie, `/orders/${orderNumber}/tracking`, { trackingNumber: n });
  t.clock.advance(1000);
  assert.equal((await track("9400 1")).status, 200);
  assert.equal((await track("9400 2")).status, 200, "a corrected number");
  t.clock.advance(1000);
  assert.equal((await admin(t, cookie, "/orders/ship-processed", {})).status, 200);
  t.clock.advance(1000);
  assert.equal((await admin(t, cookie, `/orders/${orderNumber}/delivered`, {})).status, 200);
  assert.deepEqual(await subjects(t, "ann@example.com"), [
    "Switch Tester Shop: order N confirmed",
    "Switch Tester Shop: we're printing order N",
    "Switch Tester Shop: order N has shipped",
    "Switch Tester Shop: order N delivered",
  ]);
  await t.deliverEmails();
  const printing = shopperMails(t).find((e) => e.subject.includes("printing"))!;
  assert.match(printing.text, /\(94001\)/, "the number it had when printing started");
});

Deno.test("a cancellation tells the shopper the refund and the owner who cancelled", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const { orderNumber } = await paidOrder(t);
  assert.equal((await admin(t, cookie, `/orders/${orderNumber}/cancel`, {})).status, 200);
  assert.equal((await admin(t, cookie, `/orders/${orderNumber}/cancel`, {})).status, 409);
  const outbox = await listOutbox(t.kv);
  const shopper = outbox.filter((e) =>
    e.email.subject.includes("cancelled") && e.email.to === "ann@example.com"
  );
  assert.equal(shopper.length, 1);
  assert.match(shopper[0].email.text, /refunding \$18\.98 in full/);
  const owner = outbox.filter((e) =>
    e.email.to === t.config.shopEmail && e.email.subject.includes("cancelled")
  );
  assert.equal(owner.length, 1);
  assert.equal(owner[0].email.subject, `Order ${orderNumber} cancelled: $18.98 refunded`);
  assert.match(owner[0].email.text, /Cancelled by the shop/);
});

Deno.test("the Emails list: newest first, by recipient, with status and error, and resend", async () => {
  await using t = await createTestApp();
  let cookie = await adminCookie(t);
  await paidOrder(t, { email: "ann@example.com" });
  t.clock.advance(1000);
  await paidOrder(t, { email: "ben@example.com" });
  // The mail server refuses everything for a day: each email gives up.
  t.mailer.failNext = 100;
  await t.deliverEmails();
  t.clock.advance(GIVE_UP_AFTER_MS);
  await t.deliverEmails();
  t.mailer.failNext = 0;
  cookie = await adminCookie(t);

  const every = await admin(t, cookie, "/emails");
  assert.equal(every.status, 200);
  // The owner's note that mail is failing waits to go out, apart from the four.
  assert.deepEqual(
    every.json.filter((e: { subject: string }) => e.subject === "Emails are not going out")
      .map((e: { status: string }) => e.status),
    ["pending"],
  );
  const all = {
    json: every.json.filter((e: { subject: string }) => !e.subject.startsWith("Emails")),
  };
  assert.equal(all.json.length, 4, "two confirmations and two owner notes");
  const times = all.json.map((e: { createdAt: string }) => Date.parse(e.createdAt));
  assert.deepEqual(times, [...times].sort((a, b) => b - a), "newest first");
  assert.ok(all.json.every((e: { status: string }) => e.status === "failed"));
  assert.ok(all.json.every((e: { error: string | null }) => e.error), "each with its error");

  const ben = await admin(t, cookie, "/emails?to=BEN@example.com");
  assert.equal(ben.json.length, 1);
  assert.equal(ben.json[0].to, "ben@example.com");
  assert.match(ben.json[0].text, /Thank you for your order/);
  assert.equal((await admin(t, cookie, "/emails?limit=1")).json.length, 1);
  assert.equal((await admin(t, cookie, "/emails?limit=0")).status, 400);

  t.clock.advance(1000);
  const resent = await admin(t, cookie, `/emails/${ben.json[0].id}/resend`, {});
  assert.equal(resent.status, 201, resent.text);
  assert.equal(resent.json.status, "pending");
  await t.deliverEmails();
  const after = await admin(t, cookie, "/emails?to=ben@example.com");
  assert.deepEqual(after.json.map((e: { status: string }) => e.status), ["sent", "failed"]);
  assert.equal(shopperMails(t).filter((e) => e.to === "ben@example.com").length, 1);

  assert.equal((await admin(t, cookie, "/emails/nope/resend", {})).status, 404);
  assert.equal((await t.request("/api/admin/emails")).status, 401, "owner only");
});

Deno.test("the Emails tab says when mail is failing, how many wait and how many gave up", async () => {
  await using t = await createTestApp();
  const healthOf = async () => {
    const res = await admin(t, await adminCookie(t), "/emails/health");
    assert.equal(res.status, 200, res.text);
    return res.json;
  };
  assert.deepEqual(await healthOf(), {
    failingSince: null,
    lastError: null,
    waiting: 0,
    failed: 0,
  });
  await paidOrder(t, { email: "ann@example.com" });
  t.mailer.failNext = 100;
  await t.deliverEmails();
  const failing = await healthOf();
  assert.equal(failing.failingSince, new Date(t.clock.now()).toISOString());
  assert.match(failing.lastError, /Simulated mail server failure/);
  assert.deepEqual([failing.waiting, failing.failed], [2, 0]);
  t.clock.advance(GIVE_UP_AFTER_MS);
  await t.deliverEmails();
  // The two gave up; the owner's note that mail fails waits.
  assert.deepEqual([(await healthOf()).waiting, (await healthOf()).failed], [1, 2]);
  t.mailer.failNext = 0;
  await t.deliverEmails();
  assert.deepEqual(await healthOf(), {
    failingSince: null,
    lastError: null,
    waiting: 0,
    failed: 0,
  });
  assert.equal((await t.request("/api/admin/emails/health")).status, 401, "owner only");
});

Deno.test("a refund the shop makes by itself is told to the shopper and the owner, once", async () => {
  // Found by the simulation: a payment the shelf could no longer fill (or whose promo code ran
  // out, or whose checkout was replaced) was refunded and nobody was told.
  await using t = await createTestApp();
  const { startHostedCheckout, payDemo, STARTER } = await import("../helpers/shop_fixtures.ts");
  const cookie = await adminCookie(t);
  const checkout = await startHostedCheckout(t);
  // The owner counts the shelf and finds none of one switch the checkout holds.
  const res = await t.request(`/api/admin/inventory/switches/${STARTER.switchIds[0]}`, {
    method: "PUT",
    body: { stock: 0 },
    headers: { Cookie: cookie },
  });
  assert.equal(res.status, 200, res.text);
  const paid = await payDemo(t, checkout.sessionId, {
    cardNumber: "4242424242424242",
    email: "ann@example.com",
    address: US_ADDRESS,
  });
  assert.equal(paid.status, 200, paid.text);
  assert.equal(paid.json.status, "CANCELLED");
  assert.deepEqual(await subjects(t, "ann@example.com"), ["Switch Tester Shop: order N cancelled"]);
  assert.deepEqual(await subjects(t, t.config.shopEmail), ["Order N cancelled: $18.98 refunded"]);
  await t.deliverEmails();
  const [told] = shopperMails(t);
  assert.match(told.text, /We could not fill this order from our shelf after all/);
  assert.match(told.text, /We are refunding \$18\.98 in full/);
  const owner = t.mailer.sent.find((e) => e.subject.endsWith("$18.98 refunded"))!;
  assert.match(owner.text, /Reason: We could not fill this order/);
  // The same payment reported again tells nobody twice.
  const before = (await listOutbox(t.kv)).length;
  const again = await payDemo(t, checkout.sessionId, { cardNumber: "4242424242424242" });
  assert.equal(again.status, 200);
  assert.equal((await listOutbox(t.kv)).length, before);
});
