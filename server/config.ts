import { z } from "zod";
import { isRemoteKvPath } from "./kv/open.ts";
import { randomId } from "./crypto.ts";
import { parseIpRanges } from "./net/ip_ranges.ts";
import { ConfigError } from "./errors.ts";
import { choosePayments, paymentsSimulated, realPaymentKeys } from "./payments/registry.ts";
import type { Config } from "./deps.ts";

const optionalText = z.string().trim().min(1).optional();
const optionalUrl = z.url({ protocol: /^https?$/ }).optional();

const PORT_MESSAGE = "must be a whole number from 0 to 65535";
const HOLDS_MESSAGE = "must be a whole number from 1 to 500";
const EXTENSION_MESSAGE = "must be a whole number of minutes from 1 to 1440";
const COUNT_MESSAGE = "must be a whole number from 1 to 100000";
const PREFIX_MESSAGE = "must be a whole number from 32 to 128";
const MEGABYTES_MESSAGE = "must be a whole number of megabytes from 1 to 4096";
const HOST_MESSAGE = "must be a hostname, an IPv4 address or an IPv6 address without brackets";
const KV_PATH_MESSAGE =
  "must be :memory:, a file path, or an http(s):// URL of a KV Connect server";

/** Variables whose values a message must never show (a start-up line ends up in logs). */
const SECRETS = new Set([
  "ADMIN_PASSWORD",
  "SMTP_URL",
  "STRIPE_SECRET_KEY",
  "STRIPE_PUBLISHABLE_KEY",
  "STRIPE_WEBHOOK_SECRET",
]);

