/**
 * The second step of a sign-in, and passwordless passkey sign-in. Every try is counted before it
 * is compared: on the challenge (5 tries, then the password again) and on the second-factor limits
 * per client and account (login_limits.ts). A right answer spends the challenge, the code's TOTP
 * step or the recovery code, and records the sign-in, all in one write; a wrong one records the
 * failure.
 */
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { Clock } from "../clock.ts";
import { Unauthorized } from "../errors.ts";
import { hitRateLimit, type RateLimit } from "../kv/rate_limit.ts";
import { auditEntry, auditInto } from "../audit/log.ts";
import { beginSecondFactorAttempt, type Caller } from "../accounts/login_limits.ts";
import { type AccountFactors, changeFactors, factorsOf } from "./second_factors.ts";
import { acceptedTotpStep, looksLikeTotp } from "./totp.ts";
import { hashRecoveryCode, looksLikeRecoveryCode } from "./recovery_codes.ts";
import { attachWebauthnChallenge, countTry, liveChallenge } from "./sign_in_challenges.ts";
import {
  accountOfPasskey,
  assertionChallenge,
  assertionOptions,
  verifyAssertion,
} from "./passkeys.ts";
import { takeWebauthnChallenge } from "./webauthn_challenges.ts";
import { accountActor } from "./account_actor.ts";
import type { Actor } from "../audit/actor.ts";

const PASSKEY_REFUSED = "The passkey was not accepted. Please try again.";

/** What the shop needs of a request to sign someone in. */
export interface SignInRequest {
  kv: Deno.Kv;
  clock: Clock;
  /** Who is trying, for the limits. */
  caller: Caller;
  /** The client's address, for the audit log. */
  from: string;
  /** The shop's origin, the passkeys' relying party. */
  origin: string;
}

/** The proof of the second step: a code (TOTP or recovery) or a passkey's assertion. */
export type SecondFactorProof = { code: string } | { passkey: AuthenticationResponseJSON };

/** What a right proof spends, found by comparing it with the account's factors. */
type Spend =
  | { method: "totp"; step: number }
  | { method: "recovery_code"; hash: string }
  | { method: "passkey"; passkeyId: string; counter: number };

/** Options for the passkey step of a sign-in waiting on `token`. */
export async function secondStepPasskeyOptions(r: SignInRequest, token: string) {
  const challenge = (await liveChallenge(r.kv, r.clock, token)).value;
  const options = await assertionOptions(r.kv, r.clock, r.origin, challenge.accountId);
  await attachWebauthnChallenge(r.kv, r.clock, token, options.challenge);
  return options;
}

/** Finishes a sign-in waiting on `token` with `proof`; answers the account signed in. */
export async function finishSecondStep(
  r: SignInRequest,
  token: string,
  proof: SecondFactorProof,
): Promise<string> {
  const { accountId } = (await liveChallenge(r.kv, r.clock, token)).value;
  // Only what looks like a six-digit code can reach a TOTP comparison (compare below).
  const shape = "code" in proof && looksLikeTotp(proof.code) ? "six_digits" : "unguessable";
  const attempt = await beginSecondFactorAttempt(r.kv, r.clock, accountId, r.caller, shape);
  const counted = await countTry(r.kv, r.clock, token);
  const spend = await compare(r, accountId, counted.value.webauthnChallenge, proof);
  if (!spend) {
    return await refuse(r, accountId, "passkey" in proof ? PASSKEY_REFUSED : "Wrong code");
  }
  const actor = await accountActor(r.kv, accountId, r.from);
  await changeFactors(r.kv, accountId, async (factors, op) => {
    // Read again inside the write: a second request with the same challenge or code that raced
    // this one finds it spent.
    const challenge = await r.kv.get(counted.key);
    if (challenge.value === null) throw new Unauthorized("This sign-in was already used.");
    op.check(challenge).delete(counted.key);
    spendOn(factors, spend, r.clock.now());
    recordSecondFactor(r, actor, op, spend.method);
  });
  await attempt.succeeded();
  // This device has now passed the second factor: it is known to the account's factor limits,
  // so someone else's guessing (the day's cap) never locks it out. Only a device the password
  // step already named (its cookie) is kept; a passkey on a new device sets no cookie.
  if (r.caller.device) await attempt.rememberDevice();
  return accountId;
}

/**
 * Passkey sign-ins one client may start per 10 minutes: anyone may ask, and each one keeps a
 * challenge in KV for 5 minutes, so a client cannot fill the store with them.
 */
export const PASSKEY_SIGN_IN_LIMIT: RateLimit = {
  bucket: "passkey-sign-in",
  max: 30,
  windowMs: 10 * 60_000,
};

