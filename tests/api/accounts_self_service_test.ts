/**
 * A shopper's self-service: password reset by email (once, for an hour, every session ended, no
 * word on whether an account exists), and their data: an export, and deleting the account with
 * orders kept anonymised.
 */
import assert from "node:assert/strict";
import {
  adminCookie,
  createTestApp,
  TEST_ADMIN_PASSWORD,
  type TestApp,
} from "../helpers/test_app.ts";
import { newPackCart, sessionIdOf, STARTER, US_ADDRESS } from "../helpers/shop_fixtures.ts";
import { ERASED_TEXT, listOutbox } from "../../server/email/outbox.ts";
import { getOrder } from "../../server/orders/store.ts";

const EMAIL = "dana@example.com";
const PASSWORD = "Correct123";

async function account(t: TestApp): Promise<string> {
  const reg = await t.request("/auth/register", {
    method: "POST",
    body: { email: EMAIL, password: PASSWORD },
  });
  assert.equal(reg.status, 201, reg.text);
  return await signIn(t, PASSWORD);
}

async function signIn(t: TestApp, password: string, client = "127.0.0.9"): Promise<string> {
  const res = await t.request("/auth/login", {
    method: "POST",
    body: { email: EMAIL, password },
    client,
  });
  return res.status === 200 ? res.json.token : "";
}

async function me(t: TestApp, token: string) {
  return (await t.request("/auth/me", { headers: { Authorization: `Bearer ${token}` } })).status;
}

async function askReset(t: TestApp, email: string, client = "127.0.0.20") {
  return await t.request("/auth/password-reset", { method: "POST", body: { email }, client });
}

/** The token in the newest reset email to `to`. */
async function resetToken(t: TestApp, to = EMAIL): Promise<string> {
  const mails = (await listOutbox(t.kv)).filter((e) =>
    e.email.to === to && /reset/.test(e.email.subject)
  );
  const url = /\S+\/restore-password\?token=(\S+)/.exec(mails.at(-1)!.email.text)!;
  return url[1];
}

async function confirm(t: TestApp, token: string, password: string) {
  return await t.request("/auth/password-reset/confirm", {
    method: "POST",
    body: { token, password },
  });
}

Deno.test("a reset link sets a new password once and signs out every session", async () => {
  await using t = await createTestApp();
  const phone = await account(t);
  const laptop = await signIn(t, PASSWORD);
  const asked = await askReset(t, EMAIL);
  assert.deepEqual([asked.status, asked.json], [200, { ok: true }]);
  const mail = (await listOutbox(t.kv)).find((e) => e.email.to === EMAIL)!;
  assert.match(mail.email.text, /\/restore-password\?token=/);
  assert.match(mail.email.text, /one hour/);

  const token = await resetToken(t);
  const weak = await confirm(t, token, "short");
  assert.equal(weak.status, 400, "the sign-up rules apply");
  const done = await confirm(t, token, "Brandnew123");
  assert.equal(done.status, 200, done.text);
  assert.deepEqual([await me(t, phone), await me(t, laptop)], [401, 401], "every session ends");
  assert.equal(await signIn(t, PASSWORD), "", "the old password no longer works");
  assert.notEqual(await signIn(t, "Brandnew123"), "");

  const again = await confirm(t, token, "Another123");
  assert.equal(again.status, 400, "a used link");
  assert.match(again.json.error, /expired or was already used/);
  assert.equal((await confirm(t, "nonsense-token-123", "Another123")).status, 400, "unknown");
});

Deno.test("a link older than an hour, or from before the last new password, is refused", async () => {
  await using t = await createTestApp();
  await account(t);
  await askReset(t, EMAIL);
  const first = await resetToken(t);
  t.clock.advance(60 * 60_000);
  assert.equal((await confirm(t, first, "Brandnew123")).status, 400, "expired after one hour");

  await askReset(t, EMAIL, "127.0.0.21");
  const older = await resetToken(t);
  t.clock.advance(1000);
  await askReset(t, EMAIL, "127.0.0.22");
  const newer = await resetToken(t);
  assert.equal((await confirm(t, newer, "Brandnew123")).status, 200);
  assert.equal((await confirm(t, older, "Other12345")).status, 400, "voided by the new password");
});

