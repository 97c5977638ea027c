/**
 * The audit log (issue 29, item 6): every admin write records who did what, when, from where and
 * what changed, in the same write as the change; a refused change records nothing; the owner
 * reads the log newest first, filtered, a page at a time, and exports it.
 */
import assert from "node:assert/strict";
import {
  adminCookie,
  bearer,
  createTestApp,
  TEST_ADMIN_PASSWORD,
  TEST_EPOCH,
  type TestApp,
} from "../helpers/test_app.ts";
import { paidOrder, STARTER, startHostedCheckout } from "../helpers/shop_fixtures.ts";
import type { AuditEntryView } from "../../shared/api_types.ts";
import { listOutbox } from "../../server/email/outbox.ts";
import { pngFile } from "../helpers/image_files.ts";

const OWNER = bearer(TEST_ADMIN_PASSWORD);

/** The log as the owner reads it (`query` as the URL's). */
async function audit(t: TestApp, query = ""): Promise<AuditEntryView[]> {
  const res = await t.request(`/api/admin/audit${query}`, { headers: OWNER });
  assert.equal(res.status, 200, res.text);
  return res.json;
}

/** The entries of `action`, newest first. */
async function entriesOf(t: TestApp, action: string): Promise<AuditEntryView[]> {
  return (await audit(t, "?limit=500")).filter((e) => e.action === action);
}

/** Sends an admin request with the owner's bearer password; answers it checked for `status`. */
async function owner(
  t: TestApp,
  path: string,
  init: { method?: string; body?: unknown } = {},
  status = 200,
) {
  const res = await t.request(path, { ...init, headers: OWNER, body: init.body as never });
  assert.equal(res.status, status, `${path}: ${res.text}`);
  return res;
}

const ACTOR_OWNER = { kind: "owner", id: "owner", name: "Owner" };

Deno.test("an order's moves are recorded, each with the owner, the order and its old and new status", async () => {
  await using t = await createTestApp();
  const { orderNumber: a } = await paidOrder(t);
  const refused = await owner(t, `/api/admin/orders/${a}/delivered`, { method: "POST" }, 409);
  assert.match(refused.json.error, /shipped/);
  assert.deepEqual(await entriesOf(t, "order.delivered"), [], "a refused move records nothing");

  t.clock.advance(1000);
  await owner(t, `/api/admin/orders/${a}/tracking`, {
    method: "POST",
    body: { trackingNumber: "9400 1000 0000 0000 0001" },
  });
  const [tracking] = await entriesOf(t, "order.tracking");
  assert.deepEqual(tracking.actor, ACTOR_OWNER, "the bearer password acts as the owner");
  assert.equal(tracking.kind, "orders");
  assert.equal(tracking.target, a);
  assert.equal(tracking.at, new Date(TEST_EPOCH + 1000).toISOString());
  assert.deepEqual(tracking.changes, {
    status: { from: "PAYMENT_RECEIVED", to: "PROCESSING" },
    trackingNumber: { from: null, to: "94001000000000000001" },
  });

  t.clock.advance(1000);
  await owner(t, `/api/admin/orders/${a}/tracking`, {
    method: "POST",
    body: { trackingNumber: "9400 1000 0000 0000 0002" },
  });
  const [corrected] = await entriesOf(t, "order.tracking");
  assert.deepEqual(corrected.changes, {
    trackingNumber: { from: "94001000000000000001", to: "94001000000000000002" },
  }, "a corrected number names the old one");

  t.clock.advance(1000);
  const shipped = await owner(t, "/api/admin/orders/ship-processed", {
    method: "POST",
    body: { orderNumbers: [a, "STNOPE"] },
  });
  assert.equal(shipped.json.shippedCount, 1);
  const ships = await entriesOf(t, "order.shipped");
  assert.equal(ships.length, 1, "one entry per order shipped; a skipped one has none");
  assert.equal(ships[0].target, a);
  assert.deepEqual(ships[0].changes, { status: { from: "PROCESSING", to: "SHIPPED" } });

  t.clock.advance(1000);
  await owner(t, `/api/admin/orders/${a}/delivered`, { method: "POST" });
  const [delivered] = await entriesOf(t, "order.delivered");
  assert.equal(delivered.target, a);
  assert.deepEqual(delivered.changes, { status: { from: "SHIPPED", to: "DELIVERED" } });

  await owner(t, `/api/admin/orders/${a}/cancel`, { method: "POST" }, 409);
  assert.deepEqual(await entriesOf(t, "order.cancelled"), [], "a refused cancel records nothing");
  assert.deepEqual(
    (await audit(t, "?kind=orders")).map((e) => e.action),
    ["order.delivered", "order.shipped", "order.tracking", "order.tracking"],
    "newest first",
  );
});

