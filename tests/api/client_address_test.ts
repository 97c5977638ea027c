/**
 * TRUSTED_PROXIES: behind our own reverse proxy each shopper is limited
 * on their own address, taken from X-Forwarded-For; from anywhere else forwarded headers change
 * nothing. Shown with the admin password limit (5 wrong a minute per client, then 429).
 */
import assert from "node:assert/strict";
import { createTestApp, TEST_ADMIN_PASSWORD, type TestApp } from "../helpers/test_app.ts";
import { serveOnLoopback } from "../helpers/loopback.ts";

const PROXY = "10.0.0.5";
const SHOPPER_A = "203.0.113.10";
const SHOPPER_B = "198.51.100.20";

/** Tries an admin password from connection `client`, with X-Forwarded-For `forwarded` if given. */
async function tryPassword(
  t: TestApp,
  client: string,
  forwarded?: string,
  password = "wrong-password",
): Promise<number> {
  const headers: Record<string, string> = forwarded === undefined
    ? {}
    : { "X-Forwarded-For": forwarded };
  const res = await t.request("/api/admin/verify", {
    method: "POST",
    body: { password },
    client,
    headers,
  });
  return res.status;
}

/** Five wrong passwords, each answered 401: the client's whole allowance for the minute. */
async function useUpAttempts(t: TestApp, client: string, forwarded?: string | string[]) {
  for (let i = 0; i < 5; i++) {
    const xff = Array.isArray(forwarded) ? forwarded[i % forwarded.length] : forwarded;
    assert.equal(await tryPassword(t, client, xff), 401, `attempt ${i + 1}`);
  }
}

function trustedApp() {
  return createTestApp({ env: { TRUSTED_PROXIES: "10.0.0.0/8" } });
}

Deno.test("behind a trusted proxy, one shopper's wrong passwords do not lock out another", async () => {
  await using t = await trustedApp();
  await useUpAttempts(t, PROXY, SHOPPER_A);
  assert.equal(await tryPassword(t, PROXY, SHOPPER_A), 429);

  assert.equal(await tryPassword(t, PROXY, SHOPPER_B), 401);
  assert.equal(await tryPassword(t, PROXY, SHOPPER_B, TEST_ADMIN_PASSWORD), 200);
  // Shopper A is still refused: the limit was theirs, not the proxy's.
  assert.equal(await tryPassword(t, PROXY, SHOPPER_A), 429);
});

Deno.test("from an untrusted connection a spoofed X-Forwarded-For changes nothing", async () => {
  await using t = await trustedApp();
  const attacker = "192.0.2.50";
  await useUpAttempts(t, attacker, ["1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4", "5.5.5.5"]);
  assert.equal(await tryPassword(t, attacker, "6.6.6.6"), 429);
  assert.equal(await tryPassword(t, attacker, `${SHOPPER_B}, ${PROXY}`), 429);
  assert.equal(await tryPassword(t, attacker), 429);
  // Naming another shopper does not hurt them either.
  assert.equal(await tryPassword(t, PROXY, SHOPPER_B), 401);
});

Deno.test("without TRUSTED_PROXIES even the proxy's X-Forwarded-For is ignored", async () => {
  await using t = await createTestApp();
  await useUpAttempts(t, PROXY, SHOPPER_A);
  assert.equal(await tryPassword(t, PROXY, SHOPPER_B), 429);
});

Deno.test("a chain of trusted proxies: the right-most untrusted address is the client", async () => {
  await using t = await trustedApp();
  // The shopper reached an inner proxy (10.1.2.3) through the outer one; entries left of the
  // shopper are whatever the shopper sent and must not matter.
  await useUpAttempts(t, PROXY, [
    `${SHOPPER_A}, 10.1.2.3`,
    `1.1.1.1, ${SHOPPER_A}, 10.1.2.3`,
    `garbage, ${SHOPPER_A},10.1.2.3`,
  ]);
  // The same shopper through another of our proxies is the same client.
  const other = await t.request("/api/admin/verify", {
    method: "POST",
    body: { password: "wrong-password" },
    client: "10.9.9.9",
    headers: { "X-Forwarded-For": SHOPPER_A },
  });
  assert.equal(other.status, 429);
  // Neither proxy was limited: another shopper through the same chain is fine.
  assert.equal(await tryPassword(t, PROXY, `${SHOPPER_B}, 10.1.2.3`), 401);
  assert.equal(await tryPassword(t, "10.1.2.3", SHOPPER_B, TEST_ADMIN_PASSWORD), 200);
});

