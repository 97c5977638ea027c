/**
 * Scripts' API keys: made by the owner and shown once, stored hashed, listed without the secret,
 * working as `Authorization: Bearer <key>` with the key's role, refused (401) once revoked or
 * expired, their last use written at most once a minute, every change in the audit log, and
 * guesses of keys counted on the admin's sign-in limits before any lookup.
 */
import assert from "node:assert/strict";
import {
  adminCookie,
  bearer,
  changedKeys,
  createTestApp,
  snapshot,
  type TestApp,
} from "../helpers/test_app.ts";
import { keys } from "../../server/kv/keys.ts";
import type { AuditEntry } from "../../server/audit/log.ts";
import { listOutbox } from "../../server/email/outbox.ts";

const HOUR = 60 * 60 * 1000;

async function makeKey(t: TestApp, cookie: string, body: Record<string, unknown>) {
  return await t.request("/api/admin/api-keys", {
    method: "POST",
    body,
    headers: { Cookie: cookie },
  });
}

async function auditLog(t: TestApp): Promise<AuditEntry[]> {
  const found: AuditEntry[] = [];
  for await (const e of t.kv.list<AuditEntry>({ prefix: keys.audits() })) found.push(e.value);
  return found;
}

Deno.test("a key is shown once, stored hashed, listed without its secret, and works until revoked", async () => {
  await using t = await createTestApp({ seed: false });
  const cookie = await adminCookie(t);
  const made = await makeKey(t, cookie, { name: "Label printer", role: "staff" });
  assert.equal(made.status, 201, made.text);
  assert.match(made.json.id, /^[\w-]{8,}$/);
  assert.match(made.json.key, /^shk_[\w-]{43}$/);
  const key: string = made.json.key;

  // Nothing stored holds the key itself.
  for (const [k, v] of await snapshot(t.kv)) {
    assert.ok(!k.includes(key) && !v.includes(key), `the key is stored in ${k}`);
  }

  const listed = await t.request("/api/admin/api-keys", { headers: { Cookie: cookie } });
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.json, [{
    id: made.json.id,
    name: "Label printer",
    role: "staff",
    createdAt: new Date(t.clock.now()).toISOString(),
    expiresAt: null,
    lastUsedAt: null,
    createdBy: "Owner",
    actsAs: "staff",
  }]);
  assert.ok(!listed.text.includes(key.slice(4)), "the list does not show the key");
  assert.ok(!/hash/i.test(listed.text), "the list does not show the key's hash");

  const orders = await t.request("/api/admin/orders", { headers: bearer(key) });
  assert.equal(orders.status, 200, orders.text);

  const revoked = await t.request(`/api/admin/api-keys/${made.json.id}`, {
    method: "DELETE",
    headers: { Cookie: cookie },
  });
  assert.equal(revoked.status, 200, revoked.text);
  const after = await t.request("/api/admin/orders", { headers: bearer(key) });
  assert.equal(after.status, 401);
  assert.deepEqual(after.json, { error: "Admin authentication required" });
  const gone = await t.request("/api/admin/api-keys", { headers: { Cookie: cookie } });
  assert.deepEqual(gone.json, []);
  const again = await t.request(`/api/admin/api-keys/${made.json.id}`, {
    method: "DELETE",
    headers: { Cookie: cookie },
  });
  assert.equal(again.status, 404);
  assert.match(again.json.error, /No API key/);
});

Deno.test("a key's expiry ends it on the shop's clock", async () => {
  await using t = await createTestApp({ seed: false });
  const cookie = await adminCookie(t);
  const expiresAt = new Date(t.clock.now() + HOUR).toISOString();
  const made = await makeKey(t, cookie, { name: "Nightly export", role: "owner", expiresAt });
  assert.equal(made.status, 201, made.text);
  assert.equal(made.json.expiresAt, expiresAt);
  t.clock.advance(HOUR - 1);
  assert.equal(
    (await t.request("/api/admin/sales?from=2026-11-01&to=2026-11-21", {
      headers: bearer(made.json.key),
    })).status,
    200,
  );
  t.clock.advance(1);
  const late = await t.request("/api/admin/orders", { headers: bearer(made.json.key) });
  assert.equal(late.status, 401);
});

