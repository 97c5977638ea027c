/**
 * An account's authenticator app (TOTP) and its recovery codes: setting it up (a secret shown
 * once, active only once a code from it is confirmed), removing it (with a current code), and a
 * new set of recovery codes. Each change is written with its audit entry.
 */
import type { Clock } from "../clock.ts";
import { Conflict, InvalidInput, Unauthorized } from "../errors.ts";
import type { Actor } from "../audit/actor.ts";
import { auditEntry, auditInto } from "../audit/log.ts";
import { beginSecondFactorAttempt, type Caller } from "../accounts/login_limits.ts";
import { changeFactors, factorsOf, hasSecondFactor } from "./second_factors.ts";
import { acceptedTotpStep, newTotpSecret, totpUri } from "./totp.ts";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery_codes.ts";
import { endOtherSessionsAfter, endOtherSessionsInto } from "./staff_sessions.ts";

/** A secret being set up must be confirmed within 10 minutes, or set up again. */
export const TOTP_SETUP_MS = 10 * 60_000;

/** What starting the setup answers: the secret for typing in, and the URI for scanning. */
export interface TotpSetup {
  secret: string;
  uri: string;
}

/** Starts setting up TOTP for `actor` (a new secret each time, until one is confirmed). */
export function startTotp(kv: Deno.Kv, clock: Clock, actor: Actor): Promise<TotpSetup> {
  return changeFactors(kv, actor.id, (factors) => {
    if (factors.totp) {
      throw new Conflict("An authenticator app is already set up; remove it first to replace it.");
    }
    const secret = newTotpSecret();
    factors.pendingTotp = { secret, startedAt: clock.now() };
    return { secret, uri: totpUri(secret, actor.name) };
  });
}

/**
 * Confirms the setup with a code from the app: TOTP becomes active and a new set of recovery
 * codes is answered (shown once; any earlier set stops working). The code's step counts as used.
 */
export async function confirmTotp(
  kv: Deno.Kv,
  clock: Clock,
  actor: Actor,
  code: string,
): Promise<{ recoveryCodes: string[] }> {
  const codes = newRecoveryCodes();
  const hashes = await Promise.all(codes.map(hashRecoveryCode));
  let first = false;
  const added = await changeFactors(kv, actor.id, async (factors, op) => {
    first = !hasSecondFactor(factors);
    const pending = factors.pendingTotp;
    if (!pending || clock.now() - pending.startedAt > TOTP_SETUP_MS) {
      throw new Conflict("Start the authenticator app's setup again: it has expired.");
    }
    const step = acceptedTotpStep(pending.secret, code, clock.now(), undefined);
    if (step === null) {
      throw new InvalidInput("That code is not the one the app shows now. Please try again.");
    }
    factors.totp = { secret: pending.secret, addedAt: clock.now() };
    factors.lastTotpStep = step;
    delete factors.pendingTotp;
    factors.recoveryCodes = hashes;
    auditInto(
      op,
      auditEntry(clock, actor, { kind: "security", action: "factor.added", target: "totp" }),
    );
    if (first) await endOtherSessionsInto({ kv, clock }, actor, op);
    return { recoveryCodes: codes };
  });
  if (first) await endOtherSessionsAfter({ kv, clock }, actor);
  return added;
}

/**
 * Removes TOTP given a current code from it (a session left open is not enough to take a factor
 * away). Wrong codes count on the second-factor limits, before they are compared.
 */
export async function removeTotp(
  kv: Deno.Kv,
  clock: Clock,
  actor: Actor,
  caller: Caller,
  code: string,
): Promise<void> {
  if (!(await factorsOf(kv, actor.id)).totp) throw new Conflict("No authenticator app is set up.");
  const attempt = await beginSecondFactorAttempt(kv, clock, actor.id, caller, "six_digits");
  await changeFactors(kv, actor.id, (factors, op) => {
    if (!factors.totp) throw new Conflict("No authenticator app is set up.");
    const step = acceptedTotpStep(factors.totp.secret, code, clock.now(), factors.lastTotpStep);
    if (step === null) throw new Unauthorized("Wrong code");
    delete factors.totp;
    factors.lastTotpStep = step;
    if (!hasSecondFactor(factors)) factors.recoveryCodes = [];
    auditInto(
      op,
      auditEntry(clock, actor, { kind: "security", action: "factor.removed", target: "totp" }),
    );
  });
  await attempt.succeeded();
}

/** A new set of recovery codes for an account with a factor; the earlier set stops working. */
export async function regenerateRecoveryCodes(
  kv: Deno.Kv,
  clock: Clock,
  actor: Actor,
): Promise<{ recoveryCodes: string[] }> {
  const codes = newRecoveryCodes();
  const hashes = await Promise.all(codes.map(hashRecoveryCode));
  return await changeFactors(kv, actor.id, (factors, op) => {
    if (!hasSecondFactor(factors)) {
      throw new Conflict("Set up an authenticator app or a passkey first.");
    }
    factors.recoveryCodes = hashes;
    auditInto(
      op,
      auditEntry(clock, actor, { kind: "security", action: "recovery_codes.regenerated" }),
    );
    return { recoveryCodes: codes };
  });
}

/** What the dashboard shows of an account's factors. */
export async function factorsSummary(kv: Deno.Kv, accountId: string) {
  const factors = await factorsOf(kv, accountId);
  return {
    totp: factors.totp !== undefined,
    recoveryCodesLeft: factors.recoveryCodes.length,
  };
}
