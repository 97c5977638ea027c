/**
 * Passkeys through the API with a software authenticator (tests/helpers/soft_authenticator.ts):
 * the server's own WebAuthn verification runs on real signatures, so what a hostile client can
 * send (any credential id, an old assertion) is tried here without a browser.
 */
import assert from "node:assert/strict";
import { adminCookie, createTestApp, type TestApp } from "../helpers/test_app.ts";
import { listOutbox } from "../../server/email/outbox.ts";
import {
  assertionResponse,
  newSoftPasskey,
  registrationResponse,
  type SoftPasskey,
} from "../helpers/soft_authenticator.ts";

const ORIGIN = "https://shop.example";
const PASSWORD = "PrintDay2026";

async function shopApp() {
  return await createTestApp({ seed: false, env: { PUBLIC_URL: ORIGIN } });
}

/** Invites `email` as `role`, accepts the link and signs in; answers the id and session cookie. */
async function signedInMember(t: TestApp, owner: string, email: string, role = "staff") {
  const invited = await t.request("/api/admin/staff", {
    method: "POST",
    body: { email, role },
    headers: { Cookie: owner },
  });
  assert.equal(invited.status, 201, invited.text);
  const mail = (await listOutbox(t.kv)).filter((e) => e.email.to === email).at(-1);
  const token = /\/admin\?token=([A-Za-z0-9_-]+)/.exec(mail?.email.text ?? "")?.[1];
  assert.ok(token, "an invitation link was sent");
  const client = "127.0.0.70";
  const accepted = await t.request("/api/admin/invite/accept", {
    method: "POST",
    body: { token, password: PASSWORD },
    client,
  });
  assert.equal(accepted.status, 200, accepted.text);
  const res = await t.request("/api/admin/verify", {
    method: "POST",
    body: { email, password: PASSWORD },
    client,
  });
  assert.equal(res.status, 200, res.text);
  return {
    id: invited.json.id as string,
    cookie: (res.headers.get("set-cookie") ?? "").split(";")[0],
  };
}

/** Adds `passkey` to the signed-in account of `cookie`; answers the add's answer. */
async function addPasskey(t: TestApp, cookie: string, passkey: SoftPasskey, name = "Laptop") {
  const options = await t.request("/api/admin/factors/passkeys/options", {
    method: "POST",
    headers: { Cookie: cookie },
  });
  assert.equal(options.status, 200, options.text);
  return await t.request("/api/admin/factors/passkeys", {
    method: "POST",
    headers: { Cookie: cookie },
    body: { name, response: await registrationResponse(passkey, options.json, ORIGIN) },
  });
}

/** A passwordless sign-in with `passkey`; answers the sign-in's answer. */
async function passkeySignIn(t: TestApp, passkey: SoftPasskey, client = "127.0.0.71") {
  const options = await t.request("/api/admin/passkey-sign-in/options", {
    method: "POST",
    client,
  });
  assert.equal(options.status, 200, options.text);
  return await t.request("/api/admin/passkey-sign-in", {
    method: "POST",
    body: { passkey: await assertionResponse(passkey, options.json, ORIGIN) },
    client,
  });
}

Deno.test("the software passkey signs in without a password, as a browser's would", async () => {
  await using t = await shopApp();
  const owner = await adminCookie(t);
  const passkey = await newSoftPasskey();
  const added = await addPasskey(t, owner, passkey);
  assert.equal(added.status, 201, added.text);
  const res = await passkeySignIn(t, passkey);
  assert.equal(res.status, 200, res.text);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  const session = await t.request("/api/admin/session", { headers: { Cookie: cookie } });
  assert.equal(session.json.accountId, "owner");
});

Deno.test("a passkey another account already has is refused with a 400 sentence, at once, and stays the other's", async () => {
  await using t = await shopApp();
  const owner = await adminCookie(t);
  const ownersPasskey = await newSoftPasskey();
  assert.equal((await addPasskey(t, owner, ownersPasskey)).status, 201);
  const helper = await signedInMember(t, owner, "helper@example.com");
  // Any client may name any credential id in a "none" attestation: the owner's, here.
  const copy = await newSoftPasskey(ownersPasskey.id);
  const dup = await addPasskey(t, helper.cookie, copy);
  assert.equal(dup.status, 400, dup.text);
  assert.deepEqual(dup.json, { error: "This passkey is already added." });
  const factors = await t.request("/api/admin/factors", { headers: { Cookie: helper.cookie } });
  assert.deepEqual(factors.json.passkeys, []);
  // The owner's passkey still signs the owner in, and the copy signs nobody in.
  const res = await passkeySignIn(t, ownersPasskey);
  assert.equal(res.status, 200, res.text);
  assert.equal((await passkeySignIn(t, copy, "127.0.0.72")).status, 401);
});

