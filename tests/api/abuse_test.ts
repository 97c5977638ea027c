/**
 * What an attacker meets (SECURITY.md): limits that count every attempt before comparing anything,
 * keyed so that nobody at another address is locked out; no writes from other sites; no forged
 * Host in a link; no personal answer in a cache. Shoppers and attackers send from their own
 * addresses (`client`), as real connections do.
 */
import assert from "node:assert/strict";
import {
  adminCookie,
  bearer,
  createTestApp,
  PRODUCTION,
  TEST_ADMIN_PASSWORD,
  type TestApp,
} from "../helpers/test_app.ts";
import { newPackCart, paidOrder, sessionIdOf, STARTER } from "../helpers/shop_fixtures.ts";
import { keys } from "../../server/kv/keys.ts";
import { passwordGate } from "../../server/password_gate.ts";

const ATTACKER = "203.0.113.66";
const OWNER = "198.51.100.7";

/** How many answers had each status, e.g. { 401: 5, 429: 45 }. */
function tally(answers: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

function adminVerify(t: TestApp, password: string, client: string) {
  return t.request("/api/admin/verify", { method: "POST", body: { password }, client });
}

Deno.test("50 wrong admin passwords at once from one address: exactly 5 are compared", async () => {
  await using t = await createTestApp();
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) => adminVerify(t, `wrong-password-${i}`, ATTACKER)),
  );
  assert.deepEqual(tally(answers), { 401: 5, 429: 45 });
  const refused = answers.find((a) => a.status === 429)!;
  assert.match(refused.json.error, /Too many wrong passwords/);
  const wait = Number(refused.headers.get("retry-after"));
  assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
  // The attacker's address is refused even with the right password...
  assert.equal((await adminVerify(t, TEST_ADMIN_PASSWORD, ATTACKER)).status, 429);
  // ...while the owner, elsewhere, signs in at once.
  assert.equal((await adminVerify(t, TEST_ADMIN_PASSWORD, OWNER)).status, 200);
});

Deno.test("50 wrong bearer passwords at once: exactly 5 are compared; the right one still works elsewhere", async () => {
  await using t = await createTestApp();
  const answers = await Promise.all(
    Array.from(
      { length: 50 },
      (_, i) => t.request("/api/admin/orders", { headers: bearer(`guess-${i}`), client: ATTACKER }),
    ),
  );
  assert.deepEqual(tally(answers), { 401: 5, 429: 45 });
  const owner = await t.request("/api/admin/orders", {
    headers: bearer(TEST_ADMIN_PASSWORD),
    client: OWNER,
  });
  assert.equal(owner.status, 200);
  // A script with the right password is not held back by its own calls: 30 in a row all pass.
  for (let i = 0; i < 30; i++) {
    const res = await t.request("/api/admin/session", {
      headers: bearer(TEST_ADMIN_PASSWORD),
      client: OWNER,
    });
    assert.equal(res.status, 200, `call ${i + 1}`);
  }
});

Deno.test("admin guesses from many addresses reach a ceiling that slows the guessers, not the owner", async () => {
  await using t = await createTestApp();
  // 12 addresses x 5 guesses = 60, a round at a time: 50 under the ceiling; past it, addresses
  // that have failed share one attempt every 5 seconds.
  const answers = [];
  for (let round = 0; round < 5; round++) {
    answers.push(
      ...await Promise.all(
        Array.from(
          { length: 12 },
          (_, i) => adminVerify(t, `wrong-${round}-${i}`, `203.0.113.${1 + i}`),
        ),
      ),
    );
  }
  assert.deepEqual(tally(answers), { 401: 51, 429: 9 });
  // The owner, who has not failed, signs in at once.
  assert.equal((await adminVerify(t, TEST_ADMIN_PASSWORD, OWNER)).status, 200);
  // A guesser's address has spent its own 5 a minute, even for the right password; a minute
  // later it is not locked either.
  const refused = await adminVerify(t, TEST_ADMIN_PASSWORD, "203.0.113.1");
  assert.equal(refused.status, 429);
  assert.match(refused.json.error, /Too many wrong passwords/);
  t.clock.advance(60_000);
  assert.equal((await adminVerify(t, TEST_ADMIN_PASSWORD, "203.0.113.1")).status, 200);
});

