import assert from "node:assert/strict";
import { loadConfig } from "../../server/config.ts";
import { ConfigError } from "../../server/errors.ts";

Deno.test("defaults: port 8000, demo payments, a generated admin password", () => {
  const config = loadConfig({});
  assert.equal(config.port, 8000);
  assert.equal(config.payments.name, "demo");
  assert.equal(config.adminPasswordGenerated, true);
  assert.ok(config.adminPassword.length >= 12);
  assert.equal(config.reservationMinutes, 30);
});

Deno.test("a bad value stops start-up with one line naming the variable", () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: "abc" }, /^Invalid PORT="abc": must be a whole number from 0 to 65535$/],
    [{ PORT: "70000" }, /^Invalid PORT="70000"/],
    [{ PORT: "-1" }, /^Invalid PORT/],
    [{ PUBLIC_URL: "not a url" }, /^Invalid PUBLIC_URL/],
    [{ SHOP_EMAIL: "nobody" }, /^Invalid SHOP_EMAIL/],
    [{ ADMIN_PASSWORD: "short" }, /^Invalid ADMIN_PASSWORD=.*at least 8/],
    [{ DENO_ENV: "staging" }, /^Invalid DENO_ENV/],
    [{ DENO_ENV: "production" }, /ADMIN_PASSWORD: it is required/],
    [
      { DENO_ENV: "production", ADMIN_PASSWORD: "long-enough-password" },
      /^Missing PUBLIC_URL: it is required when DENO_ENV=production/,
    ],
    [{ CHECKOUTS_PER_CLIENT: "0" }, /^Invalid CHECKOUTS_PER_CLIENT="0"/],
    [{ NEW_CARTS_PER_CLIENT: "many" }, /^Invalid NEW_CARTS_PER_CLIENT="many"/],
    [{ STRIPE_SECRET_KEY: "sk_test_1" }, /Incomplete Stripe settings/],
    [
      { STRIPE_SECRET_KEY: " ", STRIPE_PUBLISHABLE_KEY: " ", STRIPE_WEBHOOK_SECRET: " " },
      /^Invalid STRIPE_SECRET_KEY=" ": must not be blank$/,
    ],
    [{ MAX_HOLDS_PER_CLIENT: "0" }, /^Invalid MAX_HOLDS_PER_CLIENT="0": .* from 1 to 500$/],
    [{ MAX_HOLDS_PER_CLIENT: "501" }, /^Invalid MAX_HOLDS_PER_CLIENT="501"/],
    [{ MAX_HOLDS_PER_CLIENT: "2.5" }, /^Invalid MAX_HOLDS_PER_CLIENT/],
    [
      { MAX_HELD_UNITS_PER_CLIENT: "0" },
      /^Invalid MAX_HELD_UNITS_PER_CLIENT="0": .* from 1 to 100000$/,
    ],
    [{ MAX_HELD_UNITS_PER_CLIENT: "lots" }, /^Invalid MAX_HELD_UNITS_PER_CLIENT="lots"/],
    [{ SHOP_DEV_RELOAD: "yes" }, /^Invalid SHOP_DEV_RELOAD/],
    [
      { TRUSTED_PROXIES: "127.0.0.1, 10.0.0.300" },
      /^Invalid TRUSTED_PROXIES="127\.0\.0\.1, 10\.0\.0\.300": "10\.0\.0\.300" is not an IP address or CIDR$/,
    ],
    [
      { TRUSTED_PROXIES: "10.0.0.0/33" },
      /^Invalid TRUSTED_PROXIES="10\.0\.0\.0\/33": "10\.0\.0\.0\/33"/,
    ],
  ];
  for (const [env, message] of cases) {
    assert.throws(() => loadConfig(env), (err: Error) => {
      assert.ok(err instanceof ConfigError);
      assert.doesNotMatch(err.message, /\n/);
      assert.match(err.message, message);
      return true;
    });
  }
});

Deno.test("empty variables count as unset, and all three Stripe keys switch to Stripe", () => {
  const config = loadConfig({
    PORT: "",
    STRIPE_SECRET_KEY: "sk_test_1",
    STRIPE_PUBLISHABLE_KEY: "pk_test_1",
    STRIPE_WEBHOOK_SECRET: "whsec_1",
    PUBLIC_URL: "https://shop.example/",
  });
  assert.equal(config.port, 8000);
  assert.equal(config.payments.name, "stripe");
  assert.equal((config.payments.settings as { secretKey: string }).secretKey, "sk_test_1");
  assert.equal(config.publicUrl, "https://shop.example");
});

Deno.test("Stripe keys are used without the spaces or newline an env file may add", () => {
  const config = loadConfig({
    STRIPE_SECRET_KEY: "sk_test_1\n",
    STRIPE_PUBLISHABLE_KEY: " pk_test_1",
    STRIPE_WEBHOOK_SECRET: "whsec_1 ",
  });
  assert.deepEqual(config.payments.settings, {
    secretKey: "sk_test_1",
    publishableKey: "pk_test_1",
    webhookSecret: "whsec_1",
  });
});

Deno.test("TRUSTED_PROXIES: none by default, else addresses and CIDRs split by commas or spaces", () => {
  assert.deepEqual(loadConfig({}).trustedProxies.entries, []);
  assert.deepEqual(loadConfig({ TRUSTED_PROXIES: "" }).trustedProxies.entries, []);
  const { trustedProxies } = loadConfig({ TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8 fd00::/8" });
  assert.deepEqual(trustedProxies.entries, ["127.0.0.1/32", "10.0.0.0/8", "fd00::/8"]);
  assert.ok(trustedProxies.contains("10.20.30.40"));
  assert.ok(trustedProxies.contains("::ffff:127.0.0.1"));
  assert.ok(!trustedProxies.contains("192.168.0.1"));
});

Deno.test("CLIENT_IPV6_PREFIX: 64 by default, a whole number from 32 to 128", () => {
  assert.equal(loadConfig({}).clientIpv6Prefix, 64);
  assert.equal(loadConfig({ CLIENT_IPV6_PREFIX: "56" }).clientIpv6Prefix, 56);
  assert.equal(loadConfig({ CLIENT_IPV6_PREFIX: "128" }).clientIpv6Prefix, 128);
  for (const bad of ["31", "129", "64.5", "sixty-four"]) {
    assert.throws(
      () => loadConfig({ CLIENT_IPV6_PREFIX: bad }),
      (err: Error) =>
        err.message.startsWith("Invalid CLIENT_IPV6_PREFIX") && /32 to 128/.test(err.message),
      bad,
    );
  }
});
