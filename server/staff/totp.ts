/**
 * TOTP (RFC 6238) as authenticator apps speak it: 6 digits, 30-second steps, SHA-1. The rules are
 * pure (the time is passed in), so the injected clock decides which codes are current.
 */
import { Secret, TOTP } from "otpauth";
import { SHOP_NAME } from "../../shared/policy.ts";

/** One step of an authenticator app: a new code every 30 seconds. */
export const TOTP_STEP_MS = 30_000;

/**
 * Codes of the step before and after the current one are taken too: a phone's clock a little off,
 * or a code typed as it changed, still works; wider would give a guesser more codes to hit.
 */
export const TOTP_WINDOW = 1;

/** A new random secret (160 bits, as RFC 4226 recommends), in base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, label = "admin"): TOTP {
  return new TOTP({
    issuer: SHOP_NAME,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: TOTP_STEP_MS / 1000,
    secret: Secret.fromBase32(secret),
  });
}

/** The otpauth:// URI an authenticator app scans (or is pasted) to add the account. */
export function totpUri(secret: string, label: string): string {
  return totpOf(secret, label).toString();
}

/** The code of the step holding `at` (tests and the dashboard's own checks). */
export function totpCode(secret: string, at: number): string {
  return totpOf(secret).generate({ timestamp: at });
}

/** Whether `code` looks like a TOTP code (6 digits, spaces allowed as apps show "123 456"). */
export function looksLikeTotp(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s+/g, ""));
}

/**
 * The step a right code belongs to, or null for a wrong one or one already used: a code is
 * accepted only for a step after `lastStep` (the last one the account used), so a code seen over
 * a shoulder or in a log cannot be replayed within its window.
 */
export function acceptedTotpStep(
  secret: string,
  code: string,
  at: number,
  lastStep: number | undefined,
): number | null {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secret).validate({ token, timestamp: at, window: TOTP_WINDOW });
  if (delta === null) return null;
  const step = Math.floor(at / TOTP_STEP_MS) + delta;
  return lastStep !== undefined && step <= lastStep ? null : step;
}
