/**
 * Staff accounts: the owner invites a helper by email (a link that works once, for a day), the
 * helper sets a password and signs in with their email; the owner changes a member's role (on
 * their next request) or removes them (their open sessions stop at once); every account lists and
 * ends its own sessions, the owner everyone's; each of these writes its audit entry.
 */
import assert from "node:assert/strict";
import {
  adminCookie,
  createTestApp,
  forgetRateLimits,
  TEST_ADMIN_PASSWORD,
  type TestApp,
} from "../helpers/test_app.ts";
import { listOutbox } from "../../server/email/outbox.ts";
import { keys } from "../../server/kv/keys.ts";
import type { AuditEntry } from "../../server/audit/log.ts";
import { sha256Hex } from "../../server/crypto.ts";
import { INVITE_LINK_MS } from "../../server/staff/invitations.ts";
import { passwordGate } from "../../server/password_gate.ts";

const HELPER = "Helper@Example.com";
const HELPER_STORED = "helper@example.com";
const PASSWORD = "PrintDay2026";
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

async function invite(t: TestApp, owner: string, email = HELPER, role = "staff") {
  return await t.request("/api/admin/staff", {
    method: "POST",
    body: { email, role },
    headers: { Cookie: owner },
  });
}

/** The token of the newest invitation email to `to`. */
async function inviteToken(t: TestApp, to = HELPER_STORED): Promise<string> {
  const mails = (await listOutbox(t.kv)).filter((e) => e.email.to === to);
  assert.ok(mails.length > 0, `an invitation to ${to} was queued`);
  const link = /\S+\/admin\?token=([A-Za-z0-9_-]+)/.exec(mails.at(-1)!.email.text);
  assert.ok(link, mails.at(-1)!.email.text);
  return link[1];
}

async function accept(t: TestApp, token: string, password = PASSWORD, client = "127.0.0.30") {
  return await t.request("/api/admin/invite/accept", {
    method: "POST",
    body: { token, password },
    client,
  });
}

async function staffLogin(
  t: TestApp,
  email = HELPER,
  password = PASSWORD,
  init: { client?: string; userAgent?: string } = {},
) {
  const res = await t.request("/api/admin/verify", {
    method: "POST",
    body: { email, password },
    client: init.client ?? "127.0.0.31",
    headers: init.userAgent ? { "User-Agent": init.userAgent } : {},
  });
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  return { res, cookie };
}

/** Invites HELPER as `role`, accepts, signs in; answers the member's id and session cookie. */
async function helperSignedIn(t: TestApp, owner: string, role = "staff") {
  // A second between steps, so their audit entries and emails read in order.
  t.clock.advance(1000);
  const invited = await invite(t, owner, HELPER, role);
  assert.equal(invited.status, 201, invited.text);
  t.clock.advance(1000);
  assert.equal((await accept(t, await inviteToken(t))).status, 200);
  t.clock.advance(1000);
  const { res, cookie } = await staffLogin(t);
  assert.equal(res.status, 200, res.text);
  return { id: invited.json.id as string, cookie };
}

async function get(t: TestApp, path: string, cookie: string) {
  return await t.request(path, { headers: { Cookie: cookie } });
}

/** How many password hashes `run` waits for (through the shop's hashing gate). */
async function hashesDuring(run: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const original = passwordGate.run;
  passwordGate.run = (task) => {
    count++;
    return original(task);
  };
  try {
    await run();
  } finally {
    passwordGate.run = original;
  }
  return count;
}

async function auditEntries(t: TestApp): Promise<AuditEntry[]> {
  const all: AuditEntry[] = [];
  for await (const e of t.kv.list<AuditEntry>({ prefix: keys.audits() })) all.push(e.value);
  return all;
}