/** Dot-separated labels of letters, digits and inner hyphens, the last not all digits (RFC 1123). */
const HOSTNAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*(?!\d+$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * What Deno.serve can bind: checked here, since a bad one otherwise fails at listen time with a
 * stack trace. IPv6 goes without brackets, as `hostname` takes it.
 */
function isHost(text: string): boolean {
  return HOSTNAME.test(text) || z.ipv4().safeParse(text).success ||
    z.ipv6().safeParse(text).success;
}

/**
 * What Deno.openKv opens: ":memory:", an http(s) URL (KV Connect) or else a file path. Anything
 * else that starts like a URL is refused: Deno would take `ftp://example` for a file path and
 * quietly seed an empty shop in `./ftp:/example`.
 */
function isKvPath(text: string): boolean {
  if (text === ":memory:") return true;
  // A URL needs its "//": `https:kv.example` would parse, and then be opened as a file.
  if (/^https?:/i.test(text)) {
    return isRemoteKvPath(text) && URL.canParse(text) && new URL(text).host !== "";
  }
  // A Windows drive letter (C:\shop.kv) is a path, not a scheme.
  return /^[a-z]:[\\/]/i.test(text) || !/^[a-z][a-z0-9+.-]*:/i.test(text);
}

/** Whether a URL names this machine only: http there is a trial run, not a shop on the web. */
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A whole number from 1 to 100,000 with its one-line error, or `fallback` when unset. */
function count(fallback: number) {
  return z.coerce.number({ error: COUNT_MESSAGE }).int(COUNT_MESSAGE).min(1, COUNT_MESSAGE)
    .max(100_000, COUNT_MESSAGE).default(fallback);
}

const envSchema = z.object({
  PORT: z.coerce.number({ error: PORT_MESSAGE }).int(PORT_MESSAGE).min(0, PORT_MESSAGE)
    .max(65535, PORT_MESSAGE).default(8000),
  HOST: z.string().trim().refine(isHost, HOST_MESSAGE).default("127.0.0.1"),
  // A KV Connect URL (any case of its scheme) is a store like a file: the shop's work owed later is
  // stored jobs, not Deno KV's queue, which KV Connect and Deno Deploy do not offer.
  KV_PATH: z.string().trim().min(1, KV_PATH_MESSAGE).refine(isKvPath, KV_PATH_MESSAGE).optional(),
  DENO_ENV: z.enum(["development", "production", "test"]).optional(),
  ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  PUBLIC_URL: optionalUrl,
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.email().optional(),
  SHOP_EMAIL: z.email().optional(),
  IMAGE_BASE_URL: optionalUrl,
  RESERVATION_MINUTES: z.coerce.number().positive().max(24 * 60).default(30),
  // What one "keep my items longer" adds to a hold (WCAG 2.2.1: a time limit the user can
  // extend); at most a day, like the hold itself.
  HOLD_EXTENSION_MINUTES: z.coerce.number({ error: EXTENSION_MESSAGE }).int(EXTENSION_MESSAGE)
    .min(1, EXTENSION_MESSAGE).max(24 * 60, EXTENSION_MESSAGE).default(10),
  // A client's holds are one KV value (at most 64 KiB): 500 keeps far inside it.
  MAX_HOLDS_PER_CLIENT: z.coerce.number({ error: HOLDS_MESSAGE }).int(HOLDS_MESSAGE)
    .min(1, HOLDS_MESSAGE).max(500, HOLDS_MESSAGE).default(3),
  // Far above any real shopper's order (a cart line holds at most 10): only a hoarder meets it.
  MAX_HELD_UNITS_PER_CLIENT: count(60),
  CHECKOUTS_PER_CLIENT: count(20),
  NEW_CARTS_PER_CLIENT: count(60),
  // Joining a drop's waiting room: a household's shoppers and a reload or two, not a script's
  // thousand tickets (each ticket is a place in line).
  DROP_JOINS_PER_CLIENT: count(10),
  // Places one block of networks (an IPv4 /24, an IPv6 /48) may take per 10 minutes: about a
  // full /24 at the per-client limit, so only a host handed 65,536 /64s meets it.
  DROP_JOINS_PER_BLOCK: count(2_500),
  // Shorter than /32 would join unrelated customers of one provider into one client.
  CLIENT_IPV6_PREFIX: z.coerce.number({ error: PREFIX_MESSAGE }).int(PREFIX_MESSAGE)
    .min(32, PREFIX_MESSAGE).max(128, PREFIX_MESSAGE).default(64),
  // What rendering pages and link previews may cost (server/ssr/page_server.ts,
  // server/routes/images.ts): new renders per client and shop-wide per minute, kept bytes.
  PAGE_RENDERS_PER_MINUTE: count(60),
  SHOP_PAGE_RENDERS_PER_MINUTE: count(300),
  PREVIEW_RENDERS_PER_MINUTE: count(10),
  SHOP_PREVIEW_RENDERS_PER_MINUTE: count(60),
  PAGE_CACHE_MB: z.coerce.number({ error: MEGABYTES_MESSAGE }).int(MEGABYTES_MESSAGE)
    .min(1, MEGABYTES_MESSAGE).max(4096, MEGABYTES_MESSAGE).default(32),
  DIST_DIR: optionalText,
  LOG_REQUESTS: z.enum(["0", "1"], { error: "must be 0 or 1" }).default("1"),
  SHOP_DEV_RELOAD: z.enum(["0", "1"], { error: "must be 0 or 1" }).default("0"),
  // Production takes the demo provider (no real money) only when told to on purpose.
  DEMO_PAYMENTS: z.enum(["0", "1"], { error: "must be 0 or 1" }).default("0"),
  TRUSTED_PROXIES: z.string().default("").transform((text, ctx) => {
    try {
      return parseIpRanges(text);
    } catch (err) {
      ctx.addIssue({ code: "custom", message: (err as Error).message });
      return z.NEVER;
    }
  }),
});

/**
 * Validates the environment. Throws ConfigError listing every bad or missing variable, one line
 * each, so start-up fails once with all of them instead of a stack trace or one per attempt.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  // Empty strings mean "unset": shells and .env files often leave variables defined but blank.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => key in envSchema.shape && value !== ""),
  );
  const parsed = envSchema.safeParse(cleaned);
  const problems = new Map<string, string>();
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]);
      // One line per variable: its first problem.
      if (problems.has(name)) continue;
      const shown = SECRETS.has(name) ? " (value not shown)" : `=${JSON.stringify(env[name])}`;
      problems.set(name, `Invalid ${name}${shown}: ${issue.message}`);
    }
  }
  const e = parsed.data;
  const production = env.DENO_ENV === "production";
  if (production && !cleaned.ADMIN_PASSWORD) {
    problems.set(
      "ADMIN_PASSWORD",
      "Missing ADMIN_PASSWORD: it is required when DENO_ENV=production",
    );
  }
  if (production && !cleaned.PUBLIC_URL) {
    problems.set(
      "PUBLIC_URL",
      "Missing PUBLIC_URL: it is required when DENO_ENV=production (the shop's own address, e.g. https://shop.example, for links in emails and payment return URLs)",
    );
  } else if (production && !problems.has("PUBLIC_URL")) {
    // Secure cookies, HSTS and payment return URLs need https; browsers treat localhost as
    // secure, so a production trial on this machine may stay on http.
    const url = cleaned.PUBLIC_URL!;
    if (new URL(url).protocol !== "https:" && !isLoopback(url)) {
      problems.set(
        "PUBLIC_URL",
        `Invalid PUBLIC_URL=${
          JSON.stringify(env.PUBLIC_URL)
        }: must be https:// when DENO_ENV=production (http only for localhost or 127.0.0.1)`,
      );
    }
  }
  // Each provider reads its own settings (server/payments/), blank ones counting as unset.
  let payments;
  try {
    payments = choosePayments(
      Object.fromEntries(Object.entries(env).filter(([, value]) => value !== "")),
    );
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.set("payments", err.message);
  }
  if (production && payments && paymentsSimulated(payments) && env.DEMO_PAYMENTS !== "1") {
    problems.set(
      "payments",
      `Missing payment settings: set ${
        realPaymentKeys().join(", or ")
      } to take real payments, or DEMO_PAYMENTS=1 for a demo shop whose payments are simulated`,
    );
  }
  if (problems.size > 0 || !e || !payments) {
    throw new ConfigError([...problems.values()].join("\n"));
  }
  return {
    port: e.PORT,
    host: e.HOST,
    kvPath: e.KV_PATH,
    production,
    adminPassword: e.ADMIN_PASSWORD ?? generatePassword(),
    adminPasswordGenerated: !e.ADMIN_PASSWORD,
    payments,
    paymentsSimulated: paymentsSimulated(payments),
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ""),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? "shop@localhost",
    shopEmail: e.SHOP_EMAIL ?? "owner@localhost",
    imageBaseUrl: e.IMAGE_BASE_URL?.replace(/\/+$/, ""),
    reservationMinutes: e.RESERVATION_MINUTES,
    holdExtensionMinutes: e.HOLD_EXTENSION_MINUTES,
    maxHoldsPerClient: e.MAX_HOLDS_PER_CLIENT,
    maxHeldUnitsPerClient: e.MAX_HELD_UNITS_PER_CLIENT,
    checkoutsPerClient: e.CHECKOUTS_PER_CLIENT,
    newCartsPerClient: e.NEW_CARTS_PER_CLIENT,
    dropJoinsPerClient: e.DROP_JOINS_PER_CLIENT,
    dropJoinsPerBlock: e.DROP_JOINS_PER_BLOCK,
    renders: {
      pagesPerClient: e.PAGE_RENDERS_PER_MINUTE,
      pagesPerShop: e.SHOP_PAGE_RENDERS_PER_MINUTE,
      previewsPerClient: e.PREVIEW_RENDERS_PER_MINUTE,
      previewsPerShop: e.SHOP_PREVIEW_RENDERS_PER_MINUTE,
      pageCacheBytes: e.PAGE_CACHE_MB * 1024 * 1024,
    },
    distDir: e.DIST_DIR ?? new URL("../dist", import.meta.url).pathname,
    logRequests: e.LOG_REQUESTS === "1",
    devReload: !production && e.SHOP_DEV_RELOAD === "1",
    trustedProxies: e.TRUSTED_PROXIES,
    clientIpv6Prefix: e.CLIENT_IPV6_PREFIX,
  };
}

/** 96 random bits, base64url: 16 characters to copy from the start-up line. */
function generatePassword(): string {
  return randomId(12);
}