async function registerAccount(t: TestApp, email: string) {
  const res = await t.request("/auth/register", {
    method: "POST",
    body: { email, password: "The-Right-Password-1" },
    client: "192.0.2.1",
  });
  assert.equal(res.status, 201, res.text);
}

function login(t: TestApp, email: string, password: string, client: string) {
  return t.request("/auth/login", { method: "POST", body: { email, password }, client });
}

Deno.test("wrong shopper passwords at once from one address: 5 compared; the owner elsewhere signs in", async () => {
  await using t = await createTestApp();
  await registerAccount(t, "dana@example.com");
  const answers = await Promise.all(
    Array.from({ length: 12 }, (_, i) => login(t, "dana@example.com", `guess-${i}xx`, ATTACKER)),
  );
  // Each attempt past the limit is refused before any hashing; the 5 that hash may meet a full
  // hashing queue (503) instead of their 401, but never more than 5 are compared.
  assert.equal(tally(answers)[429], 7);
  assert.match(answers.find((a) => a.status === 429)!.json.error, /Too many wrong passwords/);
  assert.equal((await login(t, "dana@example.com", "The-Right-Password-1", ATTACKER)).status, 429);
  const owner = await login(t, "dana@example.com", "The-Right-Password-1", OWNER);
  assert.equal(owner.status, 200, owner.text);
});

Deno.test("one account guessed from 60 addresses of one /24: 50, then 3 fresh and 1 slowed are compared", async () => {
  await using t = await createTestApp();
  await registerAccount(t, "erin@example.com");
  // In waves the hashing queue holds, so every attempt let through is judged (one the full queue
  // answers 503 judges nothing and counts nowhere); within a wave they race.
  const room = passwordGate.permits + passwordGate.queue;
  const answers = [];
  for (let wave = 0; wave < 60; wave += room) {
    answers.push(
      ...await Promise.all(
        Array.from(
          { length: Math.min(room, 60 - wave) },
          (_, i) => login(t, "erin@example.com", `guess-${wave + i}xx`, `10.9.0.${wave + i}`),
        ),
      ),
    );
  }
  assert.deepEqual(tally(answers), { 401: 54, 429: 6 });
  // The owner, elsewhere and without a failure, signs in at once.
  const owner = await login(t, "erin@example.com", "The-Right-Password-1", OWNER);
  assert.equal(owner.status, 200, owner.text);
  // A guessing address is slowed, not locked, even with the right password.
  const slowed = await login(t, "erin@example.com", "The-Right-Password-1", "10.9.0.1");
  assert.equal(slowed.status, 429);
  assert.match(slowed.json.error, /slowed down/);
  t.clock.advance(5_000);
  const later = await login(t, "erin@example.com", "The-Right-Password-1", "10.9.0.1");
  assert.equal(later.status, 200, later.text);
});

Deno.test("sign-ins answered 'busy' while others fill the hashing queue count nowhere: the shopper signs in once it drains", async () => {
  await using t = await createTestApp();
  await registerAccount(t, "gil@example.com");
  const first = await login(t, "gil@example.com", "The-Right-Password-1", OWNER);
  assert.equal(first.status, 200, first.text);
  // Someone else's storm holds every hashing permit and fills the queue.
  const releases: (() => void)[] = [];
  const held = Array.from(
    { length: passwordGate.permits + passwordGate.queue },
    () => passwordGate.run(() => new Promise<void>((resolve) => releases.push(resolve))),
  );
  while (releases.length < passwordGate.permits) await new Promise((r) => setTimeout(r, 1));
  // The shopper tries again and again meanwhile, from their address and from a new one.
  for (let i = 0; i < 6; i++) {
    assert.equal((await login(t, "gil@example.com", "The-Right-Password-1", OWNER)).status, 503);
    assert.equal((await login(t, "gil@example.com", "wrong-but-unjudged", OWNER)).status, 503);
  }
  for (let i = 0; i < 25; i++) {
    await login(t, "gil@example.com", "The-Right-Password-1", "198.51.100.99");
  }
  // The storm drains: no password was judged, so nothing was held against them.
  let drained = false;
  const all = Promise.all(held).then(() => drained = true);
  while (!drained) {
    releases.splice(0).forEach((release) => release());
    await new Promise((r) => setTimeout(r, 1));
  }
  await all;
  const after = await login(t, "gil@example.com", "The-Right-Password-1", OWNER);
  assert.equal(after.status, 200, after.text);
  const elsewhere = await login(t, "gil@example.com", "The-Right-Password-1", "198.51.100.99");
  assert.equal(elsewhere.status, 200, elsewhere.text);
});

