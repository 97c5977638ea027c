/**
 * Second factors for the dashboard: TOTP set up and used with the injected clock (codes computed
 * with otpauth here, as the owner's phone would), recovery codes, the sign-in's second step and
 * its limits, the password alone refused once the owner has a factor, and the owner's
 * "require a second factor for all staff".
 */
import assert from "node:assert/strict";
import { Secret, TOTP } from "otpauth";
import {
  adminLogin,
  bearer,
  changedKeys,
  createTestApp,
  snapshot,
  TEST_ADMIN_PASSWORD,
  type TestApp,
} from "../helpers/test_app.ts";
import { keys } from "../../server/kv/keys.ts";
import type { AuditEntry } from "../../server/audit/log.ts";

const OWNER = "198.51.100.7";
const ELSEWHERE = "198.51.100.99";

/** The code an authenticator app shows for `secret` at `at`. */
function codeAt(secret: string, at: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" })
    .generate({ timestamp: at });
}

/** Signs in with the password alone (the owner has no factor yet); answers the cookie. */
async function passwordSession(t: TestApp): Promise<string> {
  const { res, cookie } = await adminLogin(t);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.ok, true);
  return cookie;
}

/** Sets up TOTP for the owner; answers its secret and the recovery codes. */
async function ownerWithTotp(t: TestApp) {
  const cookie = await passwordSession(t);
  const setup = await t.request("/api/admin/factors/totp", {
    method: "POST",
    headers: { Cookie: cookie },
  });
  assert.equal(setup.status, 200, setup.text);
  const secret: string = setup.json.secret;
  assert.match(setup.json.uri, /^otpauth:\/\/totp\//);
  assert.ok(setup.json.uri.includes(`secret=${secret}`));
  const confirmed = await t.request("/api/admin/factors/totp/confirm", {
    method: "POST",
    headers: { Cookie: cookie },
    body: { code: codeAt(secret, t.clock.now()) },
  });
  assert.equal(confirmed.status, 200, confirmed.text);
  const recoveryCodes: string[] = confirmed.json.recoveryCodes;
  assert.equal(recoveryCodes.length, 10);
  assert.equal(new Set(recoveryCodes).size, 10);
  // The code just used for the setup is spent: the next step's code signs in.
  t.clock.advance(30_000);
  return { secret, recoveryCodes, cookie };
}

/** Posts the right password; answers the second step's challenge (no session is opened). */
async function passwordStep(t: TestApp, client = OWNER): Promise<string> {
  const res = await t.request("/api/admin/verify", {
    method: "POST",
    body: { password: TEST_ADMIN_PASSWORD },
    client,
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.ok, false, "the password alone opens no session");
  assert.ok(!(res.headers.get("set-cookie") ?? "").includes("admin_session="));
  assert.ok(res.json.secondFactor.methods.length > 0);
  return res.json.secondFactor.challenge;
}

function secondStep(t: TestApp, challenge: string, code: string, client = OWNER) {
  return t.request("/api/admin/verify/second-factor", {
    method: "POST",
    body: { challenge, code },
    client,
  });
}

function sessionCookie(res: { headers: Headers }): string {
  const cookie = (res.headers.get("set-cookie") ?? "").split(", ")
    .find((c) => c.startsWith("admin_session="));
  assert.ok(cookie, "a session cookie is set");
  return cookie.split(";")[0];
}

async function auditActions(t: TestApp): Promise<string[]> {
  const actions: string[] = [];
  for await (const e of t.kv.list<AuditEntry>({ prefix: keys.audits() })) {
    actions.push(e.value.action);
  }
  return actions;
}

Deno.test("TOTP: set up with a code from the app, then the password asks for a code that opens the dashboard", async () => {
  await using t = await createTestApp();
  const { secret } = await ownerWithTotp(t);
  const challenge = await passwordStep(t);
  const res = await secondStep(t, challenge, codeAt(secret, t.clock.now()));
  assert.equal(res.status, 200, res.text);
  const orders = await t.request("/api/admin/orders", { headers: { Cookie: sessionCookie(res) } });
  assert.equal(orders.status, 200);
  const actions = await auditActions(t);
  assert.ok(actions.includes("factor.added"), actions.join());
  assert.ok(actions.includes("sign_in"), actions.join());
});

Deno.test("TOTP: a code of the previous or next step is taken, one two steps off is not", async () => {
  await using t = await createTestApp();
  const { secret } = await ownerWithTotp(t);
  t.clock.advance(5 * 60_000);
  const now = t.clock.now();
  const old = await secondStep(t, await passwordStep(t), codeAt(secret, now - 60_000));
  assert.equal(old.status, 401);
  assert.equal(old.json.error, "Wrong code");
  const late = await secondStep(t, await passwordStep(t), codeAt(secret, now - 30_000));
  assert.equal(late.status, 200, "a code typed as it changed still works");
});

Deno.test("TOTP: a code used once is refused again within its window, even on a new sign-in", async () => {
  await using t = await createTestApp();
  const { secret } = await ownerWithTotp(t);
  const code = codeAt(secret, t.clock.now());
  assert.equal((await secondStep(t, await passwordStep(t), code)).status, 200);
  t.clock.advance(10_000);
  const replay = await secondStep(t, await passwordStep(t), code);
  assert.equal(replay.status, 401);
  assert.equal(replay.json.error, "Wrong code");
  t.clock.advance(30_000);
  const next = await secondStep(t, await passwordStep(t), codeAt(secret, t.clock.now()));
  assert.equal(next.status, 200, "the next step's code works");
});

Deno.test("the same code sent twice at once signs in once", async () => {
  await using t = await createTestApp();
  const { secret } = await ownerWithTotp(t);
  const code = codeAt(secret, t.clock.now());
  const [a, b] = [await passwordStep(t), await passwordStep(t)];
  const answers = await Promise.all([secondStep(t, a, code), secondStep(t, b, code)]);
  assert.deepEqual(answers.map((r) => r.status).sort(), [200, 401]);
});

Deno.test("a recovery code signs in once, and is recorded", async () => {
  await using t = await createTestApp();
  const { recoveryCodes } = await ownerWithTotp(t);
  const used = await secondStep(t, await passwordStep(t), recoveryCodes[3].toLowerCase());
  assert.equal(used.status, 200, used.text);
  const again = await secondStep(t, await passwordStep(t), recoveryCodes[3]);
  assert.equal(again.status, 401);
  assert.equal(again.json.error, "Wrong code");
  const other = await secondStep(t, await passwordStep(t), recoveryCodes[4]);
  assert.equal(other.status, 200, "the other codes still work");
  assert.equal((await auditActions(t)).filter((a) => a === "recovery_code.used").length, 2);
  const factors = await t.request("/api/admin/factors", {
    headers: { Cookie: sessionCookie(other) },
  });
  assert.equal(factors.json.recoveryCodesLeft, 8);
});

Deno.test("a challenge is used once: after a sign-in it is refused, even with a fresh code", async () => {
  await using t = await createTestApp();
  const { secret } = await ownerWithTotp(t);
  const challenge = await passwordStep(t);
  assert.equal((await secondStep(t, challenge, codeAt(secret, t.clock.now()))).status, 200);
  t.clock.advance(30_000);
  const again = await secondStep(t, challenge, codeAt(secret, t.clock.now()));
  assert.equal(again.status, 401);
  assert.match(again.json.error, /expired or was already used/);
});

Deno.test("a challenge lives 5 minutes by the shop's clock", async () => {
  await using t = await createTestApp();
  const { secret } = await ownerWithTotp(t);
  const challenge = await passwordStep(t);
  t.clock.advance(5 * 60_000 + 1);
  const late = await secondStep(t, challenge, codeAt(secret, t.clock.now()));
  assert.equal(late.status, 401);
  assert.match(late.json.error, /expired/);
});

Deno.test("wrong codes: a challenge dies after 5, and the client waits while others may sign in", async () => {
  await using t = await createTestApp();
  const { secret } = await ownerWithTotp(t);
  const challenge = await passwordStep(t);
  const right = codeAt(secret, t.clock.now());
  const wrong = right === "000000" ? "111111" : "000000";
  for (let i = 0; i < 5; i++) {
    const res = await secondStep(t, challenge, wrong);
    assert.equal(res.status, 401);
    assert.equal(res.json.error, "Wrong code");
  }
  const dead = await secondStep(t, challenge, right, ELSEWHERE);
  assert.equal(dead.status, 401, "the right code comes too late for this challenge");
  assert.match(dead.json.error, /Too many wrong codes/);
  const waiting = await secondStep(t, await passwordStep(t), right);
  assert.equal(waiting.status, 429, "the guessing client waits, even with the right code");
  const other = await secondStep(t, await passwordStep(t, ELSEWHERE), right, ELSEWHERE);
  assert.equal(other.status, 200, "the owner elsewhere is not locked out");
  assert.equal(
    (await auditActions(t)).filter((a) => a === "sign_in.second_factor_failed").length,
    5,
  );
});

Deno.test("wrong codes sent at once on one challenge: at most 5 are compared", async () => {
  await using t = await createTestApp();
  await ownerWithTotp(t);
  const challenge = await passwordStep(t);
  const answers = await Promise.all(
    Array.from(
      { length: 12 },
      (_, i) => secondStep(t, challenge, "12345" + (i % 10), `203.0.113.${i + 1}`),
    ),
  );
  assert.ok(answers.every((a) => a.status === 401));
  assert.equal(answers.filter((a) => a.json.error === "Wrong code").length, 5);
});

Deno.test("the bearer password is refused once the owner has a second factor, with a sentence", async () => {
  await using t = await createTestApp();
  const before = await t.request("/api/admin/orders", { headers: bearer(TEST_ADMIN_PASSWORD) });
  assert.equal(before.status, 200, "scripts keep working while the owner has no factor");
  await ownerWithTotp(t);
  const after = await t.request("/api/admin/orders", { headers: bearer(TEST_ADMIN_PASSWORD) });
  assert.equal(after.status, 401);
  assert.match(after.json.error, /second factor/);
  assert.match(after.json.error, /API key/);
});

Deno.test("removing TOTP needs a current code; then the password alone works again", async () => {
  await using t = await createTestApp();
  const { secret, cookie } = await ownerWithTotp(t);
  const wrong = await t.request("/api/admin/factors/totp", {
    method: "DELETE",
    headers: { Cookie: cookie },
    body: { code: "000000" === codeAt(secret, t.clock.now()) ? "111111" : "000000" },
  });
  assert.equal(wrong.status, 401);
  const removed = await t.request("/api/admin/factors/totp", {
    method: "DELETE",
    headers: { Cookie: cookie },
    body: { code: codeAt(secret, t.clock.now()) },
  });
  assert.equal(removed.status, 200, removed.text);
  assert.equal((await adminLogin(t)).res.json.ok, true);
  const script = await t.request("/api/admin/orders", { headers: bearer(TEST_ADMIN_PASSWORD) });
  assert.equal(script.status, 200);
  assert.ok((await auditActions(t)).includes("factor.removed"));
});

Deno.test("new recovery codes replace the old ones", async () => {
  await using t = await createTestApp();
  const { recoveryCodes, cookie } = await ownerWithTotp(t);
  const fresh = await t.request("/api/admin/factors/recovery-codes", {
    method: "POST",
    headers: { Cookie: cookie },
  });
  assert.equal(fresh.status, 200);
  assert.equal(fresh.json.recoveryCodes.length, 10);
  assert.equal((await secondStep(t, await passwordStep(t), recoveryCodes[0])).status, 401);
  assert.equal(
    (await secondStep(t, await passwordStep(t), fresh.json.recoveryCodes[0])).status,
    200,
  );
});

Deno.test("a TOTP setup is confirmed only with the app's current code", async () => {
  await using t = await createTestApp();
  const cookie = await passwordSession(t);
  const setup = await t.request("/api/admin/factors/totp", {
    method: "POST",
    headers: { Cookie: cookie },
  });
  const wrong = await t.request("/api/admin/factors/totp/confirm", {
    method: "POST",
    headers: { Cookie: cookie },
    body: { code: codeAt(setup.json.secret, t.clock.now() + 5 * 60_000) },
  });
  assert.equal(wrong.status, 400);
  assert.equal((await adminLogin(t)).res.json.ok, true, "an unconfirmed secret asks for nothing");
});

Deno.test("security settings: the owner turns on the staff requirement, and the log records it", async () => {
  await using t = await createTestApp();
  const cookie = await passwordSession(t);
  const initial = await t.request("/api/admin/settings/security", { headers: { Cookie: cookie } });
  assert.deepEqual(initial.json, { requireStaffSecondFactor: false });
  const set = await t.request("/api/admin/settings/security", {
    method: "PUT",
    headers: { Cookie: cookie },
    body: { requireStaffSecondFactor: true },
  });
  assert.equal(set.status, 200);
  const read = await t.request("/api/admin/settings/security", { headers: { Cookie: cookie } });
  assert.deepEqual(read.json, { requireStaffSecondFactor: true });
  const bad = await t.request("/api/admin/settings/security", {
    method: "PUT",
    headers: { Cookie: cookie },
    body: { requireStaffSecondFactor: "yes" },
  });
  assert.equal(bad.status, 400);
  assert.ok((await auditActions(t)).includes("settings.security"));
});

Deno.test("passkey requests: options name the shop's origin, and a forged answer is refused once", async () => {
  await using t = await createTestApp({ env: { PUBLIC_URL: "https://shop.example" } });
  const cookie = await passwordSession(t);
  const options = await t.request("/api/admin/factors/passkeys/options", {
    method: "POST",
    headers: { Cookie: cookie },
  });
  assert.equal(options.status, 200, options.text);
  assert.equal(options.json.rp.id, "shop.example");
  assert.equal(options.json.authenticatorSelection.userVerification, "required");
  const clientData = btoa(JSON.stringify({
    type: "webauthn.create",
    challenge: options.json.challenge,
    origin: "https://shop.example",
  })).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const forged = {
    name: "Forged",
    response: {
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      response: { clientDataJSON: clientData, attestationObject: "AAAA" },
      clientExtensionResults: {},
    },
  };
  const first = await t.request("/api/admin/factors/passkeys", {
    method: "POST",
    headers: { Cookie: cookie },
    body: forged,
  });
  assert.equal(first.status, 400);
  const again = await t.request("/api/admin/factors/passkeys", {
    method: "POST",
    headers: { Cookie: cookie },
    body: forged,
  });
  assert.equal(again.status, 401, "the challenge was spent by the first answer");
  const unknown = await t.request("/api/admin/passkey-sign-in", {
    method: "POST",
    body: { passkey: forged.response },
  });
  assert.equal(unknown.status, 401);
  assert.equal((await adminLogin(t)).res.json.ok, true, "no passkey was added");
});

Deno.test("every factor route needs a dashboard session: 401 JSON without one, nothing written", async () => {
  await using t = await createTestApp();
  const routes: [string, string, unknown?][] = [
    ["GET", "/api/admin/factors"],
    ["POST", "/api/admin/factors/totp"],
    ["POST", "/api/admin/factors/totp/confirm", { code: "123456" }],
    ["DELETE", "/api/admin/factors/totp", { code: "123456" }],
    ["POST", "/api/admin/factors/recovery-codes"],
    ["POST", "/api/admin/factors/passkeys/options"],
    ["DELETE", "/api/admin/factors/passkeys/some-id"],
    ["GET", "/api/admin/settings/security"],
    ["PUT", "/api/admin/settings/security", { requireStaffSecondFactor: true }],
  ];
  const before = await snapshot(t.kv, ["rate_limits"]);
  for (const [method, path, body] of routes) {
    const nobody: Record<string, string>[] = [
      {},
      { Cookie: "admin_session=forged-token-000000000000000000" },
    ];
    for (const headers of nobody) {
      const res = await t.request(path, { method, body, headers });
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.equal(res.json.error, "Admin authentication required");
    }
  }
  assert.deepEqual(changedKeys(before, await snapshot(t.kv, ["rate_limits"])), []);
});

Deno.test("passkey sign-ins started by one client are limited, others are not held up", async () => {
  await using t = await createTestApp();
  const start = (client: string) =>
    t.request("/api/admin/passkey-sign-in/options", { method: "POST", client });
  for (let i = 0; i < 30; i++) assert.equal((await start(OWNER)).status, 200);
  const refused = await start(OWNER);
  assert.equal(refused.status, 429);
  assert.match(refused.json.error, /Too many passkey sign-ins/);
  assert.equal((await start(ELSEWHERE)).status, 200);
});

Deno.test("the second step is not held by the password's limits once the password was right", async () => {
  await using t = await createTestApp();
  const { secret } = await ownerWithTotp(t);
  const challenge = await passwordStep(t);
  // Meanwhile wrong passwords from the same address (another tab) reach the password limit.
  for (let i = 0; i < 6; i++) {
    await t.request("/api/admin/verify", {
      method: "POST",
      body: { password: `wrong-${i}` },
      client: OWNER,
    });
  }
  const res = await secondStep(t, challenge, codeAt(secret, t.clock.now()));
  assert.equal(res.status, 200, res.text);
});

Deno.test("someone with the password cannot try codes all day: 100 wrong a day per account from any address, while the owner's own device still signs in", async () => {
  await using t = await createTestApp();
  const { secret } = await ownerWithTotp(t);
  const right = () => codeAt(secret, t.clock.now());
  const wrong = () => String((Number(right()) + 1) % 1_000_000).padStart(6, "0");
  // The owner signs in fully on their own device once: the password step names the device.
  const first = await t.request("/api/admin/verify", {
    method: "POST",
    body: { password: TEST_ADMIN_PASSWORD },
    client: OWNER,
  });
  const device = (first.headers.get("set-cookie") ?? "").split(", ")
    .find((c) => c.startsWith("known_device="))!.split(";")[0];
  const own = await t.request("/api/admin/verify/second-factor", {
    method: "POST",
    body: { challenge: first.json.secondFactor.challenge, code: right() },
    client: OWNER,
    headers: { Cookie: device },
  });
  assert.equal(own.status, 200, own.text);
  t.clock.advance(30_000);
  // Five windows of 15 minutes, four addresses each, five wrong codes each: 100 in 75 minutes,
  // every one inside the per-address and per-window limits.
  for (let w = 0; w < 5; w++) {
    for (let c = 1; c <= 4; c++) {
      const client = `203.0.113.${w * 4 + c}`;
      const challenge = await passwordStep(t, client);
      for (let i = 0; i < 5; i++) {
        const res = await secondStep(t, challenge, wrong(), client);
        assert.equal(res.status, 401, `window ${w}, ${client}, try ${i}: ${res.text}`);
      }
    }
    t.clock.advance(15 * 60_000 + 1000);
  }
  // The day's tries are spent: a new address is refused even with the right code.
  const late = await passwordStep(t, "203.0.113.99");
  const refused = await secondStep(t, late, right(), "203.0.113.99");
  assert.equal(refused.status, 429, refused.text);
  assert.match(refused.json.error, /Too many wrong codes/);
  // The owner's own device, which signed in with its second factor before, is not held.
  const mine = await t.request("/api/admin/verify", {
    method: "POST",
    body: { password: TEST_ADMIN_PASSWORD },
    client: OWNER,
    headers: { Cookie: device },
  });
  const opened = await t.request("/api/admin/verify/second-factor", {
    method: "POST",
    body: { challenge: mine.json.secondFactor.challenge, code: right() },
    client: OWNER,
    headers: { Cookie: device },
  });
  assert.equal(opened.status, 200, opened.text);
});

Deno.test("the first second factor ends every other session opened with the password alone", async () => {
  await using t = await createTestApp();
  const other = await passwordSession(t); // another browser, signed in with the password alone
  const { cookie } = await ownerWithTotp(t);
  const session = (c: string) => t.request("/api/admin/session", { headers: { Cookie: c } });
  assert.equal((await session(cookie)).status, 200, "the session that set the factor up stays");
  assert.equal((await session(other)).status, 401, "the password-only session is over");
  assert.ok((await auditActions(t)).includes("sessions.ended_by_first_factor"));
});

Deno.test("a lost phone: after someone spent the day's code tries, a recovery code still signs the owner in on a new device", async () => {
  await using t = await createTestApp();
  const { secret, recoveryCodes } = await ownerWithTotp(t);
  const wrong = () =>
    String((Number(codeAt(secret, t.clock.now())) + 1) % 1_000_000).padStart(6, "0");
  for (let w = 0; w < 5; w++) {
    for (let c = 1; c <= 4; c++) {
      const client = `203.0.113.${w * 4 + c}`;
      const challenge = await passwordStep(t, client);
      for (let i = 0; i < 5; i++) {
        const res = await secondStep(t, challenge, wrong(), client);
        assert.equal(res.status, 401, `window ${w}, ${client}, try ${i}: ${res.text}`);
      }
    }
    t.clock.advance(15 * 60_000 + 1000);
  }
  // A six-digit code from a new device is held for the day (the cap's point)...
  const held = await passwordStep(t, "198.51.100.201");
  assert.equal((await secondStep(t, held, wrong(), "198.51.100.201")).status, 429);
  // ...but a recovery code (49 bits, not guessable in any number of days) is what a lost phone
  // leaves the owner, always on a new device.
  const challenge = await passwordStep(t, "198.51.100.202");
  const res = await secondStep(t, challenge, recoveryCodes[0], "198.51.100.202");
  assert.equal(res.status, 200, res.text);
});

Deno.test("the first second factor ends the other sessions however many a password thief opened, and is added, never a 500", async () => {
  await using t = await createTestApp();
  // Someone with the password signs in 600 times before the owner adds a factor.
  const stolen: string[] = [];
  for (let i = 0; i < 600; i++) {
    const res = await t.request("/api/admin/verify", {
      method: "POST",
      body: { password: TEST_ADMIN_PASSWORD },
      client: ELSEWHERE,
    });
    assert.equal(res.status, 200, res.text);
    stolen.push(sessionCookie(res));
  }
  const cookie = await passwordSession(t);
  const setup = await t.request("/api/admin/factors/totp", {
    method: "POST",
    headers: { Cookie: cookie },
  });
  const confirmed = await t.request("/api/admin/factors/totp/confirm", {
    method: "POST",
    headers: { Cookie: cookie },
    body: { code: codeAt(setup.json.secret, t.clock.now()) },
  });
  assert.equal(confirmed.status, 200, confirmed.text);
  const session = (c: string) => t.request("/api/admin/session", { headers: { Cookie: c } });
  assert.equal((await session(cookie)).status, 200, "the session that set the factor up stays");
  for (const c of [stolen[0], stolen[299], stolen[599]]) {
    assert.equal((await session(c)).status, 401, "every password-only session is over");
  }
  const left = await t.request("/api/admin/sessions", { headers: { Cookie: cookie } });
  assert.equal(left.status, 200, left.text);
  assert.equal(left.json.length, 1, "only the session that added the factor is listed");
});
