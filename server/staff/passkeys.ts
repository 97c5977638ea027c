/**
 * Passkeys (WebAuthn): adding one to an account, listing and removing them, and checking an
 * assertion at sign-in. The relying party is the shop's own origin (PUBLIC_URL, or the request's
 * checked origin in development), so a passkey made for the shop works nowhere else. Every
 * passkey must verify its user (a PIN or a fingerprint), which makes it two factors on its own.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { SHOP_NAME } from "../../shared/policy.ts";
import type { PasskeyView } from "../../shared/second_factor_views.ts";
import type { Clock } from "../clock.ts";
import { InvalidInput, NotFound, Unauthorized } from "../errors.ts";
import { keys } from "../kv/keys.ts";
import type { Actor } from "../audit/actor.ts";
import { auditEntry, auditInto } from "../audit/log.ts";
import { changeFactors, factorsOf, hasSecondFactor, type StoredPasskey } from "./second_factors.ts";
import { endOtherSessionsAfter, endOtherSessionsInto } from "./staff_sessions.ts";
import {
  challengeOfResponse,
  fromBase64Url,
  keepWebauthnChallenge,
  takeWebauthnChallenge,
  toBase64Url,
} from "./webauthn_challenges.ts";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery_codes.ts";
import { loadOnce } from "../load_once.ts";

/**
 * The WebAuthn library, loaded when a passkey is first added or used: it brings an X.509 and
 * ASN.1 stack whose loading cost about 0.15 s of a core in every process that started (measured),
 * and most processes (an isolate answering shoppers) never meet a passkey.
 */
const webauthn = loadOnce(() => import("@simplewebauthn/server"));

/** Passkeys one account may hold: plenty for every device, and a bound on the record's size. */
export const MAX_PASSKEYS = 10;

/** The longest credential id WebAuthn allows (its spec's limit, in bytes). */
export const MAX_CREDENTIAL_ID_BYTES = 1023;

/**
 * The largest COSE public key kept: an EC key is under 100 bytes, RSA-4096 about 550, and the
 * post-quantum ML-DSA keys browsers now offer first 1,312 (ML-DSA-44) to 2,592 bytes (ML-DSA-87),
 * with the map's few bytes around them. Ten passkeys of this size still fit the account's record.
 */
export const MAX_PUBLIC_KEY_BYTES = 2_700;

/** The transports WebAuthn names; the browser's list is the client's word, so only these are kept. */
const TRANSPORTS = new Set(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]);

/** The known transports of a registration's list, each once (none: undefined, as the library has). */
function knownTransports(list: readonly string[] | undefined): StoredPasskey["transports"] {
  if (!Array.isArray(list)) return undefined;
  return [...new Set(list.filter((t) => typeof t === "string" && TRANSPORTS.has(t)))];
}

/** A passkey's listing. */
export function passkeyView(p: StoredPasskey): PasskeyView {
  return {
    id: p.id,
    name: p.name,
    addedAt: new Date(p.addedAt).toISOString(),
    lastUsedAt: p.lastUsedAt ? new Date(p.lastUsedAt).toISOString() : null,
  };
}

function rpIdOf(origin: string): string {
  return new URL(origin).hostname;
}

/** Options for adding a passkey to `actor`'s account; the challenge is kept server-side. */
export async function registrationOptions(
  kv: Deno.Kv,
  clock: Clock,
  origin: string,
  actor: Actor,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const factors = await factorsOf(kv, actor.id);
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: SHOP_NAME,
    rpID: rpIdOf(origin),
    userName: actor.name,
    // The user handle names the account, so a passwordless sign-in could find it; the credential
    // id is what the shop looks it up by, and this is no secret.
    userID: new TextEncoder().encode(actor.id),
    userDisplayName: actor.name,
    attestationType: "none",
    excludeCredentials: factors.passkeys.map((p) => ({ id: p.id, transports: p.transports })),
    // Discoverable, so "Sign in with a passkey" needs no name; verified, so it is two factors.
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await keepWebauthnChallenge(kv, clock, options.challenge, "register", actor.id);
  return options;
}

/** What adding a passkey answers: the passkey, and recovery codes when the account had none. */
export interface AddedPasskey {
  passkey: PasskeyView;
  recoveryCodes?: string[];
}

/**
 * Adds the passkey a browser created for options of `registrationOptions`: its challenge is taken
 * once, the attestation verified against the shop's origin, and the passkey stored with its
 * audit entry (and first recovery codes) in one write.
 */
