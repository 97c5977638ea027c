/**
 * How password guessing is limited, for the admin and for shoppers' accounts (SECURITY.md).
 *
 * Every attempt is counted before any password is compared, so parallel guesses get exactly the
 * comparisons the limits allow. The limits are keyed so that an attacker at one address cannot
 * lock out the rightful user at another: the tight limit is per account *and* client; what all
 * clients together may try against one account is a larger ceiling, and past it the account is
 * slowed (one attempt per few seconds) rather than locked.
 */
import type { Clock } from "../clock.ts";
import { LimitReached } from "../errors.ts";
import { type Hit, hitRateLimit, type RateLimit, resetRateLimit } from "../kv/rate_limit.ts";

const MINUTE = 60_000;

/** The admin: 5 wrong passwords a minute per client (login form and bearer header alike). */
export const ADMIN_CLIENT_LIMIT: RateLimit = { bucket: "admin-login", max: 5, windowMs: MINUTE };
/** The admin from every client together: 50 per 10 minutes, then slowed. */
export const ADMIN_CEILING: RateLimit = { bucket: "admin-ceiling", max: 50, windowMs: 10 * MINUTE };

/** A shopper's client: 20 sign-in attempts per 10 minutes, whichever accounts they name. */
export const LOGIN_CLIENT_LIMIT: RateLimit = { bucket: "login", max: 20, windowMs: 10 * MINUTE };
/** One account from one client: 5 wrong passwords per 15 minutes. */
export const LOGIN_ACCOUNT_CLIENT_LIMIT: RateLimit = {
  bucket: "login-account-client",
  max: 5,
  windowMs: 15 * MINUTE,
};
/** One account from every client together: 50 per 15 minutes, then slowed. */
export const LOGIN_ACCOUNT_CEILING: RateLimit = {
  bucket: "login-account",
  max: 50,
  windowMs: 15 * MINUTE,
};
/** Every sign-in of the shop together: 300 a minute, far above real use, far below a flood. */
export const LOGIN_GLOBAL_LIMIT: RateLimit = { bucket: "login-all", max: 300, windowMs: MINUTE };

/** Past a ceiling, one attempt per account every 5 seconds. */
export const SLOWED: RateLimit = { bucket: "slowed", max: 1, windowMs: 5_000 };

const SLOWED_MESSAGE =
  "This account is receiving many sign-in attempts, so sign-ins are slowed down. Please try again in a few seconds.";

/** An attempt allowed to compare its password; report a right one so it is not held against it. */
export interface PasswordAttempt {
  succeeded(): Promise<void>;
}

/** Counts an admin password attempt from `client`; throws LimitReached past a limit. */
export async function beginAdminAttempt(
  kv: Deno.Kv,
  clock: Clock,
  client: string,
): Promise<PasswordAttempt> {
  await hitRateLimit(
    kv,
    clock,
    ADMIN_CLIENT_LIMIT,
    client,
    "Too many wrong passwords. Please wait a minute and try again.",
  );
  const ceiling = await passCeiling(kv, clock, ADMIN_CEILING, "admin");
  return {
    async succeeded() {
      await Promise.all([
        resetRateLimit(kv, clock, ADMIN_CLIENT_LIMIT, client),
        ceiling.giveBack(),
      ]);
    },
  };
}

/** Counts a shopper's sign-in attempt for `email` from `client`; throws LimitReached past a limit. */
export async function beginLoginAttempt(
  kv: Deno.Kv,
  clock: Clock,
  email: string,
  client: string,
): Promise<PasswordAttempt> {
  await hitRateLimit(
    kv,
    clock,
    LOGIN_CLIENT_LIMIT,
    client,
    "Too many sign-in attempts. Please wait a few minutes.",
  );
  const account = email.toLowerCase();
  const pair = `${account} ${client}`;
  await hitRateLimit(
    kv,
    clock,
    LOGIN_ACCOUNT_CLIENT_LIMIT,
    pair,
    "Too many wrong passwords for this account. Please wait 15 minutes.",
  );
  const ceiling = await passCeiling(kv, clock, LOGIN_ACCOUNT_CEILING, account);
  await hitRateLimit(
    kv,
    clock,
    LOGIN_GLOBAL_LIMIT,
    "shop",
    "The shop is receiving too many sign-in attempts right now. Please try again in a minute.",
  );
  return {
    async succeeded() {
      await Promise.all([
        resetRateLimit(kv, clock, LOGIN_ACCOUNT_CLIENT_LIMIT, pair),
        ceiling.giveBack(),
      ]);
    },
  };
}

/** Counts against a ceiling; past it, lets one attempt through per SLOWED window. */
async function passCeiling(
  kv: Deno.Kv,
  clock: Clock,
  ceiling: RateLimit,
  account: string,
): Promise<Hit> {
  try {
    return await hitRateLimit(kv, clock, ceiling, account);
  } catch (err) {
    if (!(err instanceof LimitReached)) throw err;
    await hitRateLimit(kv, clock, SLOWED, `${ceiling.bucket} ${account}`, SLOWED_MESSAGE);
    return { giveBack: () => Promise.resolve() };
  }
}