Deno.test("invite, accept, sign in as staff: the member's dashboard opens with the staff role", async () => {
  await using t = await createTestApp();
  const owner = await adminCookie(t);
  const invited = await invite(t, owner);
  assert.equal(invited.status, 201, invited.text);
  assert.equal(invited.json.email, HELPER_STORED, "stored as customer emails are: lower case");
  assert.equal(invited.json.role, "staff");
  assert.equal(invited.json.status, "invited");
  assert.ok(!/token/i.test(invited.text), "the answer carries no secret");
  const token = await inviteToken(t);
  assert.ok(!invited.text.includes(token));
  // The owner's Emails tab shows that the link was sent, never the link itself.
  const emails = await get(t, `/api/admin/emails?to=${HELPER_STORED}`, owner);
  assert.equal(emails.status, 200);
  assert.match(emails.json[0].text, /\/admin\?token=\[hidden\]/);
  assert.ok(!emails.text.includes(token));

  // Not yet accepted: no password opens the account.
  assert.equal((await staffLogin(t)).res.status, 401);
  const accepted = await accept(t, token);
  assert.equal(accepted.status, 200, accepted.text);
  assert.equal(accepted.json.email, HELPER_STORED);

  const { res, cookie } = await staffLogin(t, "  HELPER@example.com ");
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.ok, true);
  const session = await get(t, "/api/admin/session", cookie);
  assert.equal(session.status, 200);
  assert.equal(session.json.role, "staff");
  assert.equal(session.json.name, HELPER_STORED);
  assert.equal(session.json.accountId, invited.json.id);
  assert.equal((await get(t, "/api/admin/orders", cookie)).status, 200);

  const list = await get(t, "/api/admin/staff", owner);
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.json.map((m: { email: string; role: string; status: string }) => [
      m.email,
      m.role,
      m.status,
    ]),
    [[HELPER_STORED, "staff", "active"]],
  );
  assert.equal(typeof list.json[0].createdAt, "string");
  assert.equal(typeof list.json[0].lastSeenAt, "string", "a signed-in member has been seen");

  // The owner's own session view is the owner's.
  const own = await get(t, "/api/admin/session", owner);
  assert.deepEqual([own.json.role, own.json.name, own.json.accountId], ["owner", "Owner", "owner"]);
});

Deno.test("an invitation link works once, and not after a day; a new one kills the old", async () => {
  await using t = await createTestApp();
  const owner = await adminCookie(t);
  assert.equal((await invite(t, owner)).status, 201);
  const first = await inviteToken(t);
  assert.equal((await accept(t, first)).status, 200);
  const again = await accept(t, first, "AnotherPass99");
  assert.equal(again.status, 400);
  assert.match(again.json.error, /expired or was already used/);
  assert.equal((await staffLogin(t, HELPER, "AnotherPass99")).res.status, 401);
  // A member already: inviting the email again is a conflict.
  const member = await invite(t, owner);
  assert.equal(member.status, 409);
  assert.match(member.json.error, /already/);

  const other = "late@example.com";
  assert.equal((await invite(t, owner, other)).status, 201);
  const old = await inviteToken(t, other);
  t.clock.advance(1000);
  // Re-inviting before acceptance sends a new link; the old one stops working.
  const resent = await invite(t, owner, other);
  assert.equal(resent.status, 201);
  const fresh = await inviteToken(t, other);
  assert.notEqual(fresh, old);
  assert.equal((await accept(t, old)).status, 400, "the replaced link is dead");
  assert.equal((await get(t, "/api/admin/staff", owner)).json.length, 2, "one record per email");
  t.clock.advance(INVITE_LINK_MS + 1000);
  const late = await accept(t, fresh);
  assert.equal(late.status, 400, "a day later the link has expired");
  assert.equal((await staffLogin(t, other)).res.status, 401);
  // Within the day it would have worked: a new invitation, just before its end.
  assert.equal((await invite(t, await adminCookie(t), other)).status, 201);
  const last = await inviteToken(t, other);
  t.clock.advance(INVITE_LINK_MS - 1000);
  assert.equal((await accept(t, last)).status, 200);
});