Deno.test("an invalid right-most entry, no header or only trusted hops count as the proxy itself", async () => {
  await using t = await trustedApp();
  const proxy = "10.0.0.7";
  // A real address left of the invalid entry must not be used: our proxy wrote the invalid one.
  await useUpAttempts(t, proxy, [`${SHOPPER_A}, not-an-ip`, "", `${SHOPPER_A}, 10.0.0.8, `]);
  assert.equal(await tryPassword(t, proxy), 429, "no header");
  assert.equal(await tryPassword(t, proxy, "10.0.0.8, 10.0.0.9"), 429, "only trusted hops");
  assert.equal(await tryPassword(t, proxy, "203.0.113.10:4711"), 429, "an address with a port");
  // The shopper named in those headers was never counted.
  assert.equal(await tryPassword(t, PROXY, SHOPPER_A), 401);
});

Deno.test("IPv4-mapped IPv6 spellings are one client", async () => {
  await using t = await trustedApp();
  await useUpAttempts(t, "::ffff:192.0.2.60");
  assert.equal(await tryPassword(t, "192.0.2.60"), 429);

  // A proxy seen on a dual-stack socket is still trusted, and its shopper's spelling is one key.
  await useUpAttempts(t, "::ffff:10.0.0.5", `::ffff:${SHOPPER_A}`);
  assert.equal(await tryPassword(t, PROXY, SHOPPER_A), 429);
  assert.equal(await tryPassword(t, PROXY, SHOPPER_B), 401);
});

/** An admin password tried through a trusted proxy on loopback, for the client `forwarded`. */
function throughProxy(
  shop: ReturnType<typeof serveOnLoopback>,
  forwarded: string,
  password: string,
) {
  return shop.request("/api/admin/verify", {
    from: LOOPBACK_PROXY,
    body: { password },
    headers: { "X-Forwarded-For": forwarded },
  });
}

const LOOPBACK_PROXY = "127.0.0.2";

Deno.test("IPv6 clients are networks: two addresses in one /64 share one budget, other /64s do not", async () => {
  await using t = await createTestApp({ env: { TRUSTED_PROXIES: LOOPBACK_PROXY } });
  await using shop = serveOnLoopback(t.app);
  // Five wrong passwords, each from another address of one /64 (as a host picks new ones).
  for (let i = 1; i <= 5; i++) {
    const res = await throughProxy(shop, `2001:db8:1:2::${i.toString(16)}`, `wrong-${i}`);
    assert.equal(res.status, 401, `address ${i}`);
  }
  const sameNetwork = await throughProxy(shop, "2001:db8:1:2:abcd::1", TEST_ADMIN_PASSWORD);
  assert.equal(sameNetwork.status, 429, "a sixth address of the same /64 is the same client");
  assert.match(sameNetwork.json.error, /Too many wrong passwords/);
  // The next /64 of the same site is another client, and signs in.
  const nextNetwork = await throughProxy(shop, "2001:db8:1:3::1", TEST_ADMIN_PASSWORD);
  assert.equal(nextNetwork.status, 200);
});

Deno.test("CLIENT_IPV6_PREFIX=128 makes each IPv6 address its own client", async () => {
  await using t = await createTestApp({
    env: { TRUSTED_PROXIES: LOOPBACK_PROXY, CLIENT_IPV6_PREFIX: "128" },
  });
  await using shop = serveOnLoopback(t.app);
  for (let i = 1; i <= 5; i++) {
    assert.equal((await throughProxy(shop, "2001:db8:1:2::1", `wrong-${i}`)).status, 401);
  }
  assert.equal((await throughProxy(shop, "2001:db8:1:2::1", TEST_ADMIN_PASSWORD)).status, 429);
  assert.equal((await throughProxy(shop, "2001:db8:1:2::2", TEST_ADMIN_PASSWORD)).status, 200);
});
