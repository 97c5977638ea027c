import { createApp } from "../../server/app.ts";
import { type Config, loadConfig } from "../../server/config.ts";
import type { Clock, LogEntry } from "../../server/deps.ts";
import { seedKv } from "../../server/db/seed.ts";
import type { StockRecord } from "../../server/db/stock.ts";
import { commitStockChange } from "../../server/db/stock_version.ts";
import { keys } from "../../server/db/keys.ts";
import type { StockKey } from "../../shared/bom.ts";
import { memoryMailer } from "../../server/email/mailer.ts";
import { deliverPending } from "../../server/email/outbox.ts";
import { demoPayments } from "../../server/payments/demo.ts";
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

/** The admin password every test app uses. */
export const TEST_ADMIN_PASSWORD = "test-admin-password-1";

/** Options of a test app. */
export interface TestAppOptions {
  env?: Record<string, string>;
  seed?: boolean;
  /** A payment provider other than the demo one (the Stripe tests). */
  payments?: (kv: Deno.Kv, clock: Clock) => PaymentProvider;
}

/** An app on an in-memory KV with a fixed clock and captured logs. */
export async function createTestApp(options: TestAppOptions = {}) {
  const kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  const logs: LogEntry[] = [];
  const config: Config = loadConfig({
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    DENO_ENV: "test",
    DIST_DIR: "/nonexistent-dist",
    ...options.env,
  });
  if (options.seed !== false) await seedKv(kv);
  const mailer = memoryMailer();
  const logger = (entry: LogEntry) => logs.push(entry);
  const payments = options.payments?.(kv, clock) ?? demoPayments(kv, clock);
  const app = createApp({ kv, config, clock, logger, mailer, payments });
  /** Delivers queued emails now, as the queue worker would. */
  const deliverEmails = () => deliverPending(kv, mailer, clock, logger);

  /** Sends a request to the app; `body` objects are sent as JSON. */
  async function request(
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    let body: BodyInit | undefined;
    if (typeof init.body === "string") body = init.body;
    else if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers["Content-Type"] ??= "application/json";
    }
    const res = await app.request(path, { method: init.method ?? "GET", headers, body });
    const text = await res.text();
    let json: unknown = undefined;
    try {
      json = JSON.parse(text);
    } catch { /* not JSON */ }
    // deno-lint-ignore no-explicit-any
    return { status: res.status, headers: res.headers, text, json: json as any };
  }

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
    [Symbol.asyncDispose]: () => Promise.resolve(kv.close()),
  };
}