Deno.test("cancelling a paid order and an unpaid one are recorded with the status they left", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const { orderNumber: paid } = await paidOrder(t);
  const { orderNumber: unpaid } = await startHostedCheckout(t);
  for (const n of [paid, unpaid]) {
    const res = await t.request(`/api/admin/orders/${n}/cancel`, {
      method: "POST",
      headers: { Cookie: cookie },
    });
    assert.equal(res.status, 200, res.text);
  }
  const cancels = await entriesOf(t, "order.cancelled");
  assert.deepEqual(
    cancels.map((e) => [e.target, e.changes?.status, e.actor.name]).sort(),
    [
      [paid, { from: "PAYMENT_RECEIVED", to: "CANCELLED" }, "Owner"],
      [unpaid, { from: "STARTED", to: "CANCELLED" }, "Owner"],
    ].sort(),
    "a session acts as the owner too",
  );
});

Deno.test("the owner's stock count is recorded from and to; a refused count is not", async () => {
  await using t = await createTestApp();
  const id = STARTER.switchIds[0];
  const inventory = (await owner(t, "/api/admin/inventory")).json;
  const before = inventory.switches.find((s: { id: number }) => s.id === id).stock;
  await owner(t, `/api/admin/inventory/switches/${id}`, {
    method: "PUT",
    body: { stock: before + 7 },
  });
  await owner(t, `/api/admin/inventory/switches/${id}`, {
    method: "PUT",
    body: { stock: -1 },
  }, 400);
  await owner(t, "/api/admin/inventory/components/CUBE_BODY", {
    method: "PUT",
    body: { lowStockAt: 4 },
  });
  // Both writes happen at one instant of the test clock: entries of one instant have no order.
  const entries = await entriesOf(t, "stock.counted");
  const component = entries.find((e) => e.target === "CUBE_BODY")!;
  const counts = entries.filter((e) => e !== component);
  assert.ok(component, "the level set is recorded");
  assert.equal((component.changes?.lowStockAt as { to: number }).to, 4, "the level set");
  assert.equal(counts.length, 1);
  assert.equal(counts[0].kind, "stock");
  assert.equal(counts[0].target, `switch:${id}`);
  assert.deepEqual(counts[0].changes, { stock: { from: before, to: before + 7 } });
});

Deno.test("an email resent and a test email are recorded; a refused resend is not", async () => {
  await using t = await createTestApp();
  await paidOrder(t, { email: "carol@example.com" });
  await t.deliverEmails();
  const [sent] = await listOutbox(t.kv);
  await owner(t, `/api/admin/emails/${sent.id}/resend`, { method: "POST" }, 201);
  await owner(t, "/api/admin/emails/nope/resend", { method: "POST" }, 404);
  const [resent] = await entriesOf(t, "email.resent");
  assert.equal(resent.kind, "emails");
  assert.equal(resent.target, sent.id);
  assert.equal(resent.label, `to ${sent.email.to}`);
  assert.equal((await entriesOf(t, "email.resent")).length, 1);

  await owner(t, "/api/test/test_email");
  const [test] = await entriesOf(t, "email.test_sent");
  assert.equal(test.target, t.config.shopEmail);
});

