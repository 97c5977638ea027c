/**
 * How password guessing is limited, for the admin and for shoppers' accounts (SECURITY.md).
 *
 * Every attempt is counted in KV before any password is compared, so parallel guesses get exactly
 * the comparisons the limits allow; an attempt that is refused gives back every count it took, so
 * a refusal is never held against anyone later. Nobody is locked out by someone else's failures:
 *
 * - A client (an IPv4 address, an IPv6 /64) has 5 wrong passwords per account and window.
 * - All clients together have a ceiling per account (50). Past it, an attempt is still compared
 *   when it comes from a device that signed in to the account before (known_devices.ts: judged
 *   on its own wrong passwords, not the account's), or from a client with no failure for the
 *   account in the window (a "fresh" client: at most 3 per /24 or /48 block and 100 in all per
 *   account and window, so a thousand addresses or a whole IPv6 /48 cannot buy unbounded
 *   guesses). Everyone else, that is clients that have failed, shares one attempt per account
 *   every 5 seconds: slowed, not locked.
 * - Shoppers' sign-ins have limits per client (20, whatever the accounts) and per block (200),
 *   known devices included, which bound the hashing a network can cause: a few addresses cannot
 *   spend a shop-wide budget, since there is none. The hashing gate (password_gate.ts) stays the
 *   guard of the CPU.
 */
import type { Clock } from "../clock.ts";
import { LimitReached, Unauthorized } from "../errors.ts";
import {
  type Count,
  countAttempt,
  type Hit,
  type RateLimit,
  resetRateLimit,
} from "../kv/rate_limit.ts";
import { allLanded } from "../kv/kv_util.ts";
import { knownDeviceId, rememberDevice } from "./known_devices.ts";

const MINUTE = 60_000;

/** Who is trying a password: their network, its block, and the known-device token they carry. */
export interface Caller {
  /** The client's network (server/net/client_network.ts): an IPv4 address or an IPv6 /64. */
  client: string;
  /** The block it is in: an IPv4 /24 or an IPv6 /48. */
  block: string;
  /** The known-device cookie's token, if the browser sent one. */
  device?: string;
}

/** The admin: 5 wrong passwords a minute per client (login form and bearer header alike). */
export const ADMIN_CLIENT_LIMIT: RateLimit = { bucket: "admin-login", max: 5, windowMs: MINUTE };
/** The admin from every client together: 50 per 10 minutes before the ceiling's rules apply. */
export const ADMIN_CEILING: RateLimit = { bucket: "admin-ceiling", max: 50, windowMs: 10 * MINUTE };

/**
 * A staff member's sign-in from one client: 20 attempts per 10 minutes, whichever emails they
 * name, so one client cannot try its password on many members (or spend a hash on each guess).
 */
export const STAFF_CLIENT_LIMIT: RateLimit = {
  bucket: "staff-login",
  max: 20,
  windowMs: 10 * MINUTE,
};

/** A shopper's client: 20 sign-in attempts per 10 minutes, whichever accounts they name. */
export const LOGIN_CLIENT_LIMIT: RateLimit = { bucket: "login", max: 20, windowMs: 10 * MINUTE };
/**
 * A block (IPv4 /24, IPv6 /48): 200 sign-ins compared per 10 minutes, right or wrong, known devices
 * too (each costs a hash). Ten times what one client may try, so a busy office behind one /24 is
 * not held up, while the 65,536 /64s of one IPv6 /48 cannot make 1.3 million.
 */
export const LOGIN_BLOCK_LIMIT: RateLimit = {
  bucket: "login-block",
  max: 200,
  windowMs: 10 * MINUTE,
};
/** One account from one client: 5 wrong passwords per 15 minutes. */
export const LOGIN_ACCOUNT_CLIENT_LIMIT: RateLimit = {
  bucket: "login-account-client",
  max: 5,
  windowMs: 15 * MINUTE,
};
/** One account from every client together: 50 per 15 minutes before the ceiling's rules apply. */
export const LOGIN_ACCOUNT_CEILING: RateLimit = {
  bucket: "login-account",
  max: 50,
  windowMs: 15 * MINUTE,
};

