/**
 * Roles on every admin route: the app's own registered routes are walked (so a route added
 * without a line in the role table fails here), each called as the owner (cookie), an owner API
 * key and a staff API key. Staff get the orders' daily work and the shelf counts and a 403
 * naming the owner for everything else; a valid credential is never answered 401.
 */
import assert from "node:assert/strict";
import {
  adminCookie,
  bearer,
  createTestApp,
  forgetRateLimits,
  type TestApp,
} from "../helpers/test_app.ts";
import { paidOrder } from "../helpers/shop_fixtures.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { routeNeed } from "../../shared/admin_permissions.ts";

/** What staff may call, from the issue: orders, shipping, print day, emails, shelf counts. */
const STAFF_MAY = new Set([
  "GET /api/admin/session",
  "GET /api/test/ping",
  "GET /api/admin/orders",
  "POST /api/admin/orders/ship-processed",
  "POST /api/admin/orders/:orderNumber/tracking",
  "POST /api/admin/orders/:orderNumber/delivered",
  "GET /api/admin/pick-list",
  "GET /api/admin/inventory",
  "PUT /api/admin/inventory/switches/:id",
  "PUT /api/admin/inventory/components/:name",
  "GET /api/admin/emails",
  "GET /api/admin/emails/health",
  "POST /api/admin/emails/:id/resend",
]);

/** Signing in and out: no credential needed. */
const SIGNED_OUT = new Set([
  "POST /api/admin/verify",
  "POST /api/admin/logout",
  "POST /api/admin/verify/second-factor/options",
  "POST /api/admin/verify/second-factor",
  "POST /api/admin/passkey-sign-in/options",
  "POST /api/admin/passkey-sign-in",
  "POST /api/admin/invite/accept",
]);

/** A person's own second factors and sessions: staff and owner sessions, never an API key. */
const OWN_SECURITY = new Set([
  "GET /api/admin/factors",
  "POST /api/admin/factors/totp",
  "POST /api/admin/factors/totp/confirm",
  "DELETE /api/admin/factors/totp",
  "POST /api/admin/factors/recovery-codes",
  "POST /api/admin/factors/passkeys/options",
  "POST /api/admin/factors/passkeys",
  "DELETE /api/admin/factors/passkeys/:id",
  "GET /api/admin/sessions",
  "DELETE /api/admin/sessions/:id",
]);

/** Bodies that pass validation, so an allowed call reaches its domain function. */
const BODIES: Record<string, unknown> = {
  "POST /api/admin/orders/:orderNumber/tracking": { trackingNumber: "9400 1000" },
  "PUT /api/admin/inventory/switches/:id": { stock: 40 },
  "PUT /api/admin/inventory/components/:name": { stock: 400 },
};