Deno.test("a key's last use is written at most once a minute", async () => {
  await using t = await createTestApp({ seed: false });
  const cookie = await adminCookie(t);
  const made = await makeKey(t, cookie, { name: "Tracker", role: "staff" });
  const use = () => t.request("/api/admin/orders", { headers: bearer(made.json.key) });
  const lastUse = async () =>
    (await t.request("/api/admin/api-keys", { headers: { Cookie: cookie } })).json[0].lastUsedAt;
  const start = t.clock.now();
  assert.equal((await use()).status, 200);
  assert.equal(await lastUse(), new Date(start).toISOString());

  t.clock.advance(30_000);
  const before = await snapshot(t.kv, ["rate_limits"]);
  assert.equal((await use()).status, 200);
  assert.deepEqual(changedKeys(before, await snapshot(t.kv, ["rate_limits"])), []);
  assert.equal(await lastUse(), new Date(start).toISOString());

  t.clock.advance(30_000);
  assert.equal((await use()).status, 200);
  assert.equal(await lastUse(), new Date(start + 60_000).toISOString());
});

Deno.test("making and revoking keys is in the audit log, with the owner and the key's terms", async () => {
  await using t = await createTestApp({ seed: false });
  const cookie = await adminCookie(t);
  const expiresAt = new Date(t.clock.now() + 30 * 24 * HOUR).toISOString();
  const made = await makeKey(t, cookie, { name: "Label printer", role: "staff", expiresAt });
  t.clock.advance(1000);
  await t.request(`/api/admin/api-keys/${made.json.id}`, {
    method: "DELETE",
    headers: { Cookie: cookie },
  });
  const log = (await auditLog(t)).filter((e) => e.kind === "keys");
  assert.deepEqual(
    log.map((e) => ({ actor: e.actor.name, kind: e.kind, action: e.action, target: e.target })),
    [
      { actor: "Owner", kind: "keys", action: "key.created", target: "Label printer" },
      { actor: "Owner", kind: "keys", action: "key.revoked", target: "Label printer" },
    ],
  );
  assert.deepEqual(log[0].changes, {
    name: { from: null, to: "Label printer" },
    role: { from: null, to: "staff" },
    expiresAt: { from: null, to: expiresAt },
  });
  assert.ok(!JSON.stringify(log).includes(made.json.key), "the log does not hold the key");
});

Deno.test("bad key terms are 400 with a sentence, and store nothing", async () => {
  await using t = await createTestApp({ seed: false });
  const cookie = await adminCookie(t);
  const now = t.clock.now();
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ role: "staff" }, /Give the key a name/],
    [{ name: "   ", role: "staff" }, /Give the key a name/],
    [{ name: "x".repeat(61), role: "staff" }, /at most 60 characters/],
    [{ name: "Bad\u202Ename", role: "staff" }, /control characters/],
    [{ name: "Script" }, /role must be owner or staff/],
    [{ name: "Script", role: "admin" }, /role must be owner or staff/],
    [{ name: "Script", role: "staff", expiresAt: "next week" }, /expiresAt must be an ISO 8601/],
    [
      { name: "Script", role: "staff", expiresAt: new Date(now - 1000).toISOString() },
      /expiresAt must be in the future/,
    ],
    [
      { name: "Script", role: "staff", expiresAt: new Date(now + 366 * 24 * HOUR).toISOString() },
      /expiresAt must be at most a year from now/,
    ],
  ];
  for (const [body, error] of cases) {
    const before = await snapshot(t.kv, ["rate_limits"]);
    const res = await makeKey(t, cookie, body);
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.match(res.json.error, error);
    assert.deepEqual(changedKeys(before, await snapshot(t.kv, ["rate_limits"])), []);
  }
  const yearAhead = new Date(now + 365 * 24 * HOUR).toISOString();
  const longest = await makeKey(t, cookie, { name: "Yearly", role: "staff", expiresAt: yearAhead });
  assert.equal(longest.status, 201, longest.text);
});

