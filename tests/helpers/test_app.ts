import assert from "node:assert/strict";
import type { Hono } from "hono";
import { createApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { type Config, type QueueStatus } from "../../server/deps.ts";
import type { ShutdownGate } from "../../server/http/shutdown_gate.ts";
import type { LogEntry } from "../../server/log.ts";
import type { Clock } from "../../server/clock.ts";
import { seedKv } from "../../server/ops/seed.ts";
import type { StockRecord } from "../../server/stock/record.ts";
import { commitStockChange } from "../../server/kv/version.ts";
import { keys } from "../../server/kv/keys.ts";
import type { StockKey } from "../../shared/bom.ts";
import { memoryMailer } from "../../server/email/mailer.ts";
import { deliverPending } from "../../server/email/outbox.ts";
import { sendLowStockAlerts } from "../../server/stock/low_stock.ts";
import { sendStockAlerts } from "../../server/stock/back_in_stock/alerts.ts";
import { demoPayments } from "../../server/payments/demo/provider.ts";
import type { PaymentProvider } from "../../server/payments/provider.ts";

/** A clock that stands still until a test moves it. */
export interface TestClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

/** 2026-11-21T12:00:00Z, a fixed start so tests do not depend on the day they run. */
export const TEST_EPOCH = Date.UTC(2026, 10, 21, 12, 0, 0);

/** A clock fixed at `start`. */
export function fixedClock(start = TEST_EPOCH): TestClock {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    set: (ms) => {
      now = ms;
    },
  };
}

/**
 * What production requires besides the admin password: the shop's own address, and (since test
 * apps pay through the demo provider) the explicit permission to simulate payments.
 */
export const PRODUCTION = {
  DENO_ENV: "production",
  PUBLIC_URL: "https://shop.example",
  DEMO_PAYMENTS: "1",
} as const;

/** The admin password every test app uses. */
export const TEST_ADMIN_PASSWORD = "test-admin-password-1";

/** Options of a test app. */
export interface TestAppOptions {
  env?: Record<string, string>;
  seed?: boolean;
  /** A payment provider other than the demo one (the Stripe tests). */
  payments?: (kv: Deno.Kv, clock: Clock) => PaymentProvider;
  /** Called after each named step of the order workflows (the crash tests throw here). */
  onStep?: (step: string) => void | Promise<void>;
  /**
   * A store to run on instead of a new in-memory one (a restart on the same KV file); the
   * caller closes it.
   */
  kv?: Deno.Kv;
  /** A job runner's status, for /api/ready (test apps run none, so are not ready). */
  queue?: QueueStatus;
  /** The stop's gate, for tests of what requests meet while the shop stops. */
  shutdown?: ShutdownGate;
  /**
   * Hash new passwords at the shop's own cost (600,000 PBKDF2 iterations, what production uses)
   * instead of FEW_ITERATIONS. Only tests of the cost itself need it: each such hash keeps a core
   * busy for 0.08 s, and the suite's other tests signed in about 150 times at it.
   */
  realHashCost?: boolean;
  /** The port main.ts tells the app it bound (for the Host checks of development). */
  listenPort?: number;
}

/**
 * The password hash's cost in test apps: tests are about what happens around the hash (answers,
 * sessions, limits, storms, bad input), not about the hash, so every sign-in still hashes, through
 * the same gate and code, only cheaper. The shop's own cost is asserted where it is the subject.
 */
export const FEW_ITERATIONS = 1_000;

/**
 * The demo provider whose refunds fail as an unreachable provider's do while `down()` says so;
 * `made` hears each refund it then makes.
 */
export function refundsDownWhile(
  down: () => boolean,
  made?: (paymentId: string) => void,
): TestAppOptions["payments"] {
  return (kv) => {
    const demo = demoPayments(kv);
    return {
      ...demo,
      refund(ref, amount, key, orderNumber) {
        if (down()) return Promise.reject(new Error("provider down"));
        made?.(ref.id);
        return demo.refund(ref, amount, key, orderNumber);
      },
    };
  };
}

/** A request a test sends to an app. */
export interface TestRequest {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The caller's address, as a real connection has one; limits count per address. */
  client?: string;
}

/**
 * Sends a request to `app` (`body` objects as JSON, strings and bytes as they are) and answers its status, headers, text and
 * parsed JSON. `around` runs the call, for harnesses that give it a context of its own.
 */
export async function sendTo(
  app: Hono,
  path: string,
  init: TestRequest = {},
  around: <T>(call: () => Promise<T>) => Promise<T> = (call) => call(),
) {
  const headers: Record<string, string> = { ...init.headers };
  let body: BodyInit | undefined;
  if (typeof init.body === "string" || init.body instanceof Uint8Array) {
    body = init.body as BodyInit;
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["Content-Type"] ??= "application/json";
  }
  const env = init.client
    ? { remoteAddr: { hostname: init.client, port: 40000, transport: "tcp" } }
    : undefined;
  const res = await around(async () =>
    await app.request(path, { method: init.method ?? "GET", headers, body }, env)
  );
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch { /* not JSON */ }
  // deno-lint-ignore no-explicit-any
  return { status: res.status, headers: res.headers, text, json: json as any };
}

