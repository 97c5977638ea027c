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
  assert.equal(config.holdExtensionMinutes, 10);
});

Deno.test("a bad value stops start-up with one line naming the variable", () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: "abc" }, /^Invalid PORT="abc": must be a whole number from 0 to 65535$/],
    [{ PORT: "70000" }, /^Invalid PORT="70000"/],
    [{ PORT: "-1" }, /^Invalid PORT/],
    [{ PUBLIC_URL: "not a url" }, /^Invalid PUBLIC_URL/],
    [{ SHOP_EMAIL: "nobody" }, /^Invalid SHOP_EMAIL/],
    [{ ADMIN_PASSWORD: "short" }, /^Invalid ADMIN_PASSWORD \(value not shown\): .*at least 8/],
    [{ DENO_ENV: "staging" }, /^Invalid DENO_ENV/],
    [
      { DENO_ENV: "production", ADMIN_PASSWORD: "long-enough-password", DEMO_PAYMENTS: "1" },
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
      { HOLD_EXTENSION_MINUTES: "0" },
      /^Invalid HOLD_EXTENSION_MINUTES="0": must be a whole number of minutes from 1 to 1440$/,
    ],
    [{ HOLD_EXTENSION_MINUTES: "1441" }, /^Invalid HOLD_EXTENSION_MINUTES="1441"/],
    [{ HOLD_EXTENSION_MINUTES: "ten" }, /^Invalid HOLD_EXTENSION_MINUTES="ten"/],
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

/** What a production start needs besides the payment settings. */
const PRODUCTION_BASE = {
  DENO_ENV: "production",
  ADMIN_PASSWORD: "a-long-admin-password",
  PUBLIC_URL: "https://shop.example",
};

const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: "sk_live_1",
  STRIPE_PUBLISHABLE_KEY: "pk_live_1",
  STRIPE_WEBHOOK_SECRET: "whsec_1",
};

