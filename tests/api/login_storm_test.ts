/**
 * Guess storms replayed over real sockets, each caller at its own loopback address: nobody is
 * locked out by someone else's failures, and the attacker gets exactly the comparisons the limits
 * state (docs/limits.md). Addresses 127.0.0.x are the attacker's /24; the rightful users come
 * from other /24s of 127.0.0.0/8, or from the device they signed in on before.
 */
import assert from "node:assert/strict";
import { createTestApp, TEST_ADMIN_PASSWORD, type TestApp } from "../helpers/test_app.ts";
import { type LoopbackAnswer, serveOnLoopback, tally } from "../helpers/loopback.ts";
import { passwordGate } from "../../server/password_gate.ts";

type Shop = ReturnType<typeof serveOnLoopback>;

const RIGHT = "The-Right-Password-1";
const DAY = 24 * 60 * 60_000;

/** The known-device cookie an answer sets, as "name=value" to send back. */
function deviceCookie(res: LoopbackAnswer): string {
  const cookie = res.headers.getSetCookie().find((c) => /known_device=/.test(c));
  assert.ok(cookie, "a successful sign-in marks the device as known");
  assert.match(cookie, /HttpOnly/i);
  assert.match(cookie, /SameSite=Strict/i);
  return cookie.split(";")[0];
}

function verify(shop: Shop, from: string, password: string, cookie?: string) {
  return shop.request("/api/admin/verify", {
    from,
    body: { password },
    headers: cookie ? { Cookie: cookie } : {},
  });
}

function login(shop: Shop, from: string, email: string, password: string, cookie?: string) {
  return shop.request("/auth/login", {
    from,
    body: { email, password },
    headers: cookie ? { Cookie: cookie } : {},
  });
}

/** Runs `calls` at most `width` at a time, in order; answers their answers. */
async function inWaves<T>(calls: (() => Promise<T>)[], width: number): Promise<T[]> {
  const answers: T[] = [];
  for (let i = 0; i < calls.length; i += width) {
    answers.push(...await Promise.all(calls.slice(i, i + width).map((call) => call())));
  }
  return answers;
}

/** Sign-ins that may run at once without meeting a full hashing queue (503). */
const HASHING_ROOM = passwordGate.permits + passwordGate.queue;

async function register(t: TestApp, email: string) {
  const res = await t.request("/auth/register", {
    method: "POST",
    body: { email, password: RIGHT },
    client: "192.0.2.1",
  });
  assert.equal(res.status, 201, res.text);
}

/**
 * The storm of the issue, against one account: 50 addresses of one /24 guess once each (the
 * ceiling: 50 compared), then 4 times more each (past it, the one slowed slot: 1 compared),
 * then 10 addresses of the same /24 that have not failed yet (the /24's 3 fresh tries). Answers
 * the number of guesses compared.
 */
async function storm(guess: (from: string, i: number) => Promise<LoopbackAnswer>, width: number) {
  const first = await inWaves(
    Array.from({ length: 50 }, (_, i) => () => guess(`127.0.0.${i + 1}`, i)),
    width,
  );
  assert.deepEqual(tally(first), { 401: 50 });
  const again = await Promise.all(
    Array.from({ length: 200 }, (_, i) => guess(`127.0.0.${(i % 50) + 1}`, 100 + i)),
  );
  assert.deepEqual(tally(again), { 401: 1, 429: 199 });
  const slowed = again.find((a) => a.status === 429)!;
  assert.match(slowed.json.error, /slowed down/);
  assert.ok(Number(slowed.headers.get("retry-after")) <= 5);
  const fresh = await Promise.all(
    Array.from({ length: 10 }, (_, i) => guess(`127.0.0.${51 + i}`, 400 + i)),
  );
  assert.deepEqual(tally(fresh), { 401: 3, 429: 7 });
  return [...first, ...again, ...fresh].filter((a) => a.status === 401).length;
}

Deno.test("a rotating-address storm against the admin: the owner signs in at the first try", async () => {
  await using t = await createTestApp();
  await using shop = serveOnLoopback(t.app);
  // The owner signed in on this laptop yesterday, so the shop knows the device.
  const laptop = deviceCookie(await verify(shop, "127.0.9.1", TEST_ADMIN_PASSWORD));
  t.clock.advance(DAY);

  const compared = await storm((from, i) => verify(shop, from, `wrong-password-${i}`), 60);
  assert.equal(compared, 54, "50 under the ceiling, 1 slowed, 3 fresh from the /24");

  // From a fresh address, by the form and by the bearer header, the right password works at once.
  assert.equal((await verify(shop, "127.0.2.1", TEST_ADMIN_PASSWORD)).status, 200);
  const script = await shop.request("/api/admin/session", {
    from: "127.0.3.1",
    headers: { Authorization: `Bearer ${TEST_ADMIN_PASSWORD}` },
  });
  assert.equal(script.status, 200);
  // On the known laptop even from inside the attacker's network (one NAT address for all).
  assert.equal((await verify(shop, "127.0.0.1", TEST_ADMIN_PASSWORD, laptop)).status, 200);
  // The attacker's own addresses are still held back.
  assert.equal((await verify(shop, "127.0.0.2", "wrong-password-x")).status, 429);
});