/** Passwordless sign-in: options for any of the shop's passkeys (the challenge kept here). */
export async function passwordlessOptions(r: SignInRequest) {
  await hitRateLimit(
    r.kv,
    r.clock,
    PASSKEY_SIGN_IN_LIMIT,
    r.caller.client,
    "Too many passkey sign-ins. Please wait a few minutes.",
  );
  return await assertionOptions(r.kv, r.clock, r.origin);
}

/** Signs in with a discoverable passkey alone; answers the account it belongs to. */
export async function passwordlessSignIn(
  r: SignInRequest,
  response: AuthenticationResponseJSON,
): Promise<string> {
  const accountId = await accountOfPasskey(r.kv, response);
  const attempt = await beginSecondFactorAttempt(
    r.kv,
    r.clock,
    accountId,
    r.caller,
    "unguessable",
  );
  const challenge = assertionChallenge(response);
  await takeWebauthnChallenge(r.kv, r.clock, challenge, "sign_in");
  let spend: Spend;
  try {
    spend = {
      method: "passkey",
      ...await verifyAssertion(r.kv, r.origin, accountId, challenge, response),
    };
  } catch {
    return await refuse(r, accountId, PASSKEY_REFUSED);
  }
  const actor = await accountActor(r.kv, accountId, r.from);
  await changeFactors(r.kv, accountId, (factors, op) => {
    spendOn(factors, spend, r.clock.now());
    recordSecondFactor(r, actor, op, "passkey");
  });
  await attempt.succeeded();
  // This device has now passed the second factor: it is known to the account's factor limits,
  // so someone else's guessing (the day's cap) never locks it out. Only a device the password
  // step already named (its cookie) is kept; a passkey on a new device sets no cookie.
  if (r.caller.device) await attempt.rememberDevice();
  return accountId;
}

/** Compares a proof with the account's factors; null when it is wrong or already used. */
async function compare(
  r: SignInRequest,
  accountId: string,
  webauthnChallenge: string | undefined,
  proof: SecondFactorProof,
): Promise<Spend | null> {
  const factors = await factorsOf(r.kv, accountId);
  if ("passkey" in proof) {
    if (!webauthnChallenge) return null;
    try {
      const checked = await verifyAssertion(
        r.kv,
        r.origin,
        accountId,
        webauthnChallenge,
        proof.passkey,
      );
      return { method: "passkey", ...checked };
    } catch {
      return null;
    }
  }
  if (factors.totp && looksLikeTotp(proof.code)) {
    const step = acceptedTotpStep(
      factors.totp.secret,
      proof.code,
      r.clock.now(),
      factors.lastTotpStep,
    );
    return step === null ? null : { method: "totp", step };
  }
  if (looksLikeRecoveryCode(proof.code)) {
    const hash = await hashRecoveryCode(proof.code);
    return factors.recoveryCodes.includes(hash) ? { method: "recovery_code", hash } : null;
  }
  return null;
}

/**
 * Spends what a right proof used, on the record as read inside the write: a TOTP step no later
 * than the last one, or a recovery code gone, means a racing request spent it first.
 */
function spendOn(factors: AccountFactors, spend: Spend, now: number): void {
  if (spend.method === "totp") {
    if (factors.lastTotpStep !== undefined && spend.step <= factors.lastTotpStep) {
      throw new Unauthorized("Wrong code");
    }
    factors.lastTotpStep = spend.step;
  } else if (spend.method === "recovery_code") {
    if (!factors.recoveryCodes.includes(spend.hash)) throw new Unauthorized("Wrong code");
    factors.recoveryCodes = factors.recoveryCodes.filter((h) => h !== spend.hash);
  } else {
    const passkey = factors.passkeys.find((p) => p.id === spend.passkeyId);
    if (passkey) {
      passkey.counter = spend.counter;
      passkey.lastUsedAt = now;
    }
  }
}

/**
 * Records which second factor passed, with the factor's change (the session's own "sign_in"
 * entry is written when it opens: middleware/open_admin_session.ts).
 */
function recordSecondFactor(
  r: SignInRequest,
  actor: Actor,
  op: Deno.AtomicOperation,
  method: Spend["method"],
): void {
  auditInto(
    op,
    auditEntry(r.clock, actor, {
      kind: "sign_in",
      action: "sign_in.second_factor",
      target: method,
    }),
  );
  if (method === "recovery_code") {
    auditInto(op, auditEntry(r.clock, actor, { kind: "security", action: "recovery_code.used" }));
  }
}

/** Records a wrong second factor and refuses it. */
async function refuse(r: SignInRequest, accountId: string, message: string): Promise<never> {
  const entry = auditEntry(r.clock, await accountActor(r.kv, accountId, r.from), {
    kind: "sign_in",
    action: "sign_in.second_factor_failed",
  });
  await auditInto(r.kv.atomic(), entry).commit();
  throw new Unauthorized(message);
}
