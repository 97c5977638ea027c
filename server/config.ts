import { z } from "zod";
import { randomId } from "./crypto.ts";
import { parseIpRanges } from "./net/ip_ranges.ts";
import { ConfigError } from "./errors.ts";
import { choosePayments } from "./payments/registry.ts";
import type { Config } from "./deps.ts";

const optionalText = z.string().trim().min(1).optional();
const optionalUrl = z.url({ protocol: /^https?$/ }).optional();

const PORT_MESSAGE = "must be a whole number from 0 to 65535";
const HOLDS_MESSAGE = "must be a whole number from 1 to 500";
const COUNT_MESSAGE = "must be a whole number from 1 to 100000";
const PREFIX_MESSAGE = "must be a whole number from 32 to 128";
const MEGABYTES_MESSAGE = "must be a whole number of megabytes from 1 to 4096";

/** A whole number from 1 to 100,000 with its one-line error, or `fallback` when unset. */
function count(fallback: number) {
  return z.coerce.number({ error: COUNT_MESSAGE }).int(COUNT_MESSAGE).min(1, COUNT_MESSAGE)
    .max(100_000, COUNT_MESSAGE).default(fallback);
}

const envSchema = z.object({
  PORT: z.coerce.number({ error: PORT_MESSAGE }).int(PORT_MESSAGE).min(0, PORT_MESSAGE)
    .max(65535, PORT_MESSAGE).default(8000),
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  KV_PATH: optionalText,
  DENO_ENV: z.enum(["development", "production", "test"]).optional(),
  ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  PUBLIC_URL: optionalUrl,
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.email().optional(),
  SHOP_EMAIL: z.email().optional(),
  IMAGE_BASE_URL: optionalUrl,
  RESERVATION_MINUTES: z.coerce.number().positive().max(24 * 60).default(30),
  // A client's holds are one KV value (at most 64 KiB): 500 keeps far inside it.
  MAX_HOLDS_PER_CLIENT: z.coerce.number({ error: HOLDS_MESSAGE }).int(HOLDS_MESSAGE)
    .min(1, HOLDS_MESSAGE).max(500, HOLDS_MESSAGE).default(3),
  // Far above any real shopper's order (a cart line holds at most 10): only a hoarder meets it.
  MAX_HELD_UNITS_PER_CLIENT: count(60),
  CHECKOUTS_PER_CLIENT: count(20),
  NEW_CARTS_PER_CLIENT: count(60),
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
 * Validates the environment. Throws ConfigError naming the first bad variable, so start-up fails
 * with one line instead of a stack trace.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  // Empty strings mean "unset": shells and .env files often leave variables defined but blank.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => key in envSchema.shape && value !== ""),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0]);
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name])}: ${issue.message}`);
  }
  const e = parsed.data;
  const production = e.DENO_ENV === "production";
  if (production && !e.ADMIN_PASSWORD) {
    throw new ConfigError("Missing ADMIN_PASSWORD: it is required when DENO_ENV=production");
  }
  if (production && !e.PUBLIC_URL) {
    throw new ConfigError(
      "Missing PUBLIC_URL: it is required when DENO_ENV=production (the shop's own address, e.g. https://shop.example, for links in emails and payment return URLs)",
    );
  }
  // Each provider reads its own settings (server/payments/), blank ones counting as unset.
  const payments = choosePayments(
    Object.fromEntries(Object.entries(env).filter(([, value]) => value !== "")),
  );
  return {
    port: e.PORT,
    host: e.HOST,
    kvPath: e.KV_PATH,
    production,
    adminPassword: e.ADMIN_PASSWORD ?? generatePassword(),
    adminPasswordGenerated: !e.ADMIN_PASSWORD,
    payments,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ""),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? "shop@localhost",
    shopEmail: e.SHOP_EMAIL ?? "owner@localhost",
    imageBaseUrl: e.IMAGE_BASE_URL?.replace(/\/+$/, ""),
    reservationMinutes: e.RESERVATION_MINUTES,
    maxHoldsPerClient: e.MAX_HOLDS_PER_CLIENT,
    maxHeldUnitsPerClient: e.MAX_HELD_UNITS_PER_CLIENT,
    checkoutsPerClient: e.CHECKOUTS_PER_CLIENT,
    newCartsPerClient: e.NEW_CARTS_PER_CLIENT,
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