Deno.test("the new-orders CSV is recorded as an export of customer data, with its row count", async () => {
  await using t = await createTestApp();
  await paidOrder(t);
  await paidOrder(t, { email: "ben@example.com" });
  const csv = await owner(t, "/api/admin/orders/new/csv");
  assert.equal(csv.text.trim().split("\r\n").length, 3);
  const [exported] = await entriesOf(t, "export.orders_csv");
  assert.equal(exported.kind, "export");
  assert.equal(exported.target, "new_orders.csv");
  assert.equal(exported.detail, "2 rows");
  assert.deepEqual(exported.actor, ACTOR_OWNER);
});

Deno.test("catalogue, image, promo and notice edits are audit entries by the acting account; a stale edit records none", async () => {
  await using t = await createTestApp();
  const created = await owner(t, "/api/admin/catalog/switches", {
    method: "POST",
    body: { name: "Tidal Blue", brand: "Gateron", type: "tactile", force: "62g", extraPrice: 0.75 },
  }, 201);
  t.clock.advance(1000);
  await owner(t, `/api/admin/catalog/switches/${created.json.id}`, {
    method: "PATCH",
    body: { extraPrice: 1.25 },
  });
  const stale = await owner(t, `/api/admin/catalog/switches/${created.json.id}`, {
    method: "PATCH",
    body: { extraPrice: 2, version: created.json.version },
  }, 409);
  assert.match(stale.json.error, /changed meanwhile/);
  const [updated, made] = await audit(t, "?kind=catalog");
  assert.equal(made.action, "switch.created");
  assert.deepEqual(updated.actor, ACTOR_OWNER);
  assert.equal(updated.action, "switch.updated");
  assert.equal(updated.target, String(created.json.id));
  assert.equal(updated.label, "Gateron Tidal Blue");
  assert.deepEqual(updated.changes, { extraPrice: { from: 0.75, to: 1.25 } });
  assert.equal((await audit(t, "?kind=catalog")).length, 2, "the stale edit recorded nothing");

  await owner(t, `/api/admin/catalog/switches/${created.json.id}/image`, { method: "DELETE" });
  assert.equal((await audit(t, "?kind=catalog")).length, 2, "removing no image is no edit");
  t.clock.advance(1000);
  await owner(t, `/api/admin/catalog/switches/${created.json.id}/image`, {
    method: "PUT",
    body: await pngFile(),
  });
  t.clock.advance(1000);
  await owner(t, `/api/admin/catalog/switches/${created.json.id}/image`, { method: "DELETE" });
  const [removed, uploaded] = await audit(t, "?kind=catalog&limit=2");
  assert.deepEqual([uploaded.action, removed.action], ["image.uploaded", "image.removed"]);
  assert.equal(uploaded.target, `switch:${created.json.id}`);
  assert.equal(uploaded.label, "Gateron Tidal Blue");
  assert.match(String(uploaded.changes?.image?.to), /^\/images\/uploads\//);

  await owner(
    t,
    "/api/admin/promos",
    { method: "POST", body: { code: "Spring5", percentOff: 5 } },
    201,
  );
  await owner(
    t,
    "/api/admin/promos",
    { method: "POST", body: { code: "Spring5", percentOff: 5 } },
    409,
  );
  const promos = await audit(t, "?kind=promos");
  assert.deepEqual(promos.map((e) => [e.action, e.target]), [["promo.created", "SPRING5"]]);
  assert.deepEqual(promos[0].changes?.percentOff, { from: null, to: 5 });

  await owner(t, "/api/admin/notice", {
    method: "PUT",
    body: { text: "Back Monday.", active: true },
  });
  const [notice] = await audit(t, "?kind=notice");
  assert.equal(notice.action, "notice.updated");
  assert.deepEqual(notice.changes?.text?.to, "Back Monday.");
});