Deno.test("a passkey's assertion signs in once; another account's passkey never passes a second step; a removed member's passkey signs nobody in", async () => {
  await using t = await shopApp();
  const owner = await adminCookie(t);
  const ownersPasskey = await newSoftPasskey();
  assert.equal((await addPasskey(t, owner, ownersPasskey)).status, 201);
  const helper = await signedInMember(t, owner, "helper@example.com");
  const helpersPasskey = await newSoftPasskey();
  assert.equal((await addPasskey(t, helper.cookie, helpersPasskey)).status, 201);

  const client = "127.0.0.73";
  const options = await t.request("/api/admin/passkey-sign-in/options", { method: "POST", client });
  const assertion = await assertionResponse(helpersPasskey, options.json, ORIGIN);
  const signIn = (body: unknown) =>
    t.request("/api/admin/passkey-sign-in", { method: "POST", body, client });
  assert.equal((await signIn({ passkey: assertion })).status, 200);
  assert.equal((await signIn({ passkey: assertion })).status, 401, "replayed");

  const password = await t.request("/api/admin/verify", {
    method: "POST",
    body: { password: "test-admin-password-1" },
    client,
  });
  const challenge = password.json.secondFactor.challenge;
  const stepOptions = await t.request("/api/admin/verify/second-factor/options", {
    method: "POST",
    body: { challenge },
    client,
  });
  const step = async (passkey: SoftPasskey) =>
    await t.request("/api/admin/verify/second-factor", {
      method: "POST",
      body: { challenge, passkey: await assertionResponse(passkey, stepOptions.json, ORIGIN) },
      client,
    });
  const cross = await step(helpersPasskey);
  assert.equal(cross.status, 401, "the helper's passkey is no second factor of the owner's");
  assert.equal(cross.headers.get("set-cookie"), null);
  assert.equal((await step(ownersPasskey)).status, 200);

  const removed = await t.request(`/api/admin/staff/${helper.id}`, {
    method: "DELETE",
    headers: { Cookie: owner },
  });
  assert.equal(removed.status, 200);
  const gone = await passkeySignIn(t, helpersPasskey, "127.0.0.74");
  assert.equal(gone.status, 401, gone.text);
  assert.equal(gone.headers.get("set-cookie"), null);
});

Deno.test("a registration naming a credential id longer than WebAuthn allows is a 400 sentence, and stores nothing", async () => {
  await using t = await shopApp();
  const owner = await adminCookie(t);
  // WebAuthn caps credential ids at 1023 bytes; the authenticator data's length field allows 65535.
  for (const size of [1024, 1600, 20_000]) {
    const passkey = await newSoftPasskey(crypto.getRandomValues(new Uint8Array(size)));
    const options = await t.request("/api/admin/factors/passkeys/options", {
      method: "POST",
      headers: { Cookie: owner },
    });
    const response = await registrationResponse(passkey, options.json, ORIGIN);
    // The JSON's own id is bounded by the schema; the one inside the attestation is not.
    response.id = response.rawId = "AAAA";
    const res = await t.request("/api/admin/factors/passkeys", {
      method: "POST",
      headers: { Cookie: owner },
      body: { name: "Oversized", response },
    });
    assert.equal(res.status, 400, `${size} bytes: ${res.text}`);
    assert.match(res.json.error, /could not be verified/);
  }
  const factors = await t.request("/api/admin/factors", { headers: { Cookie: owner } });
  assert.deepEqual(factors.json.passkeys, []);
  assert.equal(t.logs.filter((l) => l.level === "error").length, 0, "no unhandled error");
});