Deno.test("a weak password, a bad email or an unknown role is a 400 naming the field", async () => {
  await using t = await createTestApp();
  const owner = await adminCookie(t);
  const badEmail = await invite(t, owner, "not-an-email");
  assert.equal(badEmail.status, 400);
  assert.match(badEmail.json.error, /email/i);
  const badRole = await invite(t, owner, HELPER, "manager");
  assert.equal(badRole.status, 400);
  assert.match(badRole.json.error, /role/i);
  assert.equal((await invite(t, owner)).status, 201);
  const weak = await accept(t, await inviteToken(t), "short");
  assert.equal(weak.status, 400);
  assert.match(weak.json.error, /password/i);
  // The weak try did not spend the link.
  assert.equal((await accept(t, await inviteToken(t))).status, 200);
});

Deno.test("removal ends the member's open sessions at once", async () => {
  await using t = await createTestApp();
  const owner = await adminCookie(t);
  const { id, cookie } = await helperSignedIn(t, owner);
  const laptop = (await staffLogin(t, HELPER, PASSWORD, { client: "127.0.0.32" })).cookie;
  assert.equal((await get(t, "/api/admin/orders", cookie)).status, 200);
  const removed = await t.request(`/api/admin/staff/${id}`, {
    method: "DELETE",
    headers: { Cookie: owner },
  });
  assert.equal(removed.status, 200, removed.text);
  for (const open of [cookie, laptop]) {
    const next = await get(t, "/api/admin/orders", open);
    assert.equal(next.status, 401, "the open dashboard's next request is refused");
  }
  assert.equal((await staffLogin(t)).res.status, 401, "the password no longer opens anything");
  assert.deepEqual((await get(t, "/api/admin/staff", owner)).json, []);
  const sessions = await get(t, "/api/admin/sessions?all=1", owner);
  assert.deepEqual(
    sessions.json.map((s: { accountId: string }) => s.accountId),
    ["owner"],
    "the member's sessions are gone from the list",
  );
  const gone = await t.request(`/api/admin/staff/${id}`, {
    method: "DELETE",
    headers: { Cookie: owner },
  });
  assert.equal(gone.status, 404);
  // Invited again later, the email starts afresh.
  assert.equal((await invite(t, owner)).status, 201);
});

Deno.test("a role change takes effect on the member's next request", async () => {
  await using t = await createTestApp();
  const owner = await adminCookie(t);
  const { id, cookie } = await helperSignedIn(t, owner);
  assert.equal((await get(t, "/api/admin/staff", cookie)).status, 403);
  const promoted = await t.request(`/api/admin/staff/${id}`, {
    method: "PATCH",
    body: { role: "owner" },
    headers: { Cookie: owner },
  });
  assert.equal(promoted.status, 200, promoted.text);
  assert.equal(promoted.json.role, "owner");
  // The same session, not signed in again.
  assert.equal((await get(t, "/api/admin/staff", cookie)).status, 200);
  assert.equal((await get(t, "/api/admin/session", cookie)).json.role, "owner");
  const demoted = await t.request(`/api/admin/staff/${id}`, {
    method: "PATCH",
    body: { role: "staff" },
    headers: { Cookie: owner },
  });
  assert.equal(demoted.status, 200);
  assert.equal((await get(t, "/api/admin/staff", cookie)).status, 403);
  const unknown = await t.request("/api/admin/staff/nosuchmember", {
    method: "PATCH",
    body: { role: "staff" },
    headers: { Cookie: owner },
  });
  assert.equal(unknown.status, 404);
  const bad = await t.request(`/api/admin/staff/${id}`, {
    method: "PATCH",
    body: { role: "admin" },
    headers: { Cookie: owner },
  });
  assert.equal(bad.status, 400);
});

