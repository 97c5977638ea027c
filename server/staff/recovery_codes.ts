/**
 * One-time recovery codes: what opens the dashboard when the phone or the passkey is lost. Ten
 * are made at a time and shown once; only their hashes are kept, and each works once.
 */
import { sha256Hex } from "../crypto.ts";

/** How many codes one set has. */
export const RECOVERY_CODE_COUNT = 10;

/** Letters and digits that cannot be mistaken for each other when typed from paper (no 0/O, 1/I/L). */
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/**
 * A new set of codes, each 10 characters shown as `XXXXX-XXXXX` (about 49 bits: with the sign-in
 * limits, far beyond guessing; short enough to type).
 */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, randomLetter).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** One letter of ALPHABET, uniformly: bytes past the last whole multiple are drawn again. */
function randomLetter(): string {
  const limit = 256 - (256 % ALPHABET.length);
  for (;;) {
    const [b] = crypto.getRandomValues(new Uint8Array(1));
    if (b < limit) return ALPHABET[b % ALPHABET.length];
  }
}

/** A code as typed, made canonical: case, spaces and dashes do not matter. */
export function normaliseRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]+/g, "");
}

/** Whether `code` could be a recovery code (so a TOTP code is never taken for one). */
export function looksLikeRecoveryCode(code: string): boolean {
  const canonical = normaliseRecoveryCode(code);
  return canonical.length === 10 && [...canonical].every((c) => ALPHABET.includes(c));
}

/** The hash a code is kept as. */
export function hashRecoveryCode(code: string): Promise<string> {
  return sha256Hex(`recovery ${normaliseRecoveryCode(code)}`);
}
