/**
 * Security suite (issue item 7): who may call what (admin and account authorization matrices),
 * the browser security headers, cookie flags, unguessable and throttled order numbers, what the
 * public order view hides, and an error handler that never shows internals.
 */
import assert from "node:assert/strict";
import {
  adminCookie,
  adminLogin,
  bearer,
  changedKeys,
  createTestApp,
  fakeDist,
  forgetRateLimits,
  PRODUCTION,
  snapshot,
  TEST_ADMIN_PASSWORD,
  type TestApp,
} from "../helpers/test_app.ts";
import { newPackCart, paidOrder, US_ADDRESS } from "../helpers/shop_fixtures.ts";
import { ADMIN_ABSOLUTE_MS, ADMIN_IDLE_MS } from "../../server/accounts/admin_sessions.ts";
import { newOrderNumber } from "../../server/orders/order.ts";
import { ORDER_MISS_LIMIT } from "../../server/routes/orders.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { LOCAL_IMAGE_BASE, switchImageUrl } from "../../shared/images.ts";

// The public views must hide this street, apartment and email, so the tests spell them out here.
const ADDRESS = { ...US_ADDRESS, street: "742 Evergreen Terrace", apartment: "Apt 9" };
const EMAIL = "johnsmith@example.com";
/** A buyer with a full email and street address, for paid orders whose details must stay hidden. */
const JOHN = { email: EMAIL, name: "John Smith", address: ADDRESS };

async function shopperLogin(t: TestApp, email: string): Promise<string> {
  const account = { email, password: "Sw1tchesRule" };
  assert.equal((await t.request("/auth/register", { method: "POST", body: account })).status, 201);
  const res = await t.request("/auth/login", { method: "POST", body: account });
  assert.equal(res.status, 200, res.text);
  return res.json.token;
}

// ---------------------------------------------------------------------------------------------
// Authorization

/** Every route behind requireAdmin, with a body that passes validation where one is needed. */
const ADMIN_ROUTES: [string, string, unknown?][] = [
  ["GET", "/api/admin/session"],
  ["GET", "/api/admin/orders"],
  ["GET", "/api/admin/orders/new/csv"],
  ["POST", "/api/admin/orders/ship-processed"],
  ["POST", "/api/admin/orders/:orderNumber/tracking", { trackingNumber: "9400 1000" }],
  ["POST", "/api/admin/orders/:orderNumber/delivered"],
  ["POST", "/api/admin/orders/:orderNumber/cancel"],
  ["GET", "/api/admin/inventory"],
  ["PUT", "/api/admin/inventory/switches/:id", { stock: 40 }],
  ["PUT", "/api/admin/inventory/components/:name", { stock: 400 }],
  ["GET", "/api/test/ping"],
  ["GET", "/api/test/test_email"],
];