Deno.test("keys are the owner's: a staff key cannot make, list or revoke them (403 naming the owner)", async () => {
  await using t = await createTestApp({ seed: false });
  const cookie = await adminCookie(t);
  const staff = await makeKey(t, cookie, { name: "Helper script", role: "staff" });
  const headers = bearer(staff.json.key);
  const calls: [string, string, unknown?][] = [
    ["POST", "/api/admin/api-keys", { name: "Escalate", role: "owner" }],
    ["GET", "/api/admin/api-keys"],
    ["DELETE", `/api/admin/api-keys/${staff.json.id}`],
  ];
  for (const [method, path, body] of calls) {
    const res = await t.request(path, { method, body, headers });
    assert.equal(res.status, 403, `${method} ${path}`);
    assert.deepEqual(res.json, { error: "Only the owner can manage API keys." });
  }
  // An owner key may: a script rotating its own keys.
  const owner = await makeKey(t, cookie, { name: "Rotator", role: "owner" });
  t.clock.advance(1000);
  const made = await t.request("/api/admin/api-keys", {
    method: "POST",
    body: { name: "Rotated", role: "staff" },
    headers: bearer(owner.json.key),
  });
  assert.equal(made.status, 201);
  assert.equal(made.json.createdBy, "Rotator");
  assert.equal((await auditLog(t)).at(-1)?.actor.name, "Rotator");
});

Deno.test("guessed keys count on the admin's sign-in limits before any lookup", async () => {
  await using t = await createTestApp({ seed: false });
  const cookie = await adminCookie(t);
  const made = await makeKey(t, cookie, { name: "Real", role: "staff" });
  const client = "203.0.113.7";
  for (let i = 0; i < 5; i++) {
    const guess = await t.request("/api/admin/orders", {
      headers: bearer(`shk_${"A".repeat(42)}${i}`),
      client,
    });
    assert.equal(guess.status, 401, guess.text);
  }
  // Past the limit even the right key is not looked at from this client: counted first.
  const limited = await t.request("/api/admin/orders", { headers: bearer(made.json.key), client });
  assert.equal(limited.status, 429, limited.text);
  // Another client is not locked out by these guesses.
  const other = await t.request("/api/admin/orders", {
    headers: bearer(made.json.key),
    client: "198.51.100.9",
  });
  assert.equal(other.status, 200, other.text);
  t.clock.advance(60_000);
  const later = await t.request("/api/admin/orders", { headers: bearer(made.json.key), client });
  assert.equal(later.status, 200, later.text);
});

/** Invites `email` as `role`, accepts the link and signs in; answers the id and session cookie. */
async function signedInMember(t: TestApp, owner: string, email: string, role: string) {
  const invited = await t.request("/api/admin/staff", {
    method: "POST",
    body: { email, role },
    headers: { Cookie: owner },
  });
  assert.equal(invited.status, 201, invited.text);
  const mail = (await listOutbox(t.kv)).filter((e) => e.email.to === email).at(-1);
  const token = /\/admin\?token=([A-Za-z0-9_-]+)/.exec(mail?.email.text ?? "")?.[1];
  assert.ok(token, "an invitation link was sent");
  const body = { token, password: "PrintDay2026" };
  const client = "127.0.0.60";
  assert.equal(
    (await t.request("/api/admin/invite/accept", { method: "POST", body, client })).status,
    200,
  );
  const res = await t.request("/api/admin/verify", {
    method: "POST",
    body: { email, password: "PrintDay2026" },
    client,
  });
  assert.equal(res.status, 200, res.text);
  return {
    id: invited.json.id as string,
    cookie: (res.headers.get("set-cookie") ?? "").split(";")[0],
  };
}