Deno.test("the answer never tells whether an account exists; requests are limited", async () => {
  await using t = await createTestApp();
  await account(t);
  const known = await askReset(t, EMAIL);
  const unknown = await askReset(t, "nobody@example.com");
  assert.deepEqual([unknown.status, unknown.json], [known.status, known.json]);
  assert.equal(
    (await listOutbox(t.kv)).filter((e) => e.email.to === "nobody@example.com").length,
    0,
    "nothing is sent to an address without an account",
  );
  assert.equal((await askReset(t, "not-an-email")).status, 400);

  // Per account: from many addresses, at most three emails an hour, answers unchanged.
  for (let i = 0; i < 6; i++) {
    const res = await askReset(t, EMAIL, `127.0.1.${i + 1}`);
    assert.deepEqual([res.status, res.json], [200, { ok: true }]);
  }
  const sent = (await listOutbox(t.kv)).filter((e) => e.email.to === EMAIL);
  assert.equal(sent.length, 3, "the inbox is not flooded");

  // Per client: the sixth request within ten minutes is refused.
  const statuses = [];
  for (let i = 0; i < 6; i++) {
    statuses.push((await askReset(t, `x${i}@example.com`, "127.0.2.1")).status);
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
});

/** A paid order of the signed-in shopper, through the account's checkout. */
/** The owner labels and ships the order. */
async function ship(t: TestApp, orderNumber: string): Promise<void> {
  const cookie = await adminCookie(t);
  for (
    const [path, body] of [
      [`/api/admin/orders/${orderNumber}/tracking`, { trackingNumber: "9400111122223333444455" }],
      ["/api/admin/orders/ship-processed", { orderNumbers: [orderNumber] }],
    ] as const
  ) {
    const res = await t.request(path, { method: "POST", body, headers: { Cookie: cookie } });
    assert.equal(res.status, 200, res.text);
  }
}

async function ordersAsShopper(t: TestApp, token: string): Promise<string> {
  const headers = { Authorization: `Bearer ${token}` };
  const cartId = await newPackCart(t, headers);
  const checkout = await t.request(`/api/cart/${cartId}/checkout/us`, { method: "POST", headers });
  assert.equal(checkout.status, 200, checkout.text);
  const paid = await t.request(
    `/api/demo/checkout-sessions/${sessionIdOf(checkout.json.url)}/pay`,
    {
      method: "POST",
      body: { cardNumber: "4242424242424242", email: EMAIL, name: "Dana Doe", address: US_ADDRESS },
    },
  );
  assert.equal(paid.status, 200, paid.text);
  return checkout.json.orderNumber;
}

Deno.test("my data: the export holds the account and orders, never the password", async () => {
  await using t = await createTestApp();
  const token = await account(t);
  const orderNumber = await ordersAsShopper(t, token);
  const res = await t.request("/auth/me/export", { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-disposition") ?? "", /attachment; filename="my_data.json"/);
  assert.equal(res.json.account.email, EMAIL);
  assert.deepEqual(res.json.orders.map((o: { orderNumber: string }) => o.orderNumber), [
    orderNumber,
  ]);
  assert.equal(res.json.orders[0].customerName, "Dana Doe");
  assert.deepEqual(res.json.addresses.map((a: { street: string }) => a.street), [
    US_ADDRESS.street,
  ]);
  assert.ok(!/passwordHash|salt|iterations/.test(res.text), "no secrets");
  assert.equal((await t.request("/auth/me/export")).status, 401);
});

Deno.test("deleting the account: refused while an order is still to ship; then sessions and sign-in end, orders stay anonymised", async () => {
  await using t = await createTestApp();
  const token = await account(t);
  const orderNumber = await ordersAsShopper(t, token);
  const headers = { Authorization: `Bearer ${token}` };

  const wrong = await t.request("/auth/me", {
    method: "DELETE",
    body: { password: "Wrong1234" },
    headers,
  });
  assert.equal(wrong.status, 401);
  assert.equal(await me(t, token), 200, "nothing deleted");

  // The order is paid and not shipped: its name and address are what it is sent with.
  const early = await t.request("/auth/me", {
    method: "DELETE",
    body: { password: PASSWORD },
    headers,
  });
  assert.equal(early.status, 409, early.text);
  assert.equal(
    early.json.error,
    `Your order ${orderNumber} has not shipped yet, and we need its name and address to send it, so the account was not deleted. Cancel the order from its page, or delete your account once it has shipped.`,
  );
  assert.equal(await me(t, token), 200, "nothing deleted");
  assert.equal((await getOrder(t.kv, orderNumber)).customerName, "Dana Doe");
  await ship(t, orderNumber);

  const deleted = await t.request("/auth/me", {
    method: "DELETE",
    body: { password: PASSWORD },
    headers,
  });
  assert.deepEqual([deleted.status, deleted.json], [200, { ok: true }]);
  assert.equal(await me(t, token), 401, "the token fails");
  assert.equal(await signIn(t, PASSWORD), "", "the login fails");

  const order = await getOrder(t.kv, orderNumber);
  assert.equal(order.status, "SHIPPED", "the order itself stays");
  assert.equal(order.totalCents, 1898);
  assert.deepEqual(
    [order.email, order.customerName, order.userId, order.shippingAddress?.street],
    [null, "Deleted customer", null, ""],
  );
  assert.equal(order.shippingAddress?.country, "US", "kept for tax records");
  // The same email can make a new account, which sees none of the old orders.
  const again = await t.request("/auth/register", {
    method: "POST",
    body: { email: EMAIL, password: PASSWORD },
  });
  assert.equal(again.status, 201);
  const fresh = await signIn(t, PASSWORD);
  const orders = await t.request("/auth/orders", { headers: { Authorization: `Bearer ${fresh}` } });
  assert.deepEqual(orders.json, []);
});

Deno.test("deleting the account forgets its back-in-stock sign-ups and the devices it signed in on", async () => {
  await using t = await createTestApp();
  const token = await account(t);
  const headers = { Authorization: `Bearer ${token}` };
  const own = await t.request("/api/stock-alerts", {
    method: "POST",
    headers,
    body: { email: EMAIL, switchId: STARTER.switchIds[0] },
  });
  assert.equal(own.status, 200, own.text);
  assert.ok((await keysMentioning(t, EMAIL)).length >= 2, "a sign-up and a known device exist");

  const deleted = await t.request("/auth/me", {
    method: "DELETE",
    body: { password: PASSWORD },
    headers,
  });
  assert.equal(deleted.status, 200, deleted.text);
  assert.deepEqual(await keysMentioning(t, EMAIL), [], "nothing keyed by the address is left");
});

/**
 * Every KV key that names `email`, but the limits' counters, which expire with their window and
 * protect the address whoever asks next.
 */
async function keysMentioning(t: TestApp, email: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of t.kv.list({ prefix: [] })) {
    if (entry.key[0] === "rate_limits") continue;
    if (entry.key.some((part) => part === email)) found.push(JSON.stringify(entry.key));
  }
  return found;
}

Deno.test("deleting the account takes its emails out of the owner's Emails tab; none can be resent", async () => {
  await using t = await createTestApp();
  const token = await account(t);
  const orderNumber = await ordersAsShopper(t, token);
  await askReset(t, EMAIL);
  await t.deliverEmails();
  const admin = { Authorization: `Bearer ${TEST_ADMIN_PASSWORD}` };
  const before = await t.request("/api/admin/emails", { headers: admin });
  const theirs = before.json.filter((e: { to: string }) => e.to === EMAIL);
  assert.ok(theirs.length >= 2, "an order confirmation and a reset link were sent");
  assert.match(JSON.stringify(theirs), /Dana Doe/);
  // Someone else's email stays.
  await t.request("/auth/register", {
    method: "POST",
    body: { email: "eve@example.com", password: PASSWORD },
  });
  await askReset(t, "eve@example.com");
  // Shipped (its shipping email names the shopper too): the account may go.
  await ship(t, orderNumber);
  await t.deliverEmails();

  const deleted = await t.request("/auth/me", {
    method: "DELETE",
    body: { password: PASSWORD },
    headers: { Authorization: `Bearer ${token}` },
  });
  assert.equal(deleted.status, 200, deleted.text);

  const after = await t.request("/api/admin/emails", { headers: admin });
  assert.equal(after.status, 200);
  for (const secret of [EMAIL, "Dana Doe", US_ADDRESS.street]) {
    assert.ok(!after.text.includes(secret), `${secret} is still in the Emails tab`);
  }
  assert.ok(after.text.includes("eve@example.com"), "another shopper's email stays");
  for (const old of theirs) {
    const resend = await t.request(`/api/admin/emails/${old.id}/resend`, {
      method: "POST",
      headers: admin,
    });
    assert.equal(resend.status, 404, resend.text);
  }
  const stored = JSON.stringify(await listOutbox(t.kv));
  assert.ok(!stored.includes("Dana Doe") && !stored.includes(US_ADDRESS.street));
  // The owner's own note of the order keeps its subject (the order number), not its text.
  const note = after.json.find((e: { subject: string }) => e.subject.includes(orderNumber));
  assert.equal(note?.text, ERASED_TEXT);
  const resendNote = await t.request(`/api/admin/emails/${note.id}/resend`, {
    method: "POST",
    headers: admin,
  });
  assert.equal(resendNote.status, 409, resendNote.text);
  assert.match(resendNote.json.error, /erased/);
});