Deno.test("a passkey's answer padded with junk cannot fill the account's record: a padded key is a 400, junk transports are dropped", async () => {
  await using t = await shopApp();
  const owner = await adminCookie(t);
  const options = async () =>
    (await t.request("/api/admin/factors/passkeys/options", {
      method: "POST",
      headers: { Cookie: owner },
    })).json;
  const add = (response: unknown) =>
    t.request("/api/admin/factors/passkeys", {
      method: "POST",
      headers: { Cookie: owner },
      body: { name: "Padded", response },
    });
  // A COSE key with 30 KB of junk in its map (the library verifies it all the same).
  const padded = await registrationResponse(
    await newSoftPasskey(),
    await options(),
    ORIGIN,
    30_000,
  );
  const refused = await add(padded);
  assert.equal(refused.status, 400, refused.text);
  assert.match(refused.json.error, /could not be verified/);
  // A post-quantum key is large for real: Chromium offers ML-DSA-44 (COSE alg -48, a public key of
  // 1,312 bytes) before ES256, so a key of that size must be kept.
  const large = await registrationResponse(
    await newSoftPasskey(),
    await options(),
    ORIGIN,
    1_400,
  );
  const kept = await add(large);
  assert.equal(kept.status, 201, kept.text);
  // Three passkeys each claiming 3,000 transports: each is added, none fills the record.
  const passkeys: SoftPasskey[] = [];
  for (let i = 0; i < 3; i++) {
    const passkey = await newSoftPasskey();
    const response = await registrationResponse(passkey, await options(), ORIGIN);
    response.response.transports = ["internal", ...Array(3000).fill("x-junk-transport")];
    const res = await add(response);
    assert.equal(res.status, 201, `passkey ${i + 1}: ${res.text}`);
    passkeys.push(passkey);
  }
  const password = await t.request("/api/admin/verify", {
    method: "POST",
    body: { password: "test-admin-password-1" },
  });
  const step = await t.request("/api/admin/verify/second-factor/options", {
    method: "POST",
    body: { challenge: password.json.secondFactor.challenge },
  });
  assert.deepEqual(
    step.json.allowCredentials.map((c: { transports: string[] }) => c.transports),
    [["internal"], ["internal"], ["internal"], ["internal"]],
  );
  assert.equal((await passkeySignIn(t, passkeys[2])).status, 200);
  assert.equal(t.logs.filter((l) => l.level === "error").length, 0, "no unhandled error");
});

Deno.test("someone spending the day's second-factor tries cannot hold the owner's passkey: a passkey cannot be guessed, so it signs in from a new device all the same", async () => {
  await using t = await shopApp();
  const owner = await adminCookie(t);
  const ownersPasskey = await newSoftPasskey();
  assert.equal((await addPasskey(t, owner, ownersPasskey)).status, 201);
  // A passkey naming the owner's credential id (sent to anyone past the password step, in the
  // second step's allowCredentials) but signing with another key: every try is wrong. Five
  // windows of 15 minutes, four addresses each, five tries each: 100, inside every
  // per-address and per-window limit.
  const forged = await newSoftPasskey(ownersPasskey.id);
  forged.userHandle = ownersPasskey.userHandle;
  for (let w = 0; w < 5; w++) {
    for (let c = 1; c <= 4; c++) {
      for (let i = 0; i < 5; i++) {
        const res = await passkeySignIn(t, forged, `203.0.113.${w * 4 + c}`);
        assert.equal(res.status, 401, `window ${w}, client ${c}, try ${i}: ${res.text}`);
      }
    }
    t.clock.advance(15 * 60_000 + 1000);
  }
  // The owner, on a phone that never signed in here (no known-device cookie), with the passkey.
  const res = await passkeySignIn(t, ownersPasskey, "198.51.100.200");
  assert.equal(res.status, 200, res.text);
});

Deno.test("a first passkey is added, and ends every other session, however many the password opened", async () => {
  await using t = await shopApp();
  const stolen: string[] = [];
  for (let i = 0; i < 600; i++) {
    const res = await t.request("/api/admin/verify", {
      method: "POST",
      body: { password: "test-admin-password-1" },
      client: "203.0.113.9",
    });
    assert.equal(res.status, 200, res.text);
    stolen.push((res.headers.get("set-cookie") ?? "").split(";")[0]);
  }
  const owner = await adminCookie(t);
  const added = await addPasskey(t, owner, await newSoftPasskey());
  assert.equal(added.status, 201, added.text);
  const session = (c: string) => t.request("/api/admin/session", { headers: { Cookie: c } });
  assert.equal((await session(owner)).status, 200);
  for (const c of [stolen[0], stolen[599]]) assert.equal((await session(c)).status, 401);
});