/** Past a ceiling, fresh clients of one block: 3 per account and window (a household's devices). */
export const FRESH_PER_BLOCK = 3;
/**
 * Past a ceiling, fresh clients in all: 100 per account and window, whatever the addresses: far
 * more than one person's new devices, and fewer than the slowed slot gives in the same window.
 */
export const FRESH_PER_ACCOUNT = 100;

/** Past a ceiling, clients that have failed share one attempt per account every 5 seconds. */
export const SLOWED: RateLimit = { bucket: "slowed", max: 1, windowMs: 5_000 };

const SLOWED_MESSAGE =
  "This account is receiving many sign-in attempts, so sign-ins are slowed down. Please try again in a few seconds.";

/** An attempt allowed to compare its password. */
export interface PasswordAttempt {
  /** The password was right: its counts are given back and the client's failures forgotten. */
  succeeded(): Promise<void>;
  /** Marks the caller's device as known to this account; answers the token for its cookie. */
  rememberDevice(): Promise<string>;
  /** No password was judged (the comparison could not run): every count it took is given back. */
  abandon(): Promise<void>;
}

/**
 * Runs `compare` for `attempt`. A wrong password (Unauthorized) is a judgement and stays counted;
 * any other failure (the hashing queue full, the store failing) judged nothing, so the attempt
 * counts nowhere: a storm that keeps the queue full must not turn the rightful user's retries into
 * wrong passwords.
 */
export async function compareWithin<T>(
  attempt: PasswordAttempt,
  compare: () => Promise<T>,
): Promise<T> {
  try {
    return await compare();
  } catch (err) {
    if (!(err instanceof Unauthorized)) await attempt.abandon();
    throw err;
  }
}

/** The limits of one kind of account. */
interface Rules {
  /** Every attempt of one client, whatever the account. */
  client?: { limit: RateLimit; message: string };
  /** Every compared attempt of one block, whatever the account. */
  block?: { limit: RateLimit; message: string };
  /** Wrong passwords of one client (or known device) for one account. */
  failures: RateLimit;
  failuresMessage: string;
  /** Attempts of every client together on one account. */
  ceiling: RateLimit;
  /**
   * Attempts of every client but the account's known devices on one account, however spread over
   * addresses and windows: a hard bound where no try of a fresh client may pass (second factors).
   */
  accountCap?: { limit: RateLimit; message: string };
}

const ADMIN_RULES: Rules = {
  failures: ADMIN_CLIENT_LIMIT,
  failuresMessage: "Too many wrong passwords. Please wait a minute and try again.",
  ceiling: ADMIN_CEILING,
};

/** A staff member: the admin's limits per account, and a limit per client across accounts. */
const STAFF_RULES: Rules = {
  client: {
    limit: STAFF_CLIENT_LIMIT,
    message: "Too many sign-in attempts. Please wait a few minutes.",
  },
  failures: ADMIN_CLIENT_LIMIT,
  failuresMessage: ADMIN_RULES.failuresMessage,
  ceiling: ADMIN_CEILING,
};

const SHOPPER_RULES: Rules = {
  client: {
    limit: LOGIN_CLIENT_LIMIT,
    message: "Too many sign-in attempts. Please wait a few minutes.",
  },
  block: {
    limit: LOGIN_BLOCK_LIMIT,
    message: "Too many sign-in attempts from your network. Please wait a few minutes.",
  },
  failures: LOGIN_ACCOUNT_CLIENT_LIMIT,
  failuresMessage: "Too many wrong passwords for this account. Please wait 15 minutes.",
  ceiling: LOGIN_ACCOUNT_CEILING,
};

/** The account name the admin's limits and known devices are kept under. */
const ADMIN_ACCOUNT = "admin";

