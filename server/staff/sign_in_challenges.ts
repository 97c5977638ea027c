/**
 * A sign-in waiting for its second factor: after a right password, the browser holds a challenge
 * token (only its hash is kept) bound to the account, which lives 5 minutes, is used once, and
 * allows 5 tries of a code before it dies (each counted before the code is compared).
 */
import type { Clock } from "../clock.ts";
import { newToken, sha256Hex } from "../crypto.ts";
import { Unauthorized } from "../errors.ts";
import { keys } from "../kv/keys.ts";
import { CONFLICT, withRetries } from "../kv/kv_util.ts";

/** How long the second step may take after the password. */
export const CHALLENGE_MS = 5 * 60_000;
/** Tries of a code one challenge allows; the password is needed again after. */
export const CHALLENGE_TRIES = 5;

/** A stored challenge. */
export interface SignInChallenge {
  accountId: string;
  expiresAt: number;
  /** Tries counted so far (before each was compared). */
  tries: number;
  /** The WebAuthn challenge of the passkey options asked for this sign-in, if any. */
  webauthnChallenge?: string;
}

const EXPIRED = "This sign-in has expired or was already used. Please enter your password again.";

/** Opens a challenge for `accountId`; answers the token the browser sends back. */
export async function openChallenge(kv: Deno.Kv, clock: Clock, accountId: string): Promise<string> {
  const token = newToken();
  const challenge: SignInChallenge = {
    accountId,
    expiresAt: clock.now() + CHALLENGE_MS,
    tries: 0,
  };
  await kv.set(keys.signInChallenge(await sha256Hex(token)), challenge, { expireIn: CHALLENGE_MS });
  return token;
}

/** The key of a challenge token (tokens of another shape are never looked up). */
async function keyOf(token: string): Promise<Deno.KvKey> {
  if (!token || token.length > 100) throw new Unauthorized(EXPIRED);
  return keys.signInChallenge(await sha256Hex(token));
}

/** A live challenge, or Unauthorized when it is unknown, spent or past its time. */
export async function liveChallenge(
  kv: Deno.Kv,
  clock: Clock,
  token: string,
): Promise<Deno.KvEntry<SignInChallenge>> {
  const entry = await kv.get<SignInChallenge>(await keyOf(token));
  if (entry.value === null || entry.value.expiresAt <= clock.now()) {
    throw new Unauthorized(EXPIRED);
  }
  return entry as Deno.KvEntry<SignInChallenge>;
}

/**
 * Counts one try on a challenge before anything is compared; past CHALLENGE_TRIES the challenge
 * is deleted and refused. Answers the challenge as counted (its entry, to be checked when spent).
 */
export function countTry(
  kv: Deno.Kv,
  clock: Clock,
  token: string,
): Promise<Deno.KvEntry<SignInChallenge>> {
  return withRetries(async () => {
    const entry = await liveChallenge(kv, clock, token);
    const tries = entry.value.tries + 1;
    if (tries > CHALLENGE_TRIES) {
      await kv.atomic().check(entry).delete(entry.key).commit();
      throw new Unauthorized(
        "Too many wrong codes for this sign-in. Please enter your password again.",
      );
    }
    const counted = { ...entry.value, tries };
    const result = await kv.atomic().check(entry).set(entry.key, counted, {
      expireIn: Math.max(1, counted.expiresAt - clock.now()),
    }).commit();
    if (!result.ok) return CONFLICT;
    return { ...entry, value: counted, versionstamp: result.versionstamp };
  }, "count the sign-in try");
}

/** Remembers the WebAuthn challenge of passkey options asked for this sign-in. */
export function attachWebauthnChallenge(
  kv: Deno.Kv,
  clock: Clock,
  token: string,
  webauthnChallenge: string,
): Promise<SignInChallenge> {
  return withRetries(async () => {
    const entry = await liveChallenge(kv, clock, token);
    const next = { ...entry.value, webauthnChallenge };
    const result = await kv.atomic().check(entry).set(entry.key, next, {
      expireIn: Math.max(1, next.expiresAt - clock.now()),
    }).commit();
    return result.ok ? next : CONFLICT;
  }, "prepare the passkey");
}