/** Admin routes registered in server/routes/admin.ts; verify (the login) and logout are public. */
async function adminRoutesInSource(): Promise<string[]> {
  const source = await Deno.readTextFile(new URL("../../server/routes/admin.ts", import.meta.url));
  const [, admin, test] = source.split(/export function (?:adminRoutes|testRoutes)/);
  const routes = (part: string, prefix: string) =>
    [...part.matchAll(/\.(get|post|put|delete)\(\s*"(\/[^"]*)"/g)]
      .map((m) => `${m[1].toUpperCase()} ${prefix}${m[2]}`);
  return [...routes(admin, "/api/admin"), ...routes(test, "/api/test")]
    .filter((r) => !/ \/api\/admin\/(verify|logout)$/.test(r)).sort();
}

Deno.test("the admin matrix lists every admin and test route", async () => {
  assert.deepEqual(ADMIN_ROUTES.map(([m, p]) => `${m} ${p}`).sort(), await adminRoutesInSource());
});

Deno.test("admin matrix: only an admin session or the admin password opens /api/admin and /api/test", async () => {
  await using t = await createTestApp();
  const { orderNumber } = await paidOrder(t, JOHN);
  const shopper = await shopperLogin(t, "dana@example.com");
  // Rate limit counters change on refused requests, as they should; nothing else may.
  const uncounted = ["rate_limits"];
  const beforeStale = await snapshot(t.kv, uncounted);
  const stale = await adminCookie(t);
  const staleSession = changedKeys(beforeStale, await snapshot(t.kv, uncounted))
    .find((k) => k.startsWith('["admin_sessions",'));
  assert.ok(staleSession, "the stale login stored its session");
  t.clock.advance(ADMIN_IDLE_MS + 1000);
  const cookie = await adminCookie(t);
  const sessionToken = cookie.split("=")[1];
  const refusals: [string, Record<string, string>][] = [
    ["no credentials", {}],
    ["wrong bearer", bearer("not-the-password")],
    ["shopper bearer token", bearer(shopper)],
    ["expired admin session", { Cookie: stale }],
    ["forged admin session", { Cookie: "admin_session=forged-token-0000000000000000000000000000" }],
    ["the session token as a bearer", bearer(sessionToken)],
    ["the password as a cookie", { Cookie: `admin_session=${TEST_ADMIN_PASSWORD}` }],
    ["a shopper token as a cookie", { Cookie: `admin_session=${shopper}` }],
    ["Basic with the password", { Authorization: `Basic ${btoa(`admin:${TEST_ADMIN_PASSWORD}`)}` }],
  ];
  const grants: [string, Record<string, string>][] = [
    ["admin session", { Cookie: cookie }],
    ["admin bearer", bearer(TEST_ADMIN_PASSWORD)],
  ];
  const pathOf = (template: string, order: string) =>
    template.replace(":orderNumber", order)
      .replace(":id", String(SWITCHES[0].id)).replace(":name", "SMALL_BOX");
  for (const [method, template, body] of ADMIN_ROUTES) {
    const path = pathOf(template, orderNumber);
    // An order that does not exist is refused alike: a refusal does not tell whether it does.
    const refused = template.includes(":orderNumber")
      ? [path, pathOf(template, "STNOSUCHORDER0000000")]
      : [path];
    for (const refusedPath of refused) {
      for (const [who, headers] of refusals) {
        // Wrong bearer passwords count toward the admin lock-out; the matrix must not trip it.
        await forgetRateLimits(t.kv);
        const before = await snapshot(t.kv, uncounted);
        const res = await t.request(refusedPath, { method, body, headers });
        const what = `${who}: ${method} ${refusedPath}`;
        assert.equal(res.status, 401, `${what} ${res.text}`);
        assert.equal(res.json.error, "Admin authentication required", `${what}: 401 is JSON`);
        const after = await snapshot(t.kv, uncounted);
        // Seeing the expired session is when the server deletes its record; that is all.
        const changed: string[] = changedKeys(before, after)
          .filter((k) => !(k === staleSession && who === "expired admin session" && !after.has(k)));
        assert.deepEqual(changed, [], `${what} changed the KV`);
      }
    }
    // 409 is fine for an order change: cancelling first makes the later ones conflict.
    const mayConflict = template.includes(":orderNumber");
    for (const [who, headers] of grants) {
      await forgetRateLimits(t.kv);
      const res = await t.request(path, { method, body, headers });
      assert.ok(
        res.status === 200 || (mayConflict && res.status === 409),
        `${who}: ${method} ${path} ${res.text}`,
      );
      if (path === "/api/test/ping") assert.match(res.text, /pong/, `${who}: the ping answers`);
    }
  }
});

Deno.test("admin paths written another way reach the same check", async () => {
  await using t = await createTestApp();
  const paths = [
    "/api/%61dmin/orders",
    "/api/admin//orders",
    "/api/admin/./orders",
    "/api/test/../admin/orders",
    "/api/admin/orders/",
    "/api/admin/Orders",
    "/api/admin/%6Frders",
    "/api/admin/orders%2F",
    "/api/admin/orders;x",
    "/api/test/%70ing",
  ];
  for (const path of paths) {
    const res = await t.request(path);
    assert.ok(res.status === 401 || res.status === 404, `${path}: ${res.status} ${res.text}`);
    assert.doesNotMatch(res.text, /"email"|pong/, `${path} shows nothing`);
  }
});

Deno.test("an admin session ends 12 hours after sign-in however often it is used", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const hours = Math.floor(ADMIN_ABSOLUTE_MS / 3_600_000);
  for (let h = 1; h < hours; h++) {
    t.clock.advance(3_600_000);
    const res = await t.request("/api/admin/session", { headers: { Cookie: cookie } });
    assert.equal(res.status, 200, `hour ${h}`);
  }
  t.clock.advance(3_600_000 + 1000);
  assert.equal(
    (await t.request("/api/admin/session", { headers: { Cookie: cookie } })).status,
    401,
  );
});