/** Counts an admin password attempt; throws LimitReached past a limit. */
export function beginAdminAttempt(
  kv: Deno.Kv,
  clock: Clock,
  caller: Caller,
): Promise<PasswordAttempt> {
  return beginAttempt(kv, clock, ADMIN_RULES, ADMIN_ACCOUNT, caller);
}

/**
 * Second-factor tries a day on one account from every device it has not signed in on before. Someone
 * holding the password could otherwise spread guesses over many addresses and windows (the
 * ceiling lets fresh clients through, as it must for passwords): about 29,000 six-digit codes a
 * day from one IPv6 /48, an 8% chance a day. 100 a day leave 0.03%; a right attempt is given
 * back, so the owner's own tries never spend it, and a known device is not held by it.
 */
export const SECOND_FACTOR_DAY: RateLimit = {
  bucket: "second-factor-day",
  max: 100,
  windowMs: 24 * 60 * MINUTE,
};

/** What a try past the day's cap reads. */
export const SECOND_FACTOR_DAY_MESSAGE =
  "Too many wrong codes for this account today. Sign in from a device you used before, or try again tomorrow.";

/**
 * Second factors (a TOTP or recovery code, a passkey): 5 wrong ones per client and account in 15
 * minutes, and 20 from every client together before the ceiling's rules apply. Kept apart from
 * the password's counts, so a mistyped code never costs a password attempt, and per account, so
 * one member's failures never slow another.
 */
const SECOND_FACTOR_RULES: Rules = {
  failures: { bucket: "second-factor", max: 5, windowMs: 15 * MINUTE },
  failuresMessage: "Too many wrong codes. Please wait 15 minutes and try again.",
  ceiling: { bucket: "second-factor-ceiling", max: 20, windowMs: 15 * MINUTE },
  accountCap: { limit: SECOND_FACTOR_DAY, message: SECOND_FACTOR_DAY_MESSAGE },
};

/**
 * The same limits for a proof nobody can guess (a passkey's signature, a 49-bit recovery code):
 * the day's cap bounds the guessing of six-digit codes only, so someone spending it cannot hold
 * the owner's passkey, or the recovery code a lost phone leaves them (always on a new device).
 */
const UNGUESSABLE_FACTOR_RULES: Rules = { ...SECOND_FACTOR_RULES, accountCap: undefined };

/** What a second-factor try offers: a six-digit code, or a proof nobody can guess. */
export type FactorProof = "six_digits" | "unguessable";

/** Counts a second-factor attempt for `accountId`; throws LimitReached past a limit. */
export function beginSecondFactorAttempt(
  kv: Deno.Kv,
  clock: Clock,
  accountId: string,
  caller: Caller,
  proof: FactorProof,
): Promise<PasswordAttempt> {
  const rules = proof === "six_digits" ? SECOND_FACTOR_RULES : UNGUESSABLE_FACTOR_RULES;
  return beginAttempt(kv, clock, rules, `factor ${accountId}`, caller);
}

/**
 * Counts a staff member's sign-in attempt for `email` (lower case), known or not; throws
 * LimitReached past a limit. Kept apart from shoppers' accounts of the same email.
 */
export function beginStaffAttempt(
  kv: Deno.Kv,
  clock: Clock,
  email: string,
  caller: Caller,
): Promise<PasswordAttempt> {
  return beginAttempt(kv, clock, STAFF_RULES, `staff ${email}`, caller);
}

/** Counts a shopper's sign-in attempt for `email`; throws LimitReached past a limit. */
export function beginLoginAttempt(
  kv: Deno.Kv,
  clock: Clock,
  email: string,
  caller: Caller,
): Promise<PasswordAttempt> {
  return beginAttempt(kv, clock, SHOPPER_RULES, email.trim().toLowerCase(), caller);
}