Deno.test("a staff member cannot use the Staff routes: 403 naming the owner role, never 401", async () => {
  await using t = await createTestApp();
  const owner = await adminCookie(t);
  const { id, cookie } = await helperSignedIn(t, owner);
  const calls: [string, string, unknown?][] = [
    ["GET", "/api/admin/staff"],
    ["POST", "/api/admin/staff", { email: "x@example.com", role: "staff" }],
    ["PATCH", `/api/admin/staff/${id}`, { role: "owner" }],
    ["DELETE", `/api/admin/staff/${id}`],
    ["GET", "/api/admin/sessions?all=1"],
  ];
  for (const [method, path, body] of calls) {
    const res = await t.request(path, { method, body, headers: { Cookie: cookie } });
    assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
    assert.match(res.json.error, /owner/i, `${method} ${path} names the role needed`);
  }
  assert.equal((await get(t, "/api/admin/session", cookie)).json.role, "staff", "still staff");
  assert.equal((await get(t, "/api/admin/staff", owner)).json.length, 1, "nobody was invited");
  // Without credentials these routes are 401 as every admin route is.
  assert.equal((await t.request("/api/admin/staff")).status, 401);
  assert.equal((await t.request("/api/admin/sessions")).status, 401);
});

Deno.test("sessions: each account lists and ends its own; the owner sees and ends everyone's", async () => {
  await using t = await createTestApp();
  const owner = await adminCookie(t);
  const { cookie: phone } = await helperSignedIn(t, owner);
  const laptopLogin = await staffLogin(t, HELPER, PASSWORD, {
    client: "127.0.0.33",
    userAgent: FIREFOX_LINUX,
  });
  const laptop = laptopLogin.cookie;
  const tablet = (await staffLogin(t, HELPER, PASSWORD, { userAgent: SAFARI_IPHONE })).cookie;
  t.clock.advance(5 * 60_000);
  assert.equal((await get(t, "/api/admin/orders", laptop)).status, 200);

  const mine = await get(t, "/api/admin/sessions", laptop);
  assert.equal(mine.status, 200, mine.text);
  assert.equal(mine.json.length, 3);
  const current = mine.json.filter((s: { current: boolean }) => s.current);
  assert.equal(current.length, 1);
  assert.equal(current[0].device, "Firefox on Linux");
  assert.equal(current[0].address, "127.0.0.33");
  assert.equal(current[0].lastSeenAt, new Date(t.clock.now()).toISOString());
  assert.ok(mine.json.some((s: { device: string }) => s.device === "Safari on iOS"));
  // An id shown to the browser is neither the token nor its hash.
  const tokens = [phone, laptop, tablet].map((c) => c.split("=")[1]);
  const hashes = await Promise.all(tokens.map((x) => sha256Hex(x)));
  for (const s of mine.json) {
    assert.ok(!tokens.includes(s.id) && !hashes.includes(s.id), "ids are not credentials");
    assert.equal((await get(t, "/api/admin/orders", `admin_session=${s.id}`)).status, 401);
  }

  // Ending another of mine: that device is signed out, this one stays.
  const tabletId = mine.json.find((s: { device: string }) => s.device === "Safari on iOS").id;
  const ended = await t.request(`/api/admin/sessions/${tabletId}`, {
    method: "DELETE",
    headers: { Cookie: laptop },
  });
  assert.equal(ended.status, 200, ended.text);
  assert.equal((await get(t, "/api/admin/orders", tablet)).status, 401);
  assert.equal((await get(t, "/api/admin/orders", laptop)).status, 200);

  // A member sees only their own; the owner's sessions are not theirs to end.
  const everyone = await get(t, "/api/admin/sessions?all=1", owner);
  assert.equal(everyone.status, 200);
  assert.deepEqual(
    everyone.json.map((s: { name: string }) => s.name).sort(),
    ["Owner", HELPER_STORED, HELPER_STORED],
  );
  const ownerSession = everyone.json.find((s: { accountId: string }) => s.accountId === "owner");
  assert.equal(ownerSession.current, true);
  const notTheirs = await t.request(`/api/admin/sessions/${ownerSession.id}`, {
    method: "DELETE",
    headers: { Cookie: laptop },
  });
  assert.equal(notTheirs.status, 404);
  assert.equal((await get(t, "/api/admin/orders", owner)).status, 200);
  const ownerOwn = await get(t, "/api/admin/sessions", owner);
  assert.deepEqual(ownerOwn.json.map((s: { accountId: string }) => s.accountId), ["owner"]);

  // The owner ends the member's phone session.
  const phoneId =
    everyone.json.find((s: { accountId: string; id: string }) =>
      s.accountId !== "owner" &&
      !mine.json.find((m: { current: boolean; id: string }) => m.current && m.id === s.id)
    ).id;
  const byOwner = await t.request(`/api/admin/sessions/${phoneId}`, {
    method: "DELETE",
    headers: { Cookie: owner },
  });
  assert.equal(byOwner.status, 200);
  assert.equal((await get(t, "/api/admin/orders", phone)).status, 401);
  assert.equal((await get(t, "/api/admin/orders", laptop)).status, 200);

  // Ending the current session signs this device out.
  const currentId = (await get(t, "/api/admin/sessions", laptop)).json[0].id;
  const self = await t.request(`/api/admin/sessions/${currentId}`, {
    method: "DELETE",
    headers: { Cookie: laptop },
  });
  assert.equal(self.status, 200);
  assert.match(self.headers.get("set-cookie") ?? "", /admin_session=;/);
  assert.equal((await get(t, "/api/admin/orders", laptop)).status, 401);
  assert.equal(
    (await t.request("/api/admin/sessions/nosuchsession", {
      method: "DELETE",
      headers: { Cookie: owner },
    })).status,
    404,
  );
});