/** The problems loadConfig refuses `env` for, one line each. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.message.split("\n");
  }
  assert.fail(`loadConfig accepted ${JSON.stringify(env)}`);
}

Deno.test("production refuses the demo payment provider unless DEMO_PAYMENTS=1 says so", () => {
  const problems = problemsOf(PRODUCTION_BASE);
  assert.equal(problems.length, 1, problems.join("\n"));
  assert.match(problems[0], /^Missing payment settings: /);
  assert.match(problems[0], /STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET/);
  assert.match(problems[0], /DEMO_PAYMENTS=1/);
  assert.deepEqual(problemsOf({ ...PRODUCTION_BASE, DEMO_PAYMENTS: "0" }), problems);

  const demo = loadConfig({ ...PRODUCTION_BASE, DEMO_PAYMENTS: "1" });
  assert.equal(demo.payments.name, "demo");
  assert.equal(demo.paymentsSimulated, true);
  const stripe = loadConfig({ ...PRODUCTION_BASE, ...STRIPE_KEYS });
  assert.equal(stripe.payments.name, "stripe");
  assert.equal(stripe.paymentsSimulated, false);
  // Keys win over the permission: DEMO_PAYMENTS allows the demo provider, it does not force it.
  const both = loadConfig({ ...PRODUCTION_BASE, ...STRIPE_KEYS, DEMO_PAYMENTS: "1" });
  assert.equal(both.payments.name, "stripe");

  // Outside production the demo provider stays the default, and says it simulates.
  assert.equal(loadConfig({}).payments.name, "demo");
  assert.equal(loadConfig({}).paymentsSimulated, true);
  assert.match(
    problemsOf({ DEMO_PAYMENTS: "yes" })[0],
    /^Invalid DEMO_PAYMENTS="yes": must be 0 or 1$/,
  );
});

Deno.test("production's PUBLIC_URL must be https, but for a trial on this machine", () => {
  for (const url of ["http://shop.example", "http://shop.example:8080/", "http://10.0.0.5"]) {
    const problems = problemsOf({ ...PRODUCTION_BASE, DEMO_PAYMENTS: "1", PUBLIC_URL: url });
    assert.equal(problems.length, 1, problems.join("\n"));
    assert.match(
      problems[0],
      /^Invalid PUBLIC_URL=".*": must be https:\/\/ when DENO_ENV=production/,
    );
  }
  for (const url of ["http://localhost:8000", "http://127.0.0.1:8000/", "http://[::1]:8000"]) {
    const config = loadConfig({ ...PRODUCTION_BASE, DEMO_PAYMENTS: "1", PUBLIC_URL: url });
    assert.equal(config.publicUrl, url.replace(/\/$/, ""));
  }
  const upper = loadConfig({
    ...PRODUCTION_BASE,
    DEMO_PAYMENTS: "1",
    PUBLIC_URL: "HTTPS://shop.example",
  });
  assert.equal(upper.production, true);
  assert.equal(loadConfig({ PUBLIC_URL: "http://shop.example" }).publicUrl, "http://shop.example");
});

Deno.test("HOST: a hostname, an IPv4 or a bracketless IPv6 address", () => {
  for (
    const host of ["localhost", "127.0.0.1", "0.0.0.0", "::", "::1", "fe80::1", "shop-1.internal"]
  ) {
    assert.equal(loadConfig({ HOST: host }).host, host);
  }
  for (
    const host of ["not_a_host", "[::1]", "shop example", "-shop", "shop-", "a..b", "300.1.2.3"]
  ) {
    const problems = problemsOf({ HOST: host });
    assert.equal(problems.length, 1, problems.join("\n"));
    assert.equal(
      problems[0],
      `Invalid HOST=${JSON.stringify(host)}: must be a hostname, an IPv4 address or an IPv6 ` +
        "address without brackets",
    );
  }
});

Deno.test("KV_PATH: :memory:, a file path, or the URL of a KV Connect server the shop serves from", () => {
  for (
    const path of [
      ":memory:",
      "./data/shop.kv",
      "/var/lib/shop/shop.kv",
      "shop.kv",
      "C:\\shop\\shop.kv",
      // The shop's work owed later is stored jobs, so a remote store needs no queue of its own.
      "http://localhost:4512",
      "https://api.deno.com/databases/0f1e/connect",
    ]
  ) {
    assert.equal(loadConfig({ KV_PATH: path }).kvPath, path);
  }
  for (
    const path of ["ftp://example", "file:///tmp/shop.kv", "redis://cache:6379", "https://", "   "]
  ) {
    const problems = problemsOf({ KV_PATH: path });
    assert.equal(problems.length, 1, problems.join("\n"));
    assert.match(
      problems[0],
      /^Invalid KV_PATH=".*": must be :memory:, a file path, or an http\(s\):\/\/ URL of a KV Connect server$/,
    );
  }
});

Deno.test("every bad or missing variable is listed at once, one line each", () => {
  const bad = problemsOf({ PORT: "abc", HOST: "not_a_host", KV_PATH: "ftp://example" });
  assert.deepEqual(bad.map((line) => line.match(/^Invalid (\w+)=/)?.[1]), [
    "PORT",
    "HOST",
    "KV_PATH",
  ]);
  const missing = problemsOf({ DENO_ENV: "production" });
  assert.equal(missing.length, 3, missing.join("\n"));
  assert.match(missing[0], /^Missing ADMIN_PASSWORD: it is required when DENO_ENV=production/);
  assert.match(missing[1], /^Missing PUBLIC_URL: it is required when DENO_ENV=production/);
  assert.match(missing[2], /^Missing payment settings: /);
  const mixed = problemsOf({
    DENO_ENV: "production",
    PORT: "-1",
    PUBLIC_URL: "http://shop.example",
  });
  assert.deepEqual(mixed.map((line) => line.split(/[=:]/)[0]), [
    "Invalid PORT",
    "Missing ADMIN_PASSWORD",
    "Invalid PUBLIC_URL",
    "Missing payment settings",
  ]);
});

Deno.test("no message repeats a secret's value", () => {
  const secrets: [Record<string, string>, string][] = [
    [{ ADMIN_PASSWORD: "hunter2" }, "hunter2"],
    [{ SMTP_URL: "http://shop:s3cret-pass@mail.example" }, "s3cret-pass"],
    [{ SMTP_URL: "smtp://shop:s3cret pass@mail example" }, "s3cret"],
    [{ STRIPE_SECRET_KEY: "sk_live_secret9" }, "sk_live_secret9"],
    [{ STRIPE_WEBHOOK_SECRET: "whsec_secret9", STRIPE_SECRET_KEY: "sk_live_9" }, "secret9"],
    [{ ...PRODUCTION_BASE, ADMIN_PASSWORD: "short!" }, "short!"],
  ];
  for (const [env, secret] of secrets) {
    const problems = problemsOf(env);
    for (const line of problems) assert.ok(!line.includes(secret), line);
    assert.match(problems[0], /^(Invalid|Incomplete) \w+/);
  }
  assert.equal(
    problemsOf({ ADMIN_PASSWORD: "hunter2" })[0],
    "Invalid ADMIN_PASSWORD (value not shown): must be at least 8 characters",
  );
});

Deno.test("a KV Connect URL is known in any case, so none is opened as a file; a URL without // is refused", () => {
  // Taken as the remote store it names, not for a file `./HTTPS:/...`.
  assert.equal(
    loadConfig({ KV_PATH: "HTTPS://KV.Example.com/db" }).kvPath,
    "HTTPS://KV.Example.com/db",
  );
  assert.throws(() => loadConfig({ KV_PATH: "https:kv.example" }), /KV_PATH/);
});

Deno.test("on Deno Deploy the shop starts: its managed KV is opened without KV_PATH", () => {
  const env = { ...PRODUCTION_BASE, ...STRIPE_KEYS, DENO_DEPLOYMENT_ID: "abc123" };
  assert.equal(loadConfig(env).kvPath, undefined);
});