Deno.test("one address naming many accounts: 20 sign-in attempts per 10 minutes", async () => {
  await using t = await createTestApp();
  const answers = await Promise.all(
    Array.from({ length: 26 }, (_, i) => login(t, `user${i}@example.com`, "guess-guess", ATTACKER)),
  );
  assert.equal(tally(answers)[429], 6);
  assert.match(answers.find((a) => a.status === 429)!.json.error, /Too many sign-in attempts/);
});

Deno.test("sign-ups at once from one address: exactly 10 go on", async () => {
  await using t = await createTestApp();
  const answers = await Promise.all(
    Array.from({ length: 14 }, (_, i) =>
      t.request("/auth/register", {
        method: "POST",
        body: { email: `new${i}@example.com`, password: "A-long-Password1" },
        client: ATTACKER,
      })),
  );
  assert.equal(tally(answers)[429], 4);
});

Deno.test("sign-ups from one network: 30 per /24 per 10 minutes, each a hash; other networks sign up", async () => {
  await using t = await createTestApp();
  function signUp(i: number, client: string) {
    return t.request("/auth/register", {
      method: "POST",
      body: { email: `block${i}@example.com`, password: "A-long-Password1" },
      client,
    });
  }
  // Three addresses of one /24 spend their 10 each, one at a time (no full hashing queue).
  for (let i = 0; i < 30; i++) {
    const res = await signUp(i, `203.0.113.${1 + Math.floor(i / 10)}`);
    assert.equal(res.status, 201, res.text);
  }
  // A fourth address of the /24 has its own 10, but the block is spent.
  const fourth = await signUp(30, "203.0.113.4");
  assert.equal(fourth.status, 429, fourth.text);
  assert.match(fourth.json.error, /your network/);
  // Another network signs up.
  assert.equal((await signUp(31, "198.51.100.20")).status, 201);
  // The next window, the block signs up again.
  t.clock.advance(10 * 60_000);
  assert.equal((await signUp(32, "203.0.113.4")).status, 201);
});

Deno.test("order number guesses at once: exactly 30 misses are looked up; real orders are not counted", async () => {
  await using t = await createTestApp();
  const guesses = await Promise.all(
    Array.from(
      { length: 40 },
      (_, i) =>
        t.request(`/api/orders/STGUESS${String(i).padStart(13, "0")}`, { client: ATTACKER }),
    ),
  );
  assert.deepEqual(tally(guesses), { 404: 30, 429: 10 });
  // A shopper checking their own order again and again is never limited.
  const { orderNumber } = await paidOrder(t);
  for (let i = 0; i < 40; i++) {
    assert.equal((await t.request(`/api/orders/${orderNumber}`, { client: OWNER })).status, 200);
  }
});

Deno.test("new carts: 60 per address per 10 minutes; the cart in use and other shoppers go on", async () => {
  await using t = await createTestApp();
  const add = (client: string, cartId = "") =>
    t.request(`/api/cart/add?itemId=${STARTER.id}&cartId=${cartId}`, { method: "POST", client });
  let cartId = "";
  for (let i = 0; i < 60; i++) {
    const res = await add(ATTACKER);
    assert.equal(res.status, 200, `cart ${i + 1}: ${res.text}`);
    cartId = res.json.id;
  }
  const refused = await add(ATTACKER);
  assert.equal(refused.status, 429);
  assert.match(refused.json.error, /Too many new carts/);
  assert.ok(Number(refused.headers.get("retry-after")) > 0);
  assert.equal((await add(ATTACKER, cartId)).status, 200, "adding to a cart is not a new cart");
  assert.equal((await add(OWNER)).status, 200);
  t.clock.advance(10 * 60_000);
  assert.equal((await add(ATTACKER)).status, 200, "the window passes");
});

