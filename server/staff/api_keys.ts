/**
 * Scripts' API keys: made by the owner with a name, a role and an optional end, shown once,
 * stored as their SHA-256 only, listed with their last use, revoked at once. A key's bearer acts
 * as the key (its name is what the audit log records), with the key's role.
 *
 * SHA-256, not a slow password hash: a key is 32 random bytes, so nobody can guess it from its
 * hash however fast the hash is, while a slow hash would cost every script's every request a
 * hashing's CPU (and an unknown key the same, which an attacker could spend).
 */
import type { Clock } from "../clock.ts";
import { InvalidInput, NotFound, Unauthorized } from "../errors.ts";
import { randomId, sha256Hex } from "../crypto.ts";
import { keys } from "../kv/keys.ts";
import type { Actor } from "../audit/actor.ts";
import { auditEntry, auditInto } from "../audit/log.ts";
import type { Role } from "../../shared/roles.ts";
import type { ApiKeyView, CreatedApiKeyView } from "../../shared/api_types.ts";
import {
  accountOfKey,
  API_KEY_PREFIX,
  type ApiKeyRecord,
  expiryProblem,
  keyIsLive,
  keyRole,
  lastUseDue,
  looksLikeApiKey,
} from "./api_key_rules.ts";
import { OWNER_ACCOUNT } from "../accounts/admin_sessions.ts";
import { getMember } from "./staff_accounts.ts";

/** What the key functions need. */
export interface KeyDeps {
  kv: Deno.Kv;
  clock: Clock;
}

/** A new key's terms, as the route validated them (expiresAt in ms). */
export interface NewKey {
  name: string;
  role: Role;
  expiresAt?: number;
}

/**
 * The role a key acts with now: its own, at most its member's current role, and null once its
 * member is removed (the key is refused). The bearer check and the list read it the same way.
 */
async function roleActedAs(kv: Deno.Kv, key: ApiKeyRecord): Promise<Role | null> {
  const account = accountOfKey(key);
  if (account === null || account === OWNER_ACCOUNT) return key.role;
  const member = (await getMember(kv, account)).value;
  if (!member || member.status !== "active") return null;
  return keyRole(key.role, member.role);
}

/** The list's view of a key: never the key nor its hash. */
export function apiKeyView(key: ApiKeyRecord, actsAs: Role | null = key.role): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    role: key.role,
    actsAs,
    createdAt: new Date(key.createdAt).toISOString(),
    expiresAt: key.expiresAt === null ? null : new Date(key.expiresAt).toISOString(),
    lastUsedAt: key.lastUsedAt === null ? null : new Date(key.lastUsedAt).toISOString(),
    createdBy: key.createdBy.name,
  };
}

/** Makes a key for `actor`; answers it with the key itself, which is never shown again. */
export async function createApiKey(
  deps: KeyDeps,
  actor: Actor,
  terms: NewKey,
): Promise<CreatedApiKeyView> {
  const now = deps.clock.now();
  const problem = expiryProblem(terms.expiresAt, now);
  if (problem) throw new InvalidInput(problem);
  const account = await accountOfMaker(deps.kv, actor);
  const key = `${API_KEY_PREFIX}${randomId(32)}`;
  const record: ApiKeyRecord = {
    id: randomId(9),
    name: terms.name,
    role: terms.role,
    hash: await sha256Hex(key),
    createdAt: now,
    expiresAt: terms.expiresAt ?? null,
    lastUsedAt: null,
    createdBy: { kind: actor.kind, id: actor.id, name: actor.name },
    ...(account === null ? {} : { account }),
  };
  const expiresAt = record.expiresAt === null ? null : new Date(record.expiresAt).toISOString();
  const op = deps.kv.atomic()
    .check({ key: keys.apiKey(record.id), versionstamp: null })
    .check({ key: keys.apiKeyByHash(record.hash), versionstamp: null })
    .set(keys.apiKey(record.id), record)
    .set(keys.apiKeyByHash(record.hash), record.id);
  auditInto(
    op,
    auditEntry(deps.clock, actor, {
      kind: "keys",
      action: "key.created",
      target: record.name,
      changes: {
        name: { from: null, to: record.name },
        role: { from: null, to: record.role },
        expiresAt: { from: null, to: expiresAt },
      },
    }),
  );
  // 72 random bits of id and 256 of key: a collision is not a case to retry.
  if (!(await op.commit()).ok) throw new Error("An API key's id or hash was taken");
  return { ...apiKeyView(record), key };
}

/**
 * The account a new key answers for: its maker's, or, when a key makes it, that key's account
 * (so a member cannot outlive their role through a chain of keys).
 */
async function accountOfMaker(kv: Deno.Kv, actor: Actor): Promise<string | null> {
  if (actor.kind !== "key") return actor.id;
  const maker = (await kv.get<ApiKeyRecord>(keys.apiKey(actor.id))).value;
  if (!maker) throw new Unauthorized("This API key was revoked meanwhile.");
  return accountOfKey(maker);
}

/** Every key, newest first. */
export async function listApiKeys(kv: Deno.Kv): Promise<ApiKeyView[]> {
  const found: ApiKeyRecord[] = [];
  for await (const entry of kv.list<ApiKeyRecord>({ prefix: keys.apiKeys() })) {
    found.push(entry.value);
  }
  found.sort((a, b) => b.createdAt - a.createdAt);
  return await Promise.all(found.map(async (key) => apiKeyView(key, await roleActedAs(kv, key))));
}

/** Revokes a key: from this write on, its bearer gets 401. */
export async function revokeApiKey(deps: KeyDeps, actor: Actor, id: string): Promise<void> {
  const entry = await deps.kv.get<ApiKeyRecord>(keys.apiKey(id));
  const key = entry.value;
  if (!key) throw new NotFound("No API key with this id (it may be revoked already)");
  const op = deps.kv.atomic()
    .check(entry)
    .delete(keys.apiKey(id))
    .delete(keys.apiKeyByHash(key.hash));
  auditInto(
    op,
    auditEntry(deps.clock, actor, { kind: "keys", action: "key.revoked", target: key.name }),
  );
  // Its last use was written meanwhile: revoke what is there now.
  if (!(await op.commit()).ok) return await revokeApiKey(deps, actor, id);
}

/**
 * The actor a bearer credential is, when it is a live key; null for anything else (an unknown,
 * expired or revoked key, or not a key at all). The caller counts the attempt first.
 */
export async function apiKeyActor(
  deps: KeyDeps,
  bearer: string,
  from: string,
): Promise<Actor | null> {
  if (!looksLikeApiKey(bearer)) return null;
  const id = await deps.kv.get<string>(keys.apiKeyByHash(await sha256Hex(bearer)));
  if (!id.value) return null;
  const entry = await deps.kv.get<ApiKeyRecord>(keys.apiKey(id.value));
  const key = entry.value;
  const now = deps.clock.now();
  if (!key || !keyIsLive(key, now)) return null;
  // A member's key acts with the member's role now, at most, and stops when they are removed.
  const role = await roleActedAs(deps.kv, key);
  if (role === null) return null;
  if (lastUseDue(key, now)) {
    // Checked against what was read, so a key revoked meanwhile is not written back; a lost
    // race means another request wrote the same minute's use.
    await deps.kv.atomic().check(entry).set(entry.key, { ...key, lastUsedAt: now }).commit();
  }
  return { kind: "key", id: key.id, name: key.name, role, from };
}