Deno.test("a wrong email and a wrong password read the same", async () => {
  await using t = await createTestApp();
  const owner = await adminCookie(t);
  await helperSignedIn(t, owner);
  const wrongPassword = await staffLogin(t, HELPER, "WrongPass123", { client: "127.0.0.40" });
  const wrongEmail = await staffLogin(t, "nobody@example.com", PASSWORD, { client: "127.0.0.41" });
  assert.equal(wrongPassword.res.status, 401);
  assert.equal(wrongEmail.res.status, wrongPassword.res.status);
  assert.equal(wrongEmail.res.text, wrongPassword.res.text);
  assert.equal(wrongEmail.res.headers.get("set-cookie"), null);
  // Each costs one password hash, so the answer's time does not tell which emails are members.
  assert.equal(
    await hashesDuring(() => staffLogin(t, HELPER, "WrongPass123", { client: "127.0.0.44" })),
    1,
  );
  assert.equal(
    await hashesDuring(() =>
      staffLogin(t, "nobody@example.com", PASSWORD, { client: "127.0.0.45" })
    ),
    1,
  );
  // The owner's password with an email is not the owner's sign-in.
  const ownerPassword = await staffLogin(t, HELPER, TEST_ADMIN_PASSWORD, { client: "127.0.0.42" });
  assert.equal(ownerPassword.res.text, wrongPassword.res.text);
  // An invited member who has not set a password reads the same too.
  assert.equal((await invite(t, owner, "pending@example.com")).status, 201);
  const pending = await staffLogin(t, "pending@example.com", PASSWORD, { client: "127.0.0.43" });
  assert.equal(pending.res.text, wrongPassword.res.text);
  assert.equal(
    await hashesDuring(() =>
      staffLogin(t, "pending@example.com", PASSWORD, { client: "127.0.0.46" })
    ),
    1,
    "an invitation not yet accepted too",
  );
});

Deno.test("staff sign-ins are counted before compared, per client and per account", async () => {
  await using t = await createTestApp();
  const owner = await adminCookie(t);
  await helperSignedIn(t, owner);
  for (let i = 0; i < 5; i++) {
    assert.equal(
      (await staffLogin(t, HELPER, `Wrong${i}pass`, { client: "127.0.0.50" })).res.status,
      401,
    );
  }
  const limited = await staffLogin(t, HELPER, PASSWORD, { client: "127.0.0.50" });
  assert.equal(limited.res.status, 429, "even the right password waits");
  // Another client is not held up by this one's failures.
  assert.equal((await staffLogin(t, HELPER, PASSWORD, { client: "127.0.0.51" })).res.status, 200);
  // Many emails from one client: its own limit, whatever the accounts.
  let refused = 0;
  for (let i = 0; i < 30; i++) {
    const res = await staffLogin(t, `guess${i}@example.com`, PASSWORD, { client: "127.0.0.52" });
    if (res.res.status === 429) refused++;
    else assert.equal(res.res.status, 401);
  }
  assert.ok(refused >= 10, `one client cannot try 30 emails (${refused} refused)`);
});