Deno.test("a cart is stored only once it has a line", async () => {
  await using t = await createTestApp();
  const carts = async () =>
    (await Array.fromAsync(t.kv.list({ prefix: keys.cart("").slice(0, 1) }))).length;
  const before = await carts();
  assert.equal((await t.request("/api/cart/add?itemId=99999", { method: "POST" })).status, 404);
  assert.equal(
    (await t.request("/api/cart/add/tester", {
      method: "POST",
      body: { name: "Custom Switch Tester", size: 10, switches: [] },
    })).status,
    400,
  );
  assert.equal(await carts(), before, "a refused add stores no cart");
  await newPackCart(t);
  assert.equal(await carts(), before + 1);
});

Deno.test("checkouts: 20 per address per 10 minutes", async () => {
  await using t = await createTestApp();
  const cartId = await newPackCart(t);
  for (let i = 0; i < 20; i++) {
    const res = await t.request(`/api/cart/${cartId}/checkout/us`, {
      method: "POST",
      client: ATTACKER,
    });
    assert.equal(res.status, 200, `checkout ${i + 1}: ${res.text}`);
  }
  const refused = await t.request(`/api/cart/${cartId}/checkout/us`, {
    method: "POST",
    client: ATTACKER,
  });
  assert.equal(refused.status, 429);
  assert.match(refused.json.error, /started 20 checkouts/);
  const other = await t.request(`/api/cart/${cartId}/checkout/us`, {
    method: "POST",
    client: OWNER,
  });
  assert.equal(other.status, 200, other.text);
});

Deno.test("writes from another site are refused; the shop's own pages and scripts go on", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const { orderNumber } = await paidOrder(t);
  const cancel = (headers: Record<string, string>) =>
    t.request(`/api/admin/orders/${orderNumber}/cancel`, {
      method: "POST",
      headers: { Cookie: cookie, ...headers },
    });
  const refusals: [string, Record<string, string>][] = [
    ["another origin", { Origin: "https://evil.example" }],
    ["a sibling subdomain", { Origin: "http://shop.localhost" }],
    ["the opaque origin", { Origin: "null" }],
    ["Sec-Fetch-Site cross-site", { "Sec-Fetch-Site": "cross-site" }],
    ["Sec-Fetch-Site same-site", { "Sec-Fetch-Site": "same-site", Origin: "http://localhost" }],
  ];
  for (const [what, headers] of refusals) {
    const res = await cancel(headers);
    assert.equal(res.status, 403, what);
    assert.match(res.json.error, /another website/, what);
  }
  const order = await t.request(`/api/orders/${orderNumber}`);
  assert.equal(order.json.status, "PAYMENT_RECEIVED", "nothing was cancelled");
  for (
    const [path, body] of [
      ["/api/admin/logout", undefined],
      ["/auth/login", { email: "a@example.com", password: "whatever-1" }],
      ["/api/cart/add?itemId=" + STARTER.id, undefined],
    ] as const
  ) {
    const res = await t.request(path, {
      method: "POST",
      body,
      headers: { Cookie: cookie, Origin: "https://evil.example" },
    });
    assert.equal(res.status, 403, path);
  }
  assert.equal(
    (await t.request("/api/admin/session", { headers: { Cookie: cookie } })).status,
    200,
  );
  // The shop's own page (same origin) and a script without browser headers are served.
  const same = await cancel({ Origin: "http://localhost", "Sec-Fetch-Site": "same-origin" });
  assert.equal(same.status, 200, same.text);
  assert.equal(
    (await t.request("/auth/login", {
      method: "POST",
      body: { email: "a@example.com", password: "whatever-1" },
      headers: { "Sec-Fetch-Site": "none" },
    })).status,
    401,
  );
  // Signed provider webhooks come from the provider's servers: judged by their signature only.
  const hook = await t.request("/api/webhooks/demo", {
    method: "POST",
    body: {},
    headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
  });
  assert.notEqual(hook.status, 403);
});