Deno.test("a key made by a member acts with no more than the member's role now: demoted, it loses the owner's routes; removed, it stops", async () => {
  await using t = await createTestApp({ seed: false });
  const owner = await adminCookie(t);
  const helper = await signedInMember(t, owner, "helper@example.com", "owner");
  const made = await makeKey(t, helper.cookie, { name: "Helper's script", role: "owner" });
  assert.equal(made.status, 201, made.text);
  // A key that key makes is the member's too, however many keys lie between.
  const child = await t.request("/api/admin/api-keys", {
    method: "POST",
    body: { name: "Helper's other script", role: "owner" },
    headers: bearer(made.json.key),
  });
  assert.equal(child.status, 201, child.text);
  const ownersKey = await makeKey(t, owner, { name: "Owner's script", role: "owner" });
  const client = "127.0.0.61";
  for (const key of [made.json.key, child.json.key]) {
    assert.equal(
      (await t.request("/api/admin/staff", { headers: bearer(key), client })).status,
      200,
    );
  }

  const demoted = await t.request(`/api/admin/staff/${helper.id}`, {
    method: "PATCH",
    body: { role: "staff" },
    headers: { Cookie: owner },
  });
  assert.equal(demoted.status, 200, demoted.text);
  for (const key of [made.json.key, child.json.key]) {
    const staffRoute = await t.request("/api/admin/staff", { headers: bearer(key), client });
    assert.equal(staffRoute.status, 403, "a demoted member's key has the owner's powers no more");
    assert.deepEqual(staffRoute.json, { error: "Only the owner can manage staff." });
    const keysRoute = await t.request("/api/admin/api-keys", { headers: bearer(key), client });
    assert.equal(keysRoute.status, 403, "nor can it make itself another owner key");
    // Still the member's own work: a script of theirs keeps doing what they may.
    const orders = await t.request("/api/admin/orders", { headers: bearer(key), client });
    assert.equal(orders.status, 200, orders.text);
  }

  const removed = await t.request(`/api/admin/staff/${helper.id}`, {
    method: "DELETE",
    headers: { Cookie: owner },
  });
  assert.equal(removed.status, 200, removed.text);
  for (const key of [made.json.key, child.json.key]) {
    const after = await t.request("/api/admin/orders", { headers: bearer(key), client });
    assert.equal(after.status, 401, "a removed member's keys stop with them");
    assert.match(after.json.error, /\S/);
  }
  // The owner's own keys are not the member's: they go on.
  const mine = await t.request("/api/admin/staff", { headers: bearer(ownersKey.json.key), client });
  assert.equal(mine.status, 200, mine.text);
});

Deno.test("the list says how a member's key acts now: with the member's lower role after a demotion, refused after a removal", async () => {
  await using t = await createTestApp({ seed: false });
  const owner = await adminCookie(t);
  const helper = await signedInMember(t, owner, "helper@example.com", "owner");
  assert.equal(
    (await makeKey(t, helper.cookie, { name: "Helper's script", role: "owner" })).status,
    201,
  );
  assert.equal((await makeKey(t, owner, { name: "Owner's script", role: "owner" })).status, 201);
  const listed = async () => {
    const res = await t.request("/api/admin/api-keys", { headers: { Cookie: owner } });
    assert.equal(res.status, 200, res.text);
    return Object.fromEntries(
      res.json.map((k: { name: string; role: string; actsAs: string | null }) => [
        k.name,
        [k.role, k.actsAs],
      ]),
    );
  };
  assert.deepEqual(await listed(), {
    "Helper's script": ["owner", "owner"],
    "Owner's script": ["owner", "owner"],
  });
  await t.request(`/api/admin/staff/${helper.id}`, {
    method: "PATCH",
    body: { role: "staff" },
    headers: { Cookie: owner },
  });
  assert.deepEqual(await listed(), {
    "Helper's script": ["owner", "staff"],
    "Owner's script": ["owner", "owner"],
  });
  await t.request(`/api/admin/staff/${helper.id}`, {
    method: "DELETE",
    headers: { Cookie: owner },
  });
  assert.deepEqual(await listed(), {
    "Helper's script": ["owner", null],
    "Owner's script": ["owner", "owner"],
  });
});
