import assert from "node:assert/strict";
import { getDemoPayment } from "../../server/payments/demo/provider.ts";
import {
  adminCookie,
  adminLogin,
  createTestApp,
  PRODUCTION,
  refundsDownWhile,
  TEST_ADMIN_PASSWORD,
  type TestApp,
} from "../helpers/test_app.ts";
import { paidOrder, shopperMails, STARTER } from "../helpers/shop_fixtures.ts";
import { csvField, toCsv } from "../../server/csv.ts";
import { keys } from "../../server/kv/keys.ts";
import { getOrder } from "../../server/orders/store.ts";
import type { StockRecord } from "../../server/stock/record.ts";
import { switchKey } from "../../shared/bom.ts";
import { demoPayments } from "../../server/payments/demo/provider.ts";
import { settleRefund } from "../../server/orders/refunds.ts";

/** The admin sees full addresses, and a test reads this street back, so it is spelled out here. */
const ELM_ST = {
  street: "5 Elm St",
  apartment: "",
  city: "Austin",
  state: "TX",
  zipCode: "73301",
  country: "US",
};

/** A paid order to ELM_ST, Carol's unless told otherwise; answers its number. */
async function elmStOrder(
  t: TestApp,
  email = "carol@example.com",
  name = "Carol King",
): Promise<string> {
  return (await paidOrder(t, { email, name, address: ELM_ST })).orderNumber;
}

// Who may call the admin routes (sessions, the bearer password, stale and forged credentials, and
// that a refusal changes nothing) is the admin matrix in security_test.ts; the cookie's flags are
// checked there too.

Deno.test("wrong passwords: 'Invalid password', then 429 after 5 a minute", async () => {
  await using t = await createTestApp();
  for (let i = 0; i < 5; i++) {
    const { res } = await adminLogin(t, `wrong-${i}`);
    assert.equal(res.status, 401);
    assert.equal(res.json.error, "Invalid password");
  }
  const locked = await adminLogin(t);
  assert.equal(locked.res.status, 429, "even the right password waits once locked");
  assert.match(locked.res.json.error, /wait a minute/);
  const bearer = await t.request("/api/admin/orders", {
    headers: { Authorization: `Bearer ${TEST_ADMIN_PASSWORD}` },
  });
  assert.equal(bearer.status, 429, "the bearer route shares the limit");
  t.clock.advance(60_000);
  assert.equal((await adminLogin(t)).res.status, 200);
});

Deno.test("logout ends the session on the server", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  assert.equal(
    (await t.request("/api/admin/session", { headers: { Cookie: cookie } })).status,
    200,
  );
  await t.request("/api/admin/logout", { method: "POST", headers: { Cookie: cookie } });
  assert.equal(
    (await t.request("/api/admin/session", { headers: { Cookie: cookie } })).status,
    401,
  );
});