Deno.test("a rotating-address storm against a shopper: the shopper signs in at the first try", async () => {
  await using t = await createTestApp();
  await using shop = serveOnLoopback(t.app);
  const victim = "victim@example.com";
  await register(t, victim);
  const phone = deviceCookie(await login(shop, "127.0.9.2", victim, RIGHT));
  t.clock.advance(DAY);

  const compared = await storm(
    (from, i) => login(shop, from, victim, `Wrong-Guess-${i}`),
    HASHING_ROOM,
  );
  assert.equal(compared, 54, "50 under the ceiling, 1 slowed, 3 fresh from the /24");

  const fresh = await login(shop, "127.0.2.1", victim, RIGHT);
  assert.equal(fresh.status, 200, JSON.stringify(fresh.json));
  assert.ok(fresh.json.token);
  const known = await login(shop, "127.0.0.1", victim, RIGHT, phone);
  assert.equal(known.status, 200, JSON.stringify(known.json));
});

Deno.test("a shopper refused while others guess keeps their chance: no 15-minute wait", async () => {
  await using t = await createTestApp();
  await using shop = serveOnLoopback(t.app);
  const victim = "robin@example.com";
  await register(t, victim);
  await storm((from, i) => login(shop, from, victim, `Wrong-Guess-${i}`), HASHING_ROOM);
  // The shopper is in the attacker's /24, whose fresh tries are spent: slowed, again and again.
  for (let i = 0; i < 8; i++) {
    const refused = await login(shop, "127.0.0.77", victim, RIGHT);
    assert.equal(refused.status, 429);
    assert.match(refused.json.error, /slowed down/);
  }
  // Once the slot is free the refusals have not been held against them.
  t.clock.advance(5_000);
  const res = await login(shop, "127.0.0.77", victim, RIGHT);
  assert.equal(res.status, 200, JSON.stringify(res.json));
});

/**
 * 20 wrong sign-ins for 20 different accounts from each address: 340 from 17 addresses, all at
 * once, or `width` at a time (so none meets the full hashing queue: a sign-in answered 503 judged
 * nothing and counts nowhere).
 */
function stuffing(shop: Shop, addresses: string[], width = Infinity) {
  return inWaves(
    addresses.flatMap((from, a) =>
      Array.from(
        { length: 20 },
        (_, i) => () => login(shop, from, `stuffed-${a}-${i}@example.com`, "Guessed-Password-1"),
      )
    ),
    width,
  );
}

Deno.test("340 wrong sign-ins from 17 addresses leave every other shopper able to sign in", async () => {
  await using t = await createTestApp();
  await using shop = serveOnLoopback(t.app);
  const shoppers = ["ann@example.com", "bo@example.com", "cy@example.com"];
  for (const email of shoppers) await register(t, email);

  const answers = await stuffing(shop, Array.from({ length: 17 }, (_, i) => `127.0.${20 + i}.1`));
  // Each address is within its own limits: nothing is refused for the limits, and what was not
  // compared met the full hashing queue (503), the guard of the shop's CPU.
  const counts = tally(answers);
  assert.equal(counts[429], undefined, JSON.stringify(counts));
  assert.equal((counts[401] ?? 0) + (counts[503] ?? 0), 340, JSON.stringify(counts));

  for (const [i, email] of shoppers.entries()) {
    const res = await login(shop, `127.0.${60 + i}.1`, email, RIGHT);
    assert.equal(res.status, 200, `${email}: ${JSON.stringify(res.json)}`);
  }
});

Deno.test("one /24 gets 200 sign-in attempts per 10 minutes; other networks go on", async () => {
  await using t = await createTestApp();
  await using shop = serveOnLoopback(t.app);
  await register(t, "neighbour@example.com");
  await register(t, "elsewhere@example.com");
  // The neighbour signed in at home before; the office is in the attacker's /24.
  const laptop = deviceCookie(await login(shop, "127.0.4.200", "neighbour@example.com", RIGHT));

  const answers = await stuffing(
    shop,
    Array.from({ length: 17 }, (_, i) => `127.0.5.${i + 1}`),
    HASHING_ROOM,
  );
  const counts = tally(answers);
  assert.deepEqual(counts, { 401: 200, 429: 140 });
  const refused = answers.find((a) => a.status === 429)!;
  assert.match(refused.json.error, /from your network/);

  // Every sign-in there costs a hash, so the /24's budget holds even for a known device...
  const office = await login(shop, "127.0.5.100", "neighbour@example.com", RIGHT, laptop);
  assert.equal(office.status, 429);
  assert.match(office.json.error, /from your network/);
  // ...while other networks are untouched, and the /24's window passes.
  const other = await login(shop, "127.0.6.1", "elsewhere@example.com", RIGHT);
  assert.equal(other.status, 200, JSON.stringify(other.json));
  t.clock.advance(10 * 60_000);
  assert.equal((await login(shop, "127.0.5.100", "neighbour@example.com", RIGHT)).status, 200);
});
