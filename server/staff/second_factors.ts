/**
 * The store of every account's second factors: its TOTP secret (with the last step it used), its
 * passkeys and the hashes of its recovery codes, in one record per account ("owner" or a staff
 * member's id), changed only through `changeFactors`, which commits each change with the entries
 * the caller adds (the audit log's, a challenge spent) in one atomic write.
 */
import { keys } from "../kv/keys.ts";
import { CONFLICT, withRetries } from "../kv/kv_util.ts";

/** A passkey: a WebAuthn credential the account registered. */
export interface StoredPasskey {
  /** The credential id (base64url), as the authenticator names it. */
  id: string;
  /** The owner's name for it ("MacBook Touch ID"). */
  name: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The authenticator's signature counter (0 for passkeys that keep none). */
  counter: number;
  transports?: string[];
  addedAt: number;
  lastUsedAt?: number;
}

/** An account's second factors. */
export interface AccountFactors {
  /** The confirmed TOTP secret (base32). */
  totp?: { secret: string; addedAt: number };
  /** A secret being set up: shown once, active only once a code from it is confirmed. */
  pendingTotp?: { secret: string; startedAt: number };
  /** The last TOTP step accepted, so no code is used twice. */
  lastTotpStep?: number;
  passkeys: StoredPasskey[];
  /** Hashes of the unused recovery codes. */
  recoveryCodes: string[];
}

const EMPTY: AccountFactors = { passkeys: [], recoveryCodes: [] };

/** An account's factors (none yet: an empty record). */
export async function factorsOf(kv: Deno.Kv, accountId: string): Promise<AccountFactors> {
  return (await kv.get<AccountFactors>(keys.secondFactors(accountId))).value ?? { ...EMPTY };
}

/** Whether an account has a factor that signs in (TOTP or a passkey; codes alone are a fallback). */
export function hasSecondFactor(factors: AccountFactors): boolean {
  return factors.totp !== undefined || factors.passkeys.length > 0;
}

/** Whether the account `accountId` has a second factor. */
export async function accountHasSecondFactor(kv: Deno.Kv, accountId: string): Promise<boolean> {
  return hasSecondFactor(await factorsOf(kv, accountId));
}

/** The methods a sign-in challenge offers for an account's factors. */
export function methodsOf(factors: AccountFactors): string[] {
  const methods: string[] = [];
  if (factors.totp) methods.push("totp");
  if (factors.passkeys.length > 0) methods.push("passkey");
  if (factors.recoveryCodes.length > 0) methods.push("recovery_code");
  return methods;
}

/**
 * Changes an account's factors: `change` gets a copy to edit and the atomic write it will be
 * committed in (to add an audit entry or other keys), and answers what the caller gets. The
 * record is checked unchanged since it was read, so two changes racing (the same TOTP code sent
 * twice at once) are taken one after the other and the second sees the first. A `change` that
 * throws writes nothing.
 */
export function changeFactors<T>(
  kv: Deno.Kv,
  accountId: string,
  change: (factors: AccountFactors, op: Deno.AtomicOperation) => T | Promise<T>,
): Promise<T> {
  const key = keys.secondFactors(accountId);
  return withRetries(
    async () => {
      const entry = await kv.get<AccountFactors>(key);
      const factors: AccountFactors = structuredClone(entry.value ?? EMPTY);
      const op = kv.atomic().check(entry);
      const result = await change(factors, op);
      op.set(key, factors);
      return (await op.commit()).ok ? result : CONFLICT;
    },
    "change the second factors",
    `factors ${accountId}`,
  );
}

/**
 * Adds to `op` the removal of every factor of `accountId` (its record and each passkey's entry in
 * the passwordless sign-in's index), checked unchanged since read: a removed member's passkey
 * must not go on naming an account, nor a later account of the same id inherit its factors.
 */
export async function dropFactorsInto(
  kv: Deno.Kv,
  accountId: string,
  op: Deno.AtomicOperation,
): Promise<void> {
  const entry = await kv.get<AccountFactors>(keys.secondFactors(accountId));
  op.check(entry).delete(entry.key);
  for (const passkey of entry.value?.passkeys ?? []) op.delete(keys.passkeyAccount(passkey.id));
}