Deno.test("invitation acceptance is counted before compared: many wrong tokens from one client are limited", async () => {
  await using t = await createTestApp();
  const owner = await adminCookie(t);
  assert.equal((await invite(t, owner)).status, 201);
  const token = await inviteToken(t);
  let refused = 0;
  for (let i = 0; i < 20; i++) {
    const res = await accept(t, `wrong-token-${i}-0000000000000000`, PASSWORD, "127.0.0.60");
    if (res.status === 429) refused++;
    else assert.equal(res.status, 400);
  }
  assert.ok(refused >= 5, `wrong tokens are limited (${refused} refused)`);
  const right = await accept(t, token, PASSWORD, "127.0.0.60");
  assert.equal(right.status, 429, "the limit is counted before the token is looked up");
  assert.ok(right.headers.get("retry-after"));
  assert.equal((await accept(t, token, PASSWORD, "127.0.0.61")).status, 200);
});

Deno.test("staff and session changes, sign-ins and sign-outs write their audit entries", async () => {
  await using t = await createTestApp();
  const owner = await adminCookie(t);
  const { id, cookie } = await helperSignedIn(t, owner);
  t.clock.advance(1000);
  await staffLogin(t, HELPER, "WrongPass123", { client: "127.0.0.70" });
  t.clock.advance(1000);
  await t.request(`/api/admin/staff/${id}`, {
    method: "PATCH",
    body: { role: "owner" },
    headers: { Cookie: owner },
  });
  t.clock.advance(1000);
  const mine = await get(t, "/api/admin/sessions", cookie);
  await t.request(`/api/admin/sessions/${mine.json[0].id}`, {
    method: "DELETE",
    headers: { Cookie: cookie },
  });
  t.clock.advance(1000);
  await forgetRateLimits(t.kv);
  const again = await staffLogin(t);
  t.clock.advance(1000);
  await t.request("/api/admin/logout", { method: "POST", headers: { Cookie: again.cookie } });
  // A sign-out with no live session ends nothing and records nothing.
  await t.request("/api/admin/logout", { method: "POST", headers: { Cookie: again.cookie } });
  t.clock.advance(1000);
  await t.request(`/api/admin/staff/${id}`, { method: "DELETE", headers: { Cookie: owner } });
  const entries = await auditEntries(t);
  const summary = entries.map((e) => [e.action, e.kind, e.actor.kind, e.actor.name, e.target]);
  assert.deepEqual(summary, [
    ["sign_in", "sign_in", "owner", "Owner", "Owner"],
    ["staff.invited", "staff", "owner", "Owner", HELPER_STORED],
    ["staff.joined", "staff", "staff", HELPER_STORED, HELPER_STORED],
    ["sign_in", "sign_in", "staff", HELPER_STORED, HELPER_STORED],
    ["sign_in.failed", "sign_in", "staff", HELPER_STORED, HELPER_STORED],
    ["staff.role_changed", "staff", "owner", "Owner", HELPER_STORED],
    ["session.ended", "sessions", "staff", HELPER_STORED, HELPER_STORED],
    ["sign_in", "sign_in", "staff", HELPER_STORED, HELPER_STORED],
    ["sign_out", "sessions", "staff", HELPER_STORED, HELPER_STORED],
    ["staff.removed", "staff", "owner", "Owner", HELPER_STORED],
  ]);
  const changed = entries.find((e) => e.action === "staff.role_changed")!;
  assert.deepEqual(changed.changes, { role: { from: "staff", to: "owner" } });
  assert.ok(!JSON.stringify(entries).includes("WrongPass123"), "no password is recorded");
  assert.ok(!JSON.stringify(entries).includes(PASSWORD));
  const failed = entries.find((e) => e.action === "sign_in.failed")!;
  assert.equal(failed.from, "127.0.0.70");
});