/** An app on an in-memory KV with a fixed clock and captured logs. */
export async function createTestApp(options: TestAppOptions = {}) {
  const kv = options.kv ?? await Deno.openKv(":memory:");
  const clock = fixedClock();
  const logs: LogEntry[] = [];
  const config: Config = loadConfig({
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    DENO_ENV: "test",
    DIST_DIR: "/nonexistent-dist",
    ...options.env,
  });
  if (options.seed !== false) await seedKv(kv, clock);
  const mailer = memoryMailer();
  const logger = (entry: LogEntry) => logs.push(entry);
  const payments = options.payments?.(kv, clock) ?? demoPayments(kv);
  const app = createApp({
    kv,
    config,
    clock,
    logger,
    mailer,
    payments,
    onStep: options.onStep,
    queue: options.queue,
    shutdown: options.shutdown,
    passwordIterations: options.realHashCost ? undefined : FEW_ITERATIONS,
    listenPort: options.listenPort,
  });
  /** Delivers queued emails now (stock alerts first), as the queue worker would. */
  const deliverEmails = async () => {
    await sendLowStockAlerts({ kv, clock, config });
    await sendStockAlerts({ kv, clock, config });
    return await deliverPending({ kv, mailer, clock, logger, config });
  };

  /** Sends a request to the app; `body` objects are sent as JSON. */
  const request = (path: string, init: TestRequest = {}) => sendTo(app, path, init);

  /** Sets one stock record directly, as the shop's own stock writers do (with the version). */
  async function writeStock(key: StockKey, record: StockRecord): Promise<void> {
    const op = kv.atomic().set(keys.stock(key), record);
    if (!await commitStockChange(kv, op, clock.now())) throw new Error("stock write failed");
  }

  return {
    app,
    kv,
    clock,
    config,
    logs,
    logger,
    mailer,
    payments,
    deliverEmails,
    request,
    writeStock,
    [Symbol.asyncDispose]: () => Promise.resolve(options.kv ? undefined : kv.close()),
  };
}

/** The app `createTestApp` makes, with its KV, clock, logs, mailer and request helper. */
export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** An Authorization header carrying `token` as a bearer credential. */
export function bearer(token: string): { Authorization: string } {
  return { Authorization: `Bearer ${token}` };
}

/**
 * Posts an admin password (the right one unless given) to the login route. The answer is not
 * checked, since a refusal may be what the test is about; `cookie` is "name=token" to send back.
 */
export async function adminLogin(t: TestApp, password = TEST_ADMIN_PASSWORD) {
  const res = await t.request("/api/admin/verify", { method: "POST", body: { password } });
  const setCookie = res.headers.get("set-cookie") ?? "";
  return { res, setCookie, cookie: setCookie.split(";")[0] };
}

/** Signs in as the admin and answers the session cookie to send back; the login must succeed. */
export async function adminCookie(t: TestApp): Promise<string> {
  const { res, cookie } = await adminLogin(t);
  assert.equal(res.status, 200, res.text);
  return cookie;
}

/**
 * Sets one component's sellable stock through the shop's stock writer (so the stock version moves,
 * as after a sale or an admin edit); its `used` count stays as it is.
 */
export async function setStock(t: TestApp, key: StockKey, stock: number): Promise<void> {
  const current = (await t.kv.get<StockRecord>(keys.stock(key))).value;
  await t.writeStock(key, { used: 0, reserved: 0, ...current, stock });
}

/** Forgets every rate limit counter, so a test's many requests do not trip limits meant for people. */
export async function forgetRateLimits(kv: Deno.Kv): Promise<void> {
  for await (const e of kv.list({ prefix: ["rate_limits"] })) await kv.delete(e.key);
}

/**
 * Every KV entry as key JSON to value JSON, to prove a request wrote nothing. Entries whose key
 * starts with one of `skip` (say "rate_limits", which refused requests legitimately count) are
 * left out.
 */
export async function snapshot(
  kv: Deno.Kv,
  skip: readonly string[] = [],
): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  for await (const e of kv.list({ prefix: [] })) {
    if (skip.includes(String(e.key[0]))) continue;
    entries.set(JSON.stringify(e.key, kvJson), JSON.stringify(e.value, kvJson));
  }
  return entries;
}

/** JSON for what KV can hold beyond plain JSON. */
function kvJson(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return `${value}n`;
  if (value instanceof Uint8Array) return { bytes: [...value] };
  if (value instanceof Deno.KvU64) return `${value.value}u64`;
  return value;
}

/** The keys (as JSON) whose entry differs between two snapshots: added, removed or changed. */
export function changedKeys(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])]
    .filter((k) => before.get(k) !== after.get(k));
}

let dist: Promise<string> | null = null;

/**
 * A stand-in for the built client (index.html and one hashed asset, main-TEST.js) for apps whose
 * tests reach the static files. Made once per test file and removed when the file's tests end.
 */
export function fakeDist(): Promise<string> {
  dist ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "fake-dist-" });
    globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
    await Deno.mkdir(`${dir}/assets`);
    await Deno.writeTextFile(
      `${dir}/index.html`,
      '<title>%TITLE%</title><div id="root"></div><script src="/assets/main-TEST.js"></script>',
    );
    await Deno.writeTextFile(`${dir}/assets/main-TEST.js`, "console.log(1);");
    return dir;
  })();
  return dist;
}