export async function addPasskey(
  kv: Deno.Kv,
  clock: Clock,
  origin: string,
  actor: Actor,
  name: string,
  response: RegistrationResponseJSON,
): Promise<AddedPasskey> {
  // Loaded before the challenge is taken: a library that failed to load leaves it for a retry.
  const { verifyRegistrationResponse } = await webauthn();
  const challenge = challengeOfResponse(response.response?.clientDataJSON);
  await takeWebauthnChallenge(kv, clock, challenge, "register", actor.id);
  let info;
  try {
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpIdOf(origin),
      requireUserVerification: true,
    });
    if (!verified.verified) throw new Error("not verified");
    info = verified.registrationInfo;
  } catch {
    throw new InvalidInput("The passkey could not be verified. Please try again.");
  }
  const credential = info.credential;
  // The attestation's own credential id (not the JSON's, which the schema bounds): WebAuthn caps
  // it at 1023 bytes, and a longer one would not fit a KV key (a 500 where it is looked up).
  // Likewise its public key: a COSE map may carry junk the library ignores, and every passkey
  // of an account is kept in one record (KV's 64 KB a value), so real keys' size is the bound.
  if (
    fromBase64Url(credential.id).length > MAX_CREDENTIAL_ID_BYTES ||
    credential.publicKey.length > MAX_PUBLIC_KEY_BYTES
  ) {
    throw new InvalidInput("The passkey could not be verified. Please try again.");
  }
  const codes = newRecoveryCodes();
  const hashes = await Promise.all(codes.map(hashRecoveryCode));
  let first = false;
  const added = await changeFactors(kv, actor.id, async (factors, op) => {
    // A "none" attestation may name any credential id, another account's too: the index's check
    // below would then fail on every retry, so a taken id is refused here, as a duplicate.
    const owner = await kv.get<string>(keys.passkeyAccount(credential.id));
    if (owner.value !== null || factors.passkeys.some((p) => p.id === credential.id)) {
      throw new InvalidInput("This passkey is already added.");
    }
    if (factors.passkeys.length >= MAX_PASSKEYS) {
      throw new InvalidInput(`An account has at most ${MAX_PASSKEYS} passkeys; remove one first.`);
    }
    const passkey: StoredPasskey = {
      id: credential.id,
      name,
      publicKey: toBase64Url(credential.publicKey),
      counter: credential.counter,
      transports: knownTransports(credential.transports),
      addedAt: clock.now(),
    };
    first = !hasSecondFactor(factors);
    factors.passkeys.push(passkey);
    const firstCodes = factors.recoveryCodes.length === 0;
    if (firstCodes) factors.recoveryCodes = hashes;
    op.check({ key: keys.passkeyAccount(credential.id), versionstamp: null })
      .set(keys.passkeyAccount(credential.id), actor.id);
    auditInto(
      op,
      auditEntry(clock, actor, {
        kind: "security",
        action: "factor.added",
        target: `passkey ${name}`,
      }),
    );
    if (first) await endOtherSessionsInto({ kv, clock }, actor, op);
    return { passkey: passkeyView(passkey), recoveryCodes: firstCodes ? codes : undefined };
  });
  if (first) await endOtherSessionsAfter({ kv, clock }, actor);
  return added;
}

/** The passkeys of an account. */
export async function listPasskeys(kv: Deno.Kv, accountId: string): Promise<PasskeyView[]> {
  return (await factorsOf(kv, accountId)).passkeys.map(passkeyView);
}

/**
 * Removes one of `actor`'s passkeys, with its audit entry; the last factor gone takes the
 * recovery codes with it (with no factor the password alone opens the account again).
 */
export function removePasskey(
  kv: Deno.Kv,
  clock: Clock,
  actor: Actor,
  passkeyId: string,
): Promise<void> {
  return changeFactors(kv, actor.id, (factors, op) => {
    const passkey = factors.passkeys.find((p) => p.id === passkeyId);
    if (!passkey) throw new NotFound("No such passkey");
    factors.passkeys = factors.passkeys.filter((p) => p.id !== passkeyId);
    if (!factors.totp && factors.passkeys.length === 0) factors.recoveryCodes = [];
    op.delete(keys.passkeyAccount(passkeyId));
    auditInto(
      op,
      auditEntry(clock, actor, {
        kind: "security",
        action: "factor.removed",
        target: `passkey ${passkey.name}`,
      }),
    );
  });
}

/**
 * Options for signing in with a passkey: for one account's passkeys (the second step after a
 * password), or for any discoverable one (passwordless; its challenge is then kept here).
 */
export async function assertionOptions(
  kv: Deno.Kv,
  clock: Clock,
  origin: string,
  accountId?: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const allow = accountId === undefined
    ? undefined
    : (await factorsOf(kv, accountId)).passkeys.map((p) => ({
      id: p.id,
      transports: p.transports,
    }));
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: rpIdOf(origin),
    allowCredentials: allow,
    userVerification: "required",
  });
  if (accountId === undefined) await keepWebauthnChallenge(kv, clock, options.challenge, "sign_in");
  return options;
}

/** The account a passkey assertion names by its credential id (passwordless sign-in). */
export async function accountOfPasskey(
  kv: Deno.Kv,
  response: AuthenticationResponseJSON,
): Promise<string> {
  const id = typeof response?.id === "string" && response.id.length <= 1400 ? response.id : "";
  const accountId = id ? (await kv.get<string>(keys.passkeyAccount(id))).value : null;
  if (!accountId) throw new Unauthorized("This passkey is not known to the shop.");
  return accountId;
}

/** The challenge an assertion answers (to take it before verifying). */
export function assertionChallenge(response: AuthenticationResponseJSON): string {
  return challengeOfResponse(response?.response?.clientDataJSON);
}

/**
 * Verifies an assertion by one of `accountId`'s passkeys for `expectedChallenge`; answers the
 * passkey's id and its new counter (to be stored with the sign-in). A wrong one is Unauthorized.
 */
export async function verifyAssertion(
  kv: Deno.Kv,
  origin: string,
  accountId: string,
  expectedChallenge: string,
  response: AuthenticationResponseJSON,
): Promise<{ passkeyId: string; counter: number }> {
  const factors = await factorsOf(kv, accountId);
  const passkey = factors.passkeys.find((p) => p.id === response?.id);
  const refused = new Unauthorized("The passkey was not accepted. Please try again.");
  if (!passkey) throw refused;
  const { verifyAuthenticationResponse } = await webauthn();
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpIdOf(origin),
      credential: {
        id: passkey.id,
        publicKey: fromBase64Url(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: true,
    });
    if (!verified.verified) throw refused;
    return { passkeyId: passkey.id, counter: verified.authenticationInfo.newCounter };
  } catch {
    throw refused;
  }
}