Deno.test("account matrix: /auth routes need the shopper's own live token", async () => {
  await using t = await createTestApp();
  const token = await shopperLogin(t, "dana@example.com");
  const other = await shopperLogin(t, "eve@example.com");
  assert.equal(
    (await t.request("/auth/logout", { method: "POST", headers: bearer(other) })).status,
    200,
  );
  const cookie = await adminCookie(t);
  const routes: [string, string][] = [
    ["GET", "/auth/orders"],
    ["GET", "/auth/me"],
    ["POST", "/auth/create-payment-intent"],
  ];
  const refusals: [string, Record<string, string>][] = [
    ["none", {}],
    ["forged", bearer("forged-token-forged-token-forged-token-forged")],
    ["another user's logged-out token", bearer(other)],
    ["the admin password", bearer(TEST_ADMIN_PASSWORD)],
    ["the admin session cookie", { Cookie: cookie }],
    ["an empty bearer", { Authorization: "Bearer " }],
    ["a 100 KB bearer", bearer("x".repeat(100 * 1024))],
  ];
  for (const [method, path] of routes) {
    for (const [who, headers] of refusals) {
      const res = await t.request(path, { method, headers });
      assert.equal(res.status, 401, `${who}: ${method} ${path}`);
      assert.match(res.json.error, /sign in/);
    }
    const ok = await t.request(path, { method, headers: bearer(token) });
    assert.equal(ok.status, 200, `valid token: ${method} ${path} ${ok.text}`);
  }
  const me = await t.request("/auth/me", { headers: bearer(token) });
  assert.equal(me.json.email, "dana@example.com", "the token is the shopper's own");
});

Deno.test("a shopper's orders list holds only their own orders", async () => {
  await using t = await createTestApp();
  const dana = await shopperLogin(t, "dana@example.com");
  const eve = await shopperLogin(t, "eve@example.com");
  const created = await t.request("/auth/create-payment-intent", {
    method: "POST",
    headers: bearer(dana),
    body: {
      cart_data: { cartId: await newPackCart(t, bearer(dana)) },
      email: "dana@example.com",
      name: "Dana",
      address: "1 Main St",
      city: "Austin",
      zipcode: "73301",
    },
  });
  assert.equal(created.status, 200, created.text);
  assert.equal((await t.request("/auth/orders", { headers: bearer(dana) })).json.length, 1);
  assert.deepEqual((await t.request("/auth/orders", { headers: bearer(eve) })).json, []);
});

// ---------------------------------------------------------------------------------------------
// Headers and cookies

