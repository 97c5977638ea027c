/**
 * "Require a second factor for all staff", with a staff member made up by id (staff accounts are
 * another part's store): their factors are written through the factors' own store, their requests
 * judged by the gate requireAdmin calls for every admin request.
 */
import assert from "node:assert/strict";
import { adminCookie, createTestApp } from "../helpers/test_app.ts";
import type { Actor } from "../../server/audit/actor.ts";
import { afterPassword } from "../../server/staff/after_password.ts";
import { ENROL_FIRST, refuseUntilEnrolled } from "../../server/staff/enrolment_gate.ts";
import { changeFactors } from "../../server/staff/second_factors.ts";
import { newTotpSecret, totpCode } from "../../server/staff/totp.ts";

const HELPER: Actor = {
  kind: "staff",
  id: "staff-helper-1",
  name: "helper@example.com",
  role: "staff",
  from: "198.51.100.20",
};

async function requireForStaff(t: Awaited<ReturnType<typeof createTestApp>>, on: boolean) {
  const res = await t.request("/api/admin/settings/security", {
    method: "PUT",
    headers: { Cookie: await adminCookie(t) },
    body: { requireStaffSecondFactor: on },
  });
  assert.equal(res.status, 200, res.text);
}

Deno.test("with the requirement on, a staff member without a factor reaches only the factor routes", async () => {
  await using t = await createTestApp();
  assert.deepEqual(await afterPassword(t, HELPER.id), { next: "session" });
  await refuseUntilEnrolled(t.kv, HELPER, "/api/admin/orders");

  await requireForStaff(t, true);
  assert.deepEqual(await afterPassword(t, HELPER.id), { next: "session", mustEnrol: true });
  await assert.rejects(
    refuseUntilEnrolled(t.kv, HELPER, "/api/admin/orders"),
    (err: Error & { kind?: string }) => err.kind === "forbidden" && err.message === ENROL_FIRST,
  );
  await assert.rejects(refuseUntilEnrolled(t.kv, HELPER, "/api/admin/orders/ST1/tracking"));
  for (
    const path of ["/api/admin/factors", "/api/admin/factors/totp/confirm", "/api/admin/session"]
  ) {
    await refuseUntilEnrolled(t.kv, HELPER, path);
  }
  // The owner is never held by the staff rule.
  await refuseUntilEnrolled(
    t.kv,
    { ...HELPER, kind: "owner", id: "owner", role: "owner" },
    "/api/admin/orders",
  );

  await changeFactors(t.kv, HELPER.id, (f) => {
    f.totp = { secret: newTotpSecret(), addedAt: t.clock.now() };
  });
  await refuseUntilEnrolled(t.kv, HELPER, "/api/admin/orders");
  const next = await afterPassword(t, HELPER.id);
  assert.equal(next.next, "second_factor");
  assert.deepEqual(next.next === "second_factor" && next.methods, ["totp"]);
});

Deno.test("turning the requirement off frees a factorless staff session at once", async () => {
  await using t = await createTestApp();
  await requireForStaff(t, true);
  await assert.rejects(refuseUntilEnrolled(t.kv, HELPER, "/api/admin/inventory"));
  await requireForStaff(t, false);
  await refuseUntilEnrolled(t.kv, HELPER, "/api/admin/inventory");
});

Deno.test("a staff member's second step is refused a session until staff sessions exist", async () => {
  await using t = await createTestApp();
  const secret = newTotpSecret();
  await changeFactors(t.kv, HELPER.id, (f) => {
    f.totp = { secret, addedAt: t.clock.now() };
  });
  const next = await afterPassword(t, HELPER.id);
  assert.ok(next.next === "second_factor");
  const code = totpCode(secret, t.clock.now());
  const res = await t.request("/api/admin/verify/second-factor", {
    method: "POST",
    body: { challenge: next.challenge, code },
    client: HELPER.from,
  });
  // Never the owner's session for a staff member's factor.
  assert.equal(res.status, 401);
  assert.ok(!(res.headers.get("set-cookie") ?? "").includes("admin_session="));
});