/** Every admin and test route the app registered, as "METHOD /path". */
function registeredAdminRoutes(t: TestApp): string[] {
  const found = new Set<string>();
  for (const { method, path } of t.app.routes) {
    if (method === "ALL" || !/^\/api\/(admin|test)\//.test(path)) continue;
    found.add(`${method} ${path}`);
  }
  return [...found].sort();
}

/** The routes the role table has no line for (each would be the owner's by default). */
function unlistedIn(routes: string[]): string[] {
  return routes.filter((r) => {
    const [method, path] = r.split(" ");
    return routeNeed(method, path) === "unlisted";
  });
}

async function makeKey(t: TestApp, cookie: string, role: string): Promise<string> {
  const res = await t.request("/api/admin/api-keys", {
    method: "POST",
    body: { name: `${role} walker`, role },
    headers: { Cookie: cookie },
  });
  assert.equal(res.status, 201, res.text);
  return res.json.key;
}

Deno.test("every registered admin route has a line in the role table", async () => {
  await using t = await createTestApp({ seed: false });
  const routes = registeredAdminRoutes(t);
  assert.ok(routes.length > 30, `found ${routes.length} admin routes`);
  const unlisted = unlistedIn(routes);
  assert.deepEqual(unlisted, [], "add these routes to ADMIN_ROUTES in shared/admin_permissions.ts");
});

Deno.test("the walk sees an admin route the table does not list", async () => {
  await using t = await createTestApp({ seed: false });
  t.app.get("/api/admin/made-up-report", (c) => c.json([]));
  const unlisted = unlistedIn(registeredAdminRoutes(t));
  assert.deepEqual(unlisted, ["GET /api/admin/made-up-report"]);
});

Deno.test("every admin route, for each role: staff do the orders' work, the owner everything, a refusal is 403 naming the owner", async () => {
  await using t = await createTestApp();
  const { orderNumber } = await paidOrder(t);
  const cookie = await adminCookie(t);
  const staffKey = await makeKey(t, cookie, "staff");
  const ownerKey = await makeKey(t, cookie, "owner");
  const pathOf = (template: string) =>
    template.replace(":orderNumber", orderNumber)
      .replace(":kind", "switches")
      .replace(":id/image", `${SWITCHES[0].id}/image`)
      .replace("/switches/:id", `/switches/${SWITCHES[0].id}`)
      .replace("/packs/:id", "/packs/1")
      .replace("/items/:id", "/items/1")
      .replace(":name", "SMALL_BOX")
      .replace(":code", "LATEDELIVERY")
      .replace(":id", "no-such-id");
  const callers: [string, Record<string, string>][] = [
    // Staff first, so the owner's cancel does not change what staff meet.
    ["staff key", bearer(staffKey)],
    ["owner key", bearer(ownerKey)],
    ["owner session", { Cookie: cookie }],
  ];
  let staffAllowed = 0;
  let staffRefused = 0;
  for (const route of registeredAdminRoutes(t)) {
    if (SIGNED_OUT.has(route)) continue;
    const [method, template] = route.split(" ");
    const path = pathOf(template);
    for (const [who, headers] of callers) {
      await forgetRateLimits(t.kv);
      const res = await t.request(path, { method, body: BODIES[route], headers });
      const what = `${who}: ${method} ${path} answered ${res.status} ${res.text.slice(0, 200)}`;
      assert.notEqual(res.status, 401, what);
      assert.ok(res.status < 500, what);
      if (who !== "owner session" && OWN_SECURITY.has(route)) {
        assert.equal(res.status, 403, what);
        assert.match(res.json.error, /^An API key has no second factors/, what);
      } else if (who === "staff key" && !STAFF_MAY.has(route)) {
        assert.equal(res.status, 403, what);
        assert.match(res.json.error, /^Only the owner can /, what);
        staffRefused++;
      } else {
        assert.notEqual(res.status, 403, what);
        if (who === "staff key") staffAllowed++;
      }
    }
  }
  // Every route staff may use was walked, and the owner's were refused to them.
  assert.equal(staffAllowed, STAFF_MAY.size);
  assert.ok(staffRefused >= 20, `staff were refused ${staffRefused} routes`);
});

Deno.test("staff shipping an order works end to end with a staff key; cancelling it is the owner's", async () => {
  await using t = await createTestApp();
  const { orderNumber } = await paidOrder(t);
  const staff = bearer(await makeKey(t, await adminCookie(t), "staff"));
  const tracked = await t.request(`/api/admin/orders/${orderNumber}/tracking`, {
    method: "POST",
    body: { trackingNumber: "9400 1000" },
    headers: staff,
  });
  assert.equal(tracked.status, 200, tracked.text);
  const cancel = await t.request(`/api/admin/orders/${orderNumber}/cancel`, {
    method: "POST",
    headers: staff,
  });
  assert.equal(cancel.status, 403);
  assert.deepEqual(cancel.json, { error: "Only the owner can cancel and refund orders." });
  const prices = await t.request(`/api/admin/catalog/switches/${SWITCHES[0].id}`, {
    method: "PATCH",
    body: { name: "Renamed by staff" },
    headers: staff,
  });
  assert.equal(prices.status, 403);
  assert.deepEqual(prices.json, { error: "Only the owner can edit prices." });
  const view = await t.request(`/api/admin/orders?status=all`, { headers: staff });
  const order = view.json.find((o: { orderNumber: string }) => o.orderNumber === orderNumber);
  assert.notEqual(order.status, "CANCELLED");
});

Deno.test("an admin path no route knows: 401 signed out, 403 for staff, 404 for the owner", async () => {
  await using t = await createTestApp({ seed: false });
  const cookie = await adminCookie(t);
  const staff = bearer(await makeKey(t, cookie, "staff"));
  assert.equal((await t.request("/api/admin/no-such-thing")).status, 401);
  const refused = await t.request("/api/admin/no-such-thing", { headers: staff });
  assert.equal(refused.status, 403);
  assert.deepEqual(refused.json, { error: "Only the owner can do this." });
  assert.equal(
    (await t.request("/api/admin/no-such-thing", { headers: { Cookie: cookie } })).status,
    404,
  );
});

Deno.test("the session view names the account, its role and what it can do", async () => {
  await using t = await createTestApp({ seed: false });
  const cookie = await adminCookie(t);
  const owner = await t.request("/api/admin/session", { headers: { Cookie: cookie } });
  assert.equal(owner.status, 200);
  assert.equal(owner.json.accountId, "owner");
  assert.equal(owner.json.name, "Owner");
  assert.equal(owner.json.role, "owner");
  for (const can of ["orders", "prices", "api_keys", "staff", "audit", "order_cancels"]) {
    assert.ok(owner.json.can.includes(can), `the owner can ${can}`);
  }

  const made = await t.request("/api/admin/api-keys", {
    method: "POST",
    body: { name: "Label printer", role: "staff" },
    headers: { Cookie: cookie },
  });
  const staff = await t.request("/api/admin/session", { headers: bearer(made.json.key) });
  assert.equal(staff.status, 200);
  assert.equal(staff.json.accountId, made.json.id);
  assert.equal(staff.json.name, "Label printer");
  assert.equal(staff.json.role, "staff");
  assert.deepEqual(
    [...staff.json.can].sort(),
    [
      "dashboard",
      "email_resends",
      "inventory_counts",
      "orders",
      // No Security tab: a key has no second factors or sessions of its own (403 if asked).
      "packing_slips",
      "print_day",
      "shipping",
    ],
  );
});

Deno.test("a staff key cannot reach an owner's route by spelling its path another way", async () => {
  await using t = await createTestApp();
  const { orderNumber: n } = await paidOrder(t);
  const staff = bearer(await makeKey(t, await adminCookie(t), "staff"));
  const tries: [string, string][] = [
    ["POST", `/api/admin/orders/${n}/cancel/`],
    ["POST", `/api/admin//orders/${n}/cancel`],
    ["POST", `/api/admin/orders/${n}%2Fcancel`],
    ["POST", `/api/admin/orders/${n}/tracking/../cancel`],
    ["GET", "/api/admin/orders/new/csv/"],
    ["GET", "/api/admin/orders/new%2Fcsv"],
    ["GET", "/api/admin/ORDERS/new/csv"],
    ["GET", "/api/admin/./sales?from=2026-11-01&to=2026-11-21"],
    ["GET", "/api/admin/%73ales?from=2026-11-01&to=2026-11-21"],
    ["HEAD", "/api/admin/orders/new/csv"],
  ];
  for (const [method, path] of tries) {
    const res = await t.request(path, { method, headers: staff });
    assert.ok(res.status === 403 || res.status === 404, `${method} ${path}: ${res.status}`);
  }
  const view = await t.request("/api/admin/orders?status=all", { headers: staff });
  assert.equal(
    view.json.find((o: { orderNumber: string }) => o.orderNumber === n).status,
    "PAYMENT_RECEIVED",
  );
});
