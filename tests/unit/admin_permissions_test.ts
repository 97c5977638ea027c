import assert from "node:assert/strict";
import {
  actorCapabilities,
  ADMIN_ROUTES,
  CAPABILITIES,
  refusalFor,
  ROLE_CAPABILITIES,
  roleCan,
  roleNeededFor,
  routeNeed,
} from "../../shared/admin_permissions.ts";

Deno.test("the owner can do everything; staff only the orders' daily work and shelf counts", () => {
  assert.deepEqual([...ROLE_CAPABILITIES.owner], [...CAPABILITIES]);
  for (
    const can of ["orders", "shipping", "print_day", "email_resends", "inventory_counts"] as const
  ) {
    assert.ok(roleCan("staff", can), can);
  }
  for (
    const cannot of [
      "order_cancels",
      "customer_exports",
      "sales",
      "catalog",
      "prices",
      "promos",
      "notice",
      "settings",
      "staff",
      "api_keys",
      "audit",
      "unlisted",
    ] as const
  ) {
    assert.ok(!roleCan("staff", cannot), cannot);
    assert.equal(roleNeededFor(cannot), "owner");
  }
  assert.equal(roleNeededFor("shipping"), "staff");
});

Deno.test("a request's need: by method and path, a literal path before a pattern, HEAD as GET", () => {
  assert.equal(routeNeed("GET", "/api/admin/orders/new/csv"), "customer_exports");
  assert.equal(routeNeed("POST", "/api/admin/orders/ST123/tracking"), "shipping");
  assert.equal(routeNeed("POST", "/api/admin/orders/ST123/cancel"), "order_cancels");
  assert.equal(routeNeed("HEAD", "/api/admin/orders"), "orders");
  assert.equal(routeNeed("get", "/api/admin/orders/"), "orders");
  assert.equal(routeNeed("POST", "/api/admin/verify"), "signed_out");
  assert.equal(routeNeed("PATCH", "/api/admin/catalog/switches/3"), "prices");
});

Deno.test("deny by default: a path or method the table does not list is the owner's", () => {
  assert.equal(routeNeed("GET", "/api/admin/something-new"), "unlisted");
  assert.equal(routeNeed("DELETE", "/api/admin/orders"), "unlisted");
  assert.equal(routeNeed("GET", "/api/admin/orders/ST1/tracking/extra"), "unlisted");
  assert.equal(routeNeed("POST", "/api/admin/verify/other"), "unlisted");
  // A parameter never swallows a slash: /inventory/switches/:id is not /inventory/switches/1/x.
  assert.equal(routeNeed("PUT", "/api/admin/inventory/switches/1/x"), "unlisted");
});

Deno.test("a refusal names the role needed", () => {
  assert.equal(refusalFor("prices"), "Only the owner can edit prices.");
  assert.equal(refusalFor("unlisted"), "Only the owner can do this.");
});

Deno.test("the route table lists each method and path once", () => {
  const seen = ADMIN_ROUTES.map((r) => `${r.method} ${r.path}`);
  assert.deepEqual(seen, [...new Set(seen)]);
});

Deno.test("an API key can do what its role can, except a person's own second factors and sessions", () => {
  assert.deepEqual(actorCapabilities({ kind: "owner", role: "owner" }), [...CAPABILITIES]);
  assert.deepEqual(
    actorCapabilities({ kind: "staff", role: "staff" }),
    [...ROLE_CAPABILITIES.staff],
  );
  for (const role of ["owner", "staff"] as const) {
    const key = actorCapabilities({ kind: "key", role });
    assert.ok(!key.includes("own_security"), `a ${role} key`);
    assert.deepEqual(
      key,
      ROLE_CAPABILITIES[role].filter((c) => c !== "own_security"),
      `a ${role} key keeps the rest of its role`,
    );
  }
});