function csp(headers: Headers): Map<string, string[]> {
  const value = headers.get("content-security-policy") ?? "";
  return new Map(
    value.split(";").map((d) => d.trim().split(/\s+/)).filter((d) => d[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

function assertBrowserHeaders(what: string, headers: Headers, production: boolean) {
  assert.equal(headers.get("x-content-type-options"), "nosniff", what);
  assert.equal(headers.get("x-frame-options"), "DENY", what);
  assert.ok(
    ["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"]
      .includes(headers.get("referrer-policy") ?? ""),
    `${what}: Referrer-Policy ${headers.get("referrer-policy")}`,
  );
  assert.equal(headers.get("access-control-allow-origin"), null, `${what}: no CORS`);
  const hsts = headers.get("strict-transport-security");
  if (production) {
    assert.ok(Number(/max-age=(\d+)/.exec(hsts ?? "")?.[1]) >= 31536000, `${what}: HSTS ${hsts}`);
  } else assert.equal(hsts, null, `${what}: no HSTS over plain HTTP`);
}

function assertShopCsp(what: string, headers: Headers) {
  const policy = csp(headers);
  assert.deepEqual(policy.get("default-src"), ["'self'"], what);
  const scripts = policy.get("script-src") ?? [];
  assert.ok(scripts.includes("'self'"), what);
  for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", "*", "data:", "http:", "https:"]) {
    assert.ok(!scripts.includes(unsafe), `${what}: script-src allows ${unsafe}`);
  }
  assert.deepEqual(policy.get("object-src"), ["'none'"], what);
  assert.deepEqual(policy.get("base-uri"), ["'none'"], what);
  assert.deepEqual(policy.get("frame-ancestors"), ["'none'"], what);
}

for (const production of [false, true]) {
  Deno.test(`security headers on API answers, pages and assets (${production ? "production" : "development"})`, async () => {
    // A stand-in for the built client: a page and a hashed asset.
    const env: Record<string, string> = { DIST_DIR: await fakeDist() };
    if (production) Object.assign(env, PRODUCTION);
    await using t = await createTestApp({ env });
    const sw = (await t.request("/api/switches")).json[0];
    const image = switchImageUrl(LOCAL_IMAGE_BASE, sw.image);
    const answers: [string, string, RegExp][] = [
      ["API answer", "/api/health", /application\/json/],
      ["API error", "/api/orders/STNOSUCHORDER0000000", /application\/json/],
      ["page", "/shop", /text\/html/],
      ["asset", "/assets/main-TEST.js", /javascript/],
      ["image", image, /image\/svg\+xml/],
    ];
    for (const [what, path, type] of answers) {
      const res = await t.request(path, { headers: { Origin: "https://evil.example" } });
      assert.ok(res.status < 500, `${what}: ${res.status}`);
      assert.match(res.headers.get("content-type") ?? "", type, what);
      assertBrowserHeaders(what, res.headers, production);
      if (what === "image") {
        // Generated SVGs keep their own stricter policy: nothing in them may run.
        const policy = csp(res.headers);
        assert.deepEqual(policy.get("default-src"), ["'none'"], "image CSP");
        assert.equal(policy.get("script-src"), undefined, "image CSP");
      } else assertShopCsp(what, res.headers);
    }
  });
}

Deno.test("the admin cookie in development: HttpOnly, SameSite=Strict, Path=/", async () => {
  await using t = await createTestApp();
  const { res, cookie } = await adminLogin(t);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.json, { ok: true });
  const [setCookie, device] = res.headers.getSetCookie();
  assert.match(setCookie, /^admin_session=[A-Za-z0-9_-]{43,};/, "a 256-bit token");
  assert.match(setCookie, /; HttpOnly/i);
  assert.match(setCookie, /; SameSite=Strict/i);
  assert.match(setCookie, /; Path=\/(;|$)/);
  assert.doesNotMatch(setCookie, /Domain=/i, "bound to this host");
  assert.doesNotMatch(setCookie, /Max-Age|Expires/i, "a session cookie; the server ends it");
  // The known-device cookie: kept 90 days, unreadable by scripts, never sent from other sites.
  assert.match(device, /^known_device=[A-Za-z0-9_-]{43};/);
  for (const flag of [/; HttpOnly/i, /; SameSite=Strict/i, /; Path=\/(;|$)/, /; Max-Age=7776000/]) {
    assert.match(device, flag);
  }
  assert.equal(
    (await t.request("/api/admin/session", { headers: { Cookie: cookie } })).status,
    200,
  );
});

Deno.test("the admin cookie in production: __Host- prefix and Secure; logout clears it", async () => {
  await using t = await createTestApp({ env: PRODUCTION });
  const { res, cookie } = await adminLogin(t);
  assert.equal(res.status, 200, res.text);
  const [setCookie, device] = res.headers.getSetCookie();
  assert.match(setCookie, /^__Host-admin_session=[A-Za-z0-9_-]{43,};/);
  assert.match(device, /^__Host-known_device=[A-Za-z0-9_-]{43};/);
  for (const flag of [/; HttpOnly/i, /; Secure/i, /; SameSite=Strict/i, /; Path=\/(;|$)/]) {
    assert.match(setCookie, flag);
    assert.match(device, flag);
  }
  assert.doesNotMatch(setCookie, /Domain=/i, "__Host- cookies may not name a domain");
  assert.equal(
    (await t.request("/api/admin/session", { headers: { Cookie: cookie } })).status,
    200,
  );
  const token = cookie.split("=")[1];
  const unprefixed = await t.request("/api/admin/session", {
    headers: { Cookie: `admin_session=${token}` },
  });
  assert.equal(unprefixed.status, 401, "a cookie without the prefix could be set by a subdomain");

  const out = await t.request("/api/admin/logout", { method: "POST", headers: { Cookie: cookie } });
  const cleared = out.headers.get("set-cookie") ?? "";
  assert.match(cleared, /^__Host-admin_session=;/);
  assert.match(cleared, /Max-Age=0|Expires=Thu, 01 Jan 1970/i);
  assert.match(cleared, /; Secure/i);
  assert.match(cleared, /; Path=\//);
  assert.equal(
    (await t.request("/api/admin/session", { headers: { Cookie: cookie } })).status,
    401,
  );
});

// ---------------------------------------------------------------------------------------------
// Order numbers and the public order view

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

function randomOrderNumber(): string {
  return "ST" + [...crypto.getRandomValues(new Uint8Array(18))].map((b) => CROCKFORD[b & 31])
    .join("");
}

Deno.test("order numbers are random: 90 bits spread over every position", () => {
  const numbers = Array.from({ length: 500 }, newOrderNumber);
  assert.equal(new Set(numbers).size, numbers.length);
  for (const n of numbers) assert.match(n, /^ST[0-9A-HJKMNP-TV-Z]{18}$/);
  for (let i = 2; i < 20; i++) {
    const symbols = new Set(numbers.map((n) => n[i]));
    assert.ok(symbols.size >= 28, `position ${i} uses ${symbols.size} of 32 symbols`);
  }
});

Deno.test("guessing order numbers: 404s, then 429 even for a real one, until the window ends", async () => {
  await using t = await createTestApp();
  const { orderNumber } = await paidOrder(t, JOHN);
  for (let i = 0; i < 20; i++) {
    const res = await t.request(`/api/orders/${randomOrderNumber()}`);
    assert.equal(res.status, 404);
    assert.deepEqual(res.json, { error: "Order not found" }, "a miss says nothing more");
  }
  for (let i = 20; i < ORDER_MISS_LIMIT.max; i++) {
    assert.equal((await t.request(`/api/orders/${randomOrderNumber()}`)).status, 404);
  }
  const limited = await t.request(`/api/orders/${randomOrderNumber()}`);
  assert.equal(limited.status, 429);
  assert.match(limited.json.error, /Too many order lookups/);
  const real = await t.request(`/api/orders/${orderNumber}`);
  assert.equal(real.status, 429, "a hit cannot be told from a miss while throttled");
  t.clock.advance(ORDER_MISS_LIMIT.windowMs);
  assert.equal((await t.request(`/api/orders/${orderNumber}`)).status, 200);
});

Deno.test("public order views never show the full email or street address", async () => {
  await using t = await createTestApp();
  const { orderNumber, sessionId } = await paidOrder(t, JOHN);
  const views = [
    await t.request(`/api/orders/${orderNumber}`),
    await t.request(`/api/demo/checkout-sessions/${sessionId}`),
    await t.request(`/api/orders/session/${sessionId}`),
  ];
  for (const view of views) {
    assert.equal(view.status, 200, view.text);
    for (const secret of [EMAIL, "johnsmith", ADDRESS.street, "Evergreen", ADDRESS.apartment]) {
      assert.ok(!view.text.includes(secret), `${secret} in ${view.text.slice(0, 200)}`);
    }
  }
  assert.equal(views[0].json.email, "joh***@example.com");
  assert.equal(views[0].json.address, "***");
  const admin = await t.request("/api/admin/orders", { headers: bearer(TEST_ADMIN_PASSWORD) });
  assert.equal(admin.json[0].shippingAddress.street, ADDRESS.street, "only the admin sees it");
});

// ---------------------------------------------------------------------------------------------
// The one allowed 5xx: an internal failure, answered without internals

Deno.test("an internal error answers 500 JSON with a request id and no internals", async () => {
  const t = await createTestApp();
  try {
    t.kv.close();
    const res = await t.request("/api/switches");
    assert.equal(res.status, 500);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    assert.deepEqual(Object.keys(res.json).sort(), ["error", "requestId"]);
    assert.equal(res.json.error, "Something went wrong on our side. Please try again.");
    assert.equal(res.json.requestId, res.headers.get("x-request-id"));
    assert.doesNotMatch(res.text, /\bat |\.ts:|Error:|Kv|closed|file:|\/work\//i);
    assertShopCsp("500 answer", res.headers);
    // The details go to the log instead, under the same request id.
    const logged = t.logs.find((l) => l.msg === "unhandled error");
    assert.equal(logged?.requestId, res.json.requestId);
    assert.match(String(logged?.error), /at /, "the stack is logged for the operator");
  } finally {
    try {
      t.kv.close();
    } catch { /* already closed */ }
  }
});

// ---------------------------------------------------------------------------------------------
// The Host a request names

/** Sends one raw HTTP/1.1 request naming `host` to a server on `port`; answers status and body. */
async function rawGet(port: number, path: string, host: string) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(
      new TextEncoder().encode(
        `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      ),
    );
    const answer = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
    const [head, body] = answer.split("\r\n\r\n");
    return { status: Number(head.split(" ")[1]), body };
  } catch (err) {
    conn.close();
    throw err;
  }
}

Deno.test("in development a Host naming another port is refused, so no link carries it", async () => {
  // The app as main.ts builds it once the server has bound port 8000.
  await using t = await createTestApp({ listenPort: 8000 });
  const { request } = t;
  const account = { email: "pat@example.com", password: "Sw1tchesRule" };
  const made = await request("http://localhost:8000/auth/register", {
    method: "POST",
    body: account,
  });
  assert.equal(made.status, 201, made.text);
  // A bare "localhost" means port 80, which this server does not listen on either.
  assert.equal((await request("/robots.txt")).status, 400);
  const forged = await request("http://127.0.0.1:9999/auth/password-reset", {
    method: "POST",
    body: { email: "pat@example.com" },
  });
  assert.equal(forged.status, 400, forged.text);
  assert.match(forged.json.error, /does not answer to the host "127\.0\.0\.1:9999"/);
  const robots = await request("http://localhost:9999/robots.txt");
  assert.equal(robots.status, 400);
  // The port it listens on is answered, and the email's link names it.
  const right = await request("http://127.0.0.1:8000/auth/password-reset", {
    method: "POST",
    body: { email: "pat@example.com" },
  });
  assert.equal(right.status, 200, right.text);
  await t.deliverEmails();
  const mail = t.mailer.sent.map((m) => m.text).join("\n");
  assert.match(mail, /http:\/\/127\.0\.0\.1:8000\/restore-password\?token=/);
  assert.doesNotMatch(mail, /9999/);
});

for (const env of [{}, PRODUCTION]) {
  Deno.test(`a malformed Host is a 400 JSON, never a 500 (${env === PRODUCTION ? "production" : "development"})`, async () => {
    await using t = await createTestApp({ env });
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, t.app.fetch);
    try {
      const port = server.addr.port;
      for (
        const host of [
          `127.0.0.1:${port} evil`,
          "a b",
          "[::1",
          "127.0.0.1:99999",
          `127.0.0.1:${port}/admin`,
          `evil@127.0.0.1:${port}`,
        ]
      ) {
        for (const path of ["/api/switches", "/", "/robots.txt"]) {
          const res = await rawGet(port, path, host);
          assert.equal(res.status, 400, `${host} ${path}: ${res.body.slice(0, 200)}`);
          assert.match(JSON.parse(res.body).error, /host/i, host);
        }
      }
      const fine = await rawGet(port, "/api/switches", `127.0.0.1:${port}`);
      assert.equal(fine.status, 200, fine.body);
    } finally {
      await server.shutdown();
    }
  });
}