Deno.test("orders to shipment: tracking, CSV, ship, deliver, with the shipped email once", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const h = { Cookie: cookie };
  const a = await elmStOrder(t, "a@example.com", "Ann");
  const b = await elmStOrder(t, "b@example.com", "Ben");
  await t.deliverEmails();
  const confirmations = shopperMails(t).length;

  const orders = await t.request("/api/admin/orders", { headers: h });
  assert.equal(orders.json.length, 2);
  assert.equal(orders.json[0].shippingAddress.street, "5 Elm St", "the admin sees full addresses");

  const empty = await t.request(`/api/admin/orders/${a}/tracking`, {
    method: "POST",
    body: { trackingNumber: "   " },
    headers: h,
  });
  assert.equal(empty.status, 400);
  assert.equal(empty.json.error, "Please enter a tracking number");

  const tracked = await t.request(`/api/admin/orders/${a}/tracking`, {
    method: "POST",
    body: { trackingNumber: "9400 1000 0000 0000 0001" },
    headers: h,
  });
  assert.equal(tracked.status, 200);
  assert.equal(tracked.json.status, "PROCESSING");

  const early = await t.request(`/api/admin/orders/${a}/delivered`, { method: "POST", headers: h });
  assert.equal(early.status, 409, "not shipped yet");

  const csv = await t.request("/api/admin/orders/new/csv", { headers: h });
  assert.equal(csv.status, 200);
  assert.match(csv.headers.get("content-disposition") ?? "", /new_orders\.csv/);
  const rows = csv.text.trim().split("\r\n");
  assert.equal(rows.length, 3, "header and one row per new order");
  assert.ok(rows.some((r) => r.includes(a)) && rows.some((r) => r.includes(b)));

  const ship = await t.request("/api/admin/orders/ship-processed", { method: "POST", headers: h });
  assert.deepEqual(ship.json, { shippedCount: 1 }, "only the order with tracking ships");
  const again = await t.request("/api/admin/orders/ship-processed", { method: "POST", headers: h });
  assert.deepEqual(again.json, { shippedCount: 0 });
  await t.deliverEmails();
  const shipped = shopperMails(t).slice(confirmations)
    .filter((e) => e.subject.includes("has shipped"));
  assert.equal(shipped.length, 1, "one shipped email");
  assert.equal(shipped[0].to, "a@example.com");
  assert.match(shipped[0].text, /tLabels=94001000000000000001\b/, "stored without spaces");

  const view = await t.request(`/api/orders/${a}`);
  assert.equal(view.json.status, "SHIPPED");
  assert.equal(view.json.progress, 76);
  const delivered = await t.request(`/api/admin/orders/${a}/delivered`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TEST_ADMIN_PASSWORD}`, "Content-Type": "application/json" },
  });
  assert.equal(delivered.json.status, "DELIVERED");
  const late = await t.request(`/api/admin/orders/${a}/tracking`, {
    method: "POST",
    body: { trackingNumber: "1" },
    headers: h,
  });
  assert.equal(late.status, 409);
  const cancelShipped = await t.request(`/api/admin/orders/${a}/cancel`, {
    method: "POST",
    headers: h,
  });
  assert.equal(cancelShipped.status, 409);
  assert.match(cancelShipped.json.error, /cannot be cancelled/);
  assert.equal(
    (await t.request("/api/admin/orders/STNOPE/delivered", { method: "POST", headers: h })).status,
    404,
  );
});

Deno.test("cancelling a paid order returns its stock and refunds", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const key = switchKey(STARTER.switchIds[0]);
  const before = (await t.kv.get<StockRecord>(keys.stock(key))).value!;
  const orderNumber = await elmStOrder(t);
  const res = await t.request(`/api/admin/orders/${orderNumber}/cancel`, {
    method: "POST",
    headers: { Cookie: cookie },
  });
  assert.equal(res.status, 200);
  assert.equal(res.json.status, "CANCELLED");
  assert.deepEqual((await t.kv.get<StockRecord>(keys.stock(key))).value, before);
  const order = await getOrder(t.kv, orderNumber);
  const demo = await getDemoPayment(t.kv, order.payment!.id);
  assert.equal(demo?.status, "refunded");
});

Deno.test("inventory: read and correct stock in place", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const h = { Cookie: cookie };
  const inv = await t.request("/api/admin/inventory", { headers: h });
  assert.ok(inv.json.switches.length >= 100);
  assert.deepEqual(
    inv.json.inventory.map((i: { name: string }) => i.name),
    ["SMALL_BOX", "LARGE_BOX", "TRANSPARENT_KEYCAP", "RANDOM_KEYCAP", "CUBE_BODY"],
  );
  const put = await t.request("/api/admin/inventory/switches/101", {
    method: "PUT",
    body: { stock: 7 },
    headers: h,
  });
  assert.equal(put.json.stock, 7);
  const bad: [string, unknown, number][] = [
    ["/api/admin/inventory/switches/101", { stock: -1 }, 400],
    ["/api/admin/inventory/switches/101", { stock: 1.5 }, 400],
    ["/api/admin/inventory/switches/101", { stock: "3" }, 400],
    ["/api/admin/inventory/switches/99999", { stock: 3 }, 404],
    ["/api/admin/inventory/components/GOLD_BOX", { stock: 3 }, 404],
  ];
  for (const [path, body, status] of bad) {
    const res = await t.request(path, { method: "PUT", body, headers: h });
    assert.equal(res.status, status, `${path} ${JSON.stringify(body)}`);
  }
  await t.request("/api/admin/inventory/components/CUBE_BODY", {
    method: "PUT",
    body: { stock: 0 },
    headers: h,
  });
  const after = await t.request("/api/admin/inventory", { headers: h });
  assert.equal(
    after.json.inventory.find((i: { name: string }) => i.name === "CUBE_BODY").stock,
    0,
  );
  assert.equal((await t.request("/api/items/2/availability")).json.available, false);
});

Deno.test("CSV fields are quoted, escaped and cannot run formulas", () => {
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField("a,b"), '"a,b"');
  assert.equal(csvField("line1\nline2"), '"line1\nline2"');
  assert.equal(csvField('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
  assert.equal(csvField("+1"), '"\'+1"');
  assert.equal(csvField("@cmd"), '"\'@cmd"');
  assert.equal(csvField(null), '""');
  assert.equal(toCsv([["a", "b"], ["c", "d"]]), '"a","b"\r\n"c","d"\r\n');
});

Deno.test("the CSV export neutralises a customer name that is a formula", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  await elmStOrder(t, "x@example.com", '=cmd|"/c calc"!A1, "boss"');
  const csv = await t.request("/api/admin/orders/new/csv", { headers: { Cookie: cookie } });
  assert.ok(csv.text.includes('"\'=cmd|""/c calc""!A1, ""boss"""'), csv.text);
});

Deno.test("a refund the provider cannot make now is queued and retried, not lost", async () => {
  let failRefunds = true;
  const refunded: string[] = [];
  await using t = await createTestApp({
    payments: refundsDownWhile(() => failRefunds, (id) => refunded.push(id)),
  });
  const cookie = await adminCookie(t);
  const orderNumber = await elmStOrder(t);
  const res = await t.request(`/api/admin/orders/${orderNumber}/cancel`, {
    method: "POST",
    headers: { Cookie: cookie },
  });
  assert.equal(res.status, 200, "the cancellation stands");
  assert.ok(t.logs.some((l) => l.msg === "refund refused; tried again later"));
  assert.equal(res.json.refund, "pending", "the refund is owed, not forgotten");
  failRefunds = false;
  await settleRefund(t, orderNumber);
  assert.equal(refunded.length, 1);
  assert.equal((await getOrder(t.kv, orderNumber)).refund?.state, "refunded");
  await settleRefund(t, orderNumber);
  assert.equal(refunded.length, 1, "a settled refund is never paid twice");
});

Deno.test("after a restore, a refund waiting for its next try is tried then", async () => {
  // Found by the simulation: the start sweep queued the refund's job at once, which saw a next
  // try still to come and did nothing; the job of that try was lost with the old store's queue.
  // Jobs are stored entries now, so a backup carries them; one made before that does not.
  const { backupLines } = await import("../../server/ops/backup.ts");
  const { restoreLines } = await import("../../server/ops/restore.ts");
  const { storedJobs } = await import("../helpers/stored_jobs.ts");
  const { sweepAtStart } = await import("../../server/queue.ts");
  let refuse = true;
  const refusing = (kv: Deno.Kv) => {
    const demo = demoPayments(kv);
    return {
      ...demo,
      refund: (...args: Parameters<typeof demo.refund>) =>
        refuse ? Promise.reject(new Error("provider down")) : demo.refund(...args),
    };
  };
  await using t = await createTestApp({ payments: refusing });
  const orderNumber = await elmStOrder(t);
  const cancelled = await t.request(`/api/admin/orders/${orderNumber}/cancel`, {
    method: "POST",
    headers: { Cookie: await adminCookie(t) },
  });
  assert.equal(cancelled.json.refund, "pending");
  const nextTryAt = (await getOrder(t.kv, orderNumber)).refund!.nextTryAt!;
  assert.equal(nextTryAt, t.clock.now() + 60_000);

  const lines = await Array.fromAsync(backupLines(t.kv));
  refuse = false;
  for (const backupBeforeJobs of [false, true]) {
    await using store = await Deno.openKv(":memory:");
    await restoreLines(store, lines);
    const jobs = storedJobs(store);
    if (backupBeforeJobs) await jobs.clear();
    await using r = await createTestApp({ kv: store, seed: false, payments: refusing });
    r.clock.set(t.clock.now());
    await sweepAtStart(r);
    // The job of its next try (beside, in the full backup, the one the cancel stored, which
    // found the try already made and does nothing).
    assert.ok((await jobs.ofType("refund")).some((j) => j.at === nextTryAt));
    if (backupBeforeJobs) {
      assert.deepEqual((await jobs.ofType("refund")).map((j) => j.at), [nextTryAt]);
    }
    r.clock.set(nextTryAt);
    await jobs.runDue(r);
    assert.equal((await getOrder(store, orderNumber)).refund?.state, "refunded");
  }
});

Deno.test("the admin session says whether payments are simulated (the dashboard's banner)", async () => {
  await using demo = await createTestApp({ env: { ...PRODUCTION } });
  const session = await demo.request("/api/admin/session", {
    headers: { Cookie: await adminCookie(demo) },
  });
  assert.equal(session.status, 200);
  assert.equal(session.json.ok, true);
  assert.equal(session.json.paymentsSimulated, true);

  await using real = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: "sk_test_1",
      STRIPE_PUBLISHABLE_KEY: "pk_test_1",
      STRIPE_WEBHOOK_SECRET: "whsec_1",
    },
  });
  const realSession = await real.request("/api/admin/session", {
    headers: { Cookie: await adminCookie(real) },
  });
  assert.equal(realSession.json.paymentsSimulated, false);
});