Deno.test("with PUBLIC_URL, a forged Host never reaches a link", async () => {
  await using t = await createTestApp({
    env: { PUBLIC_URL: "https://shop.example" },
  });
  const evil = "http://evil.example";
  const cartId = await newPackCart(t);
  const start = await t.request(`${evil}/api/cart/${cartId}/checkout/us`, { method: "POST" });
  assert.equal(start.status, 200, start.text);
  const session = await t.request(`/api/demo/checkout-sessions/${sessionIdOf(start.json.url)}`);
  assert.doesNotMatch(JSON.stringify(session.json), /evil/);
  const robots = await t.request(`${evil}/robots.txt`);
  assert.match(robots.text, /Sitemap: https:\/\/shop\.example\/sitemap\.xml/);
  const sitemap = await t.request(`${evil}/sitemap.xml`);
  assert.doesNotMatch(sitemap.text, /evil/);
  assert.match(sitemap.text, /<loc>https:\/\/shop\.example\/<\/loc>/);
  // The confirmation email links to the real shop.
  const paid = await t.request(
    `${evil}/api/demo/checkout-sessions/${sessionIdOf(start.json.url)}/pay`,
    {
      method: "POST",
      body: {
        cardNumber: "4242424242424242",
        email: "ann@example.com",
        address: {
          street: "1 Main St",
          city: "Springfield",
          state: "IL",
          zipCode: "62701",
          country: "US",
        },
      },
    },
  );
  assert.equal(paid.status, 200, paid.text);
  await t.deliverEmails();
  const sent = t.mailer.sent.map((m) => m.text).join("\n");
  assert.match(sent, /https:\/\/shop\.example\/order\/track\//);
  assert.doesNotMatch(sent, /evil/);
});

Deno.test("without PUBLIC_URL (development), a Host the server does not listen on is refused", async () => {
  await using t = await createTestApp();
  const cartId = await newPackCart(t);
  for (const path of [`/api/cart/${cartId}/checkout/us`, "/robots.txt", "/sitemap.xml"]) {
    const res = await t.request(`http://evil.example${path}`, {
      method: path.startsWith("/api") ? "POST" : "GET",
    });
    assert.equal(res.status, 400, path);
    assert.match(res.json.error, /does not answer to the host "evil\.example"/);
  }
  for (const host of ["http://localhost:8000", "http://127.0.0.1:43210", "http://[::1]:8000"]) {
    const res = await t.request(`${host}/robots.txt`);
    assert.equal(res.status, 200, host);
    assert.match(res.text, new RegExp(`Sitemap: ${host.replace(/[[\].]/g, "\\$&")}/sitemap`));
  }
});

Deno.test("answers with personal data or a token are never stored by a cache", async () => {
  await using t = await createTestApp();
  const { orderNumber, sessionId } = await paidOrder(t);
  const cartId = await newPackCart(t);
  const cookie = await adminCookie(t);
  await t.request("/auth/register", {
    method: "POST",
    body: { email: "fay@example.com", password: "A-long-Password1" },
  });
  const signIn = await t.request("/auth/login", {
    method: "POST",
    body: { email: "fay@example.com", password: "A-long-Password1" },
  });
  const personal: [string, { status: number; headers: Headers }][] = [
    ["an order", await t.request(`/api/orders/${orderNumber}`)],
    ["a missing order", await t.request("/api/orders/STNOSUCHORDER0000000")],
    ["a payment session", await t.request(`/api/orders/session/${sessionId}`)],
    ["a demo payment", await t.request(`/api/demo/checkout-sessions/${sessionId}`)],
    ["a cart", await t.request(`/api/cart/${cartId}`)],
    ["the sign-in token", signIn],
    ["my orders", await t.request("/auth/orders", { headers: bearer(signIn.json.token) })],
    ["my account", await t.request("/auth/me", { headers: bearer(signIn.json.token) })],
    ["the admin's orders", await t.request("/api/admin/orders", { headers: { Cookie: cookie } })],
  ];
  for (const [what, res] of personal) {
    assert.equal(res.headers.get("cache-control"), "no-store", what);
  }
  // The public catalogue keeps its cheap revalidation.
  const switches = await t.request("/api/switches");
  assert.equal(switches.headers.get("cache-control"), "no-cache");
  assert.ok(switches.headers.get("etag"));
});

Deno.test("production shops keep PUBLIC_URL: links use it whatever the Host", async () => {
  await using t = await createTestApp({ env: PRODUCTION });
  const res = await t.request("http://evil.example/robots.txt");
  assert.match(res.text, /Sitemap: https:\/\/shop\.example\/sitemap\.xml/);
});