async function beginAttempt(
  kv: Deno.Kv,
  clock: Clock,
  rules: Rules,
  account: string,
  caller: Caller,
): Promise<PasswordAttempt> {
  // Counts this attempt has taken, all given back if it is refused (a refusal costs nobody
  // later); a right password gives back those of the account, but not the client's and the
  // block's, which bound the hashing a network can cause, right or wrong.
  const taken: Hit[] = [];
  async function refuse(refusing: Count, message: string, bucket: string): Promise<never> {
    await allLanded(taken.map((hit) => hit.giveBack()));
    throw new LimitReached(message, refusing.retryAfterSeconds, bucket);
  }
  async function take(limit: RateLimit, key: string, message: string): Promise<Count> {
    const counted = await countAttempt(kv, clock, limit, key);
    if (!counted.within) await refuse(counted, message, limit.bucket);
    taken.push(counted);
    return counted;
  }
  /** The block's count comes last, so attempts the account's rules refuse never spend it. */
  async function takeBlock(): Promise<Hit | null> {
    return rules.block ? await take(rules.block.limit, caller.block, rules.block.message) : null;
  }
  const remember = () => rememberDevice(kv, clock, account, caller.device);
  const abandon = async () => {
    await allLanded(taken.splice(0).map((hit) => hit.giveBack()));
  };

  const perClient = rules.client
    ? await take(rules.client.limit, caller.client, rules.client.message)
    : null;
  const device = await knownDeviceId(kv, clock, account, caller.device);
  if (device !== null) {
    // The rightful user's own device: the account's ceiling and others' failures do not apply,
    // only its own wrong passwords.
    const key = `${account} device ${device}`;
    await take(rules.failures, key, rules.failuresMessage);
    await takeBlock();
    return {
      succeeded: () => resetRateLimit(kv, clock, rules.failures, key),
      rememberDevice: remember,
      abandon,
    };
  }

  const pair = `${account} ${caller.client}`;
  const failures = await take(rules.failures, pair, rules.failuresMessage);
  if (rules.accountCap) await take(rules.accountCap.limit, account, rules.accountCap.message);
  const ceiling = await countAttempt(kv, clock, rules.ceiling, account);
  taken.push(ceiling);
  if (!ceiling.within) {
    // Only the first attempt a client has in flight or failed is fresh, so one address gets one.
    const fresh = failures.count === 1 &&
      await passFresh(kv, clock, rules.ceiling, account, caller);
    if (fresh) taken.push(...fresh);
    else await take(SLOWED, `${rules.ceiling.bucket} ${account}`, SLOWED_MESSAGE);
  }
  const perBlock = await takeBlock();

  const kept = [perClient, failures, perBlock];
  return {
    async succeeded() {
      await allLanded([
        resetRateLimit(kv, clock, rules.failures, pair),
        ...taken.filter((hit) => !kept.includes(hit)).map((hit) => hit.giveBack()),
      ]);
    },
    rememberDevice: remember,
    abandon,
  };
}

/**
 * Past the ceiling, lets a fresh client through while its block (FRESH_PER_BLOCK) and the account
 * (FRESH_PER_ACCOUNT) have fresh tries left in the ceiling's window; answers the counts taken, or
 * false (having given them back) when either is spent.
 */
async function passFresh(
  kv: Deno.Kv,
  clock: Clock,
  ceiling: RateLimit,
  account: string,
  caller: Caller,
): Promise<Count[] | false> {
  const window = ceiling.windowMs;
  const perBlock = await countAttempt(
    kv,
    clock,
    { bucket: `${ceiling.bucket}-fresh-block`, max: FRESH_PER_BLOCK, windowMs: window },
    `${account} ${caller.block}`,
  );
  if (perBlock.within) {
    const perAccount = await countAttempt(
      kv,
      clock,
      { bucket: `${ceiling.bucket}-fresh`, max: FRESH_PER_ACCOUNT, windowMs: window },
      account,
    );
    if (perAccount.within) return [perBlock, perAccount];
    await perAccount.giveBack();
  }
  await perBlock.giveBack();
  return false;
}
