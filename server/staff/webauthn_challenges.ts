/**
 * The challenges of WebAuthn ceremonies that have no sign-in challenge to ride on (adding a
 * passkey, passwordless sign-in): kept server-side by their value, for 5 minutes by the injected
 * clock, each taken once.
 */
import type { Clock } from "../clock.ts";
import { Unauthorized } from "../errors.ts";
import { keys } from "../kv/keys.ts";

/** How long a ceremony may take. */
export const WEBAUTHN_CHALLENGE_MS = 5 * 60_000;

/** What a challenge was made for. */
export interface WebauthnChallenge {
  purpose: "register" | "sign_in";
  /** The account adding a passkey (registration only). */
  accountId?: string;
  expiresAt: number;
}

/** Keeps a new ceremony's challenge. */
export async function keepWebauthnChallenge(
  kv: Deno.Kv,
  clock: Clock,
  challenge: string,
  purpose: WebauthnChallenge["purpose"],
  accountId?: string,
): Promise<void> {
  const value: WebauthnChallenge = {
    purpose,
    accountId,
    expiresAt: clock.now() + WEBAUTHN_CHALLENGE_MS,
  };
  await kv.set(keys.webauthnChallenge(challenge), value, { expireIn: WEBAUTHN_CHALLENGE_MS });
}

/**
 * Takes a challenge once: it must exist, be for `purpose` (and the account, for registration) and
 * be in time; it is deleted in the same check, so two answers to one challenge get one use.
 */
export async function takeWebauthnChallenge(
  kv: Deno.Kv,
  clock: Clock,
  challenge: string,
  purpose: WebauthnChallenge["purpose"],
  accountId?: string,
): Promise<void> {
  const refused = new Unauthorized(
    "This passkey request has expired or was already used. Please try again.",
  );
  if (!challenge || challenge.length > 200) throw refused;
  const entry = await kv.get<WebauthnChallenge>(keys.webauthnChallenge(challenge));
  const value = entry.value;
  if (
    !value || value.purpose !== purpose || value.accountId !== accountId ||
    value.expiresAt <= clock.now()
  ) throw refused;
  const taken = await kv.atomic().check(entry).delete(entry.key).commit();
  if (!taken.ok) throw refused;
}

/** The challenge a WebAuthn response answers, read from its client data (untrusted until verified). */
export function challengeOfResponse(clientDataJSON: unknown): string {
  try {
    const json = new TextDecoder().decode(fromBase64Url(String(clientDataJSON)));
    const challenge = JSON.parse(json).challenge;
    return typeof challenge === "string" ? challenge : "";
  } catch {
    return "";
  }
}

/** Bytes of a base64url string. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** A base64url string (no padding) of bytes. */
export function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}
