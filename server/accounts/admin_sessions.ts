import type { Clock } from "../clock.ts";
import { newToken, randomId, sha256Hex } from "../crypto.ts";
import { keys } from "../kv/keys.ts";
import { getManyBatched, LIST_BATCH } from "../kv/kv_util.ts";
import { type AuditEntry, auditInto } from "../audit/log.ts";
import { deleteSession, type SessionKind, touchSession } from "./sessions.ts";

/** An admin session ends after 2 hours without use, and 12 hours after sign-in at the latest. */
export const ADMIN_IDLE_MS = 2 * 60 * 60 * 1000;
export const ADMIN_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

/** The account id of the owner, whose password is ADMIN_PASSWORD (no stored record). */
export const OWNER_ACCOUNT = "owner";

const ADMIN: SessionKind = {
  key: keys.adminSession,
  idleMs: ADMIN_IDLE_MS,
  absoluteMs: ADMIN_ABSOLUTE_MS,
};

/** Who a session was opened for and on what, as the Security tab lists it. */
export interface AdminSessionStart {
  /** "owner" or a staff member's id. */
  accountId: string;
  /** The browser and system (device_name.ts). */
  device: string;
  /** The client's address as the shop counts it. */
  address: string;
}

/** A stored admin session (under its token's hash). */
export interface AdminSession extends AdminSessionStart {
  /**
   * The id the browser is shown, random and apart from the token: knowing it ends the session
   * through the sessions routes, but never opens one.
   */
  sessionId: string;
  createdAt: number;
  lastSeenAt: number;
}

/** A live session with the hash of its token (to tell the caller's own from the others). */
export interface ListedAdminSession extends AdminSession {
  tokenHash: string;
}

/**
 * Starts an admin session; returns the token for the cookie (only its hash is stored). The
 * session is indexed under its account, and `audit` (the sign-in's entry) commits with it.
 * Sessions made before accounts existed, or without `start`, are the owner's.
 */
export async function createAdminSession(
  kv: Deno.Kv,
  clock: Clock,
  start: AdminSessionStart = { accountId: OWNER_ACCOUNT, device: "Unknown device", address: "" },
  audit?: AuditEntry,
): Promise<string> {
  const token = newToken();
  const tokenHash = await sha256Hex(token);
  const now = clock.now();
  const session: AdminSession = {
    ...start,
    sessionId: randomId(12),
    createdAt: now,
    lastSeenAt: now,
  };
  const op = kv.atomic()
    .set(keys.adminSession(tokenHash), session, { expireIn: ADMIN_ABSOLUTE_MS })
    .set(keys.adminSessionOf(start.accountId, session.sessionId), tokenHash, {
      expireIn: ADMIN_ABSOLUTE_MS,
    });
  if (audit) auditInto(op, audit);
  const done = await op.commit();
  if (!done.ok) throw new Error("the new admin session was not written");
  return token;
}

/**
 * The session of a live token, its idle timer renewed; null when there is none. Sessions from
 * before accounts existed read as the owner's.
 */
export async function touchAdminSession(
  kv: Deno.Kv,
  clock: Clock,
  token: string,
): Promise<AdminSession | null> {
  const session = await touchSession<Partial<AdminSession>>(kv, clock, ADMIN, token);
  if (!session) return null;
  return {
    accountId: session.accountId ?? OWNER_ACCOUNT,
    sessionId: session.sessionId ?? "",
    device: session.device ?? "Unknown device",
    address: session.address ?? "",
    createdAt: session.createdAt,
    lastSeenAt: session.lastSeenAt,
  };
}

/** Ends a session (sign-out). */
export async function deleteAdminSession(kv: Deno.Kv, token: string): Promise<void> {
  if (!token || token.length > 100) return;
  const tokenHash = await sha256Hex(token);
  const session = (await kv.get<Partial<AdminSession>>(keys.adminSession(tokenHash))).value;
  if (session?.accountId && session.sessionId) {
    await kv.atomic()
      .delete(keys.adminSession(tokenHash))
      .delete(keys.adminSessionOf(session.accountId, session.sessionId))
      .commit();
  } else await deleteSession(kv, ADMIN, token);
}

/**
 * The live session of a token as it is stored (its idle timer left alone), with its token's
 * hash; null when there is none or it has lapsed.
 */
export async function findAdminSession(
  kv: Deno.Kv,
  clock: Clock,
  token: string,
): Promise<ListedAdminSession | null> {
  if (!token || token.length > 100) return null;
  const tokenHash = await sha256Hex(token);
  const s = (await kv.get<Partial<AdminSession>>(keys.adminSession(tokenHash))).value;
  const now = clock.now();
  if (!s?.createdAt || !s.lastSeenAt) return null;
  if (now - s.lastSeenAt > ADMIN_IDLE_MS || now - s.createdAt > ADMIN_ABSOLUTE_MS) return null;
  return {
    accountId: s.accountId ?? OWNER_ACCOUNT,
    sessionId: s.sessionId ?? "",
    device: s.device ?? "Unknown device",
    address: s.address ?? "",
    createdAt: s.createdAt,
    lastSeenAt: s.lastSeenAt,
    tokenHash,
  };
}

/**
 * The live sessions of one account, or of every account without one, oldest first. An index
 * entry whose session has ended (idle, signed out) is skipped; it expires on its own.
 */
export async function listAdminSessions(
  kv: Deno.Kv,
  clock: Clock,
  accountId?: string,
): Promise<ListedAdminSession[]> {
  const index = await listEntries<string>(
    kv,
    accountId === undefined ? keys.adminSessionIndex() : keys.adminSessionsOf(accountId),
  );
  const now = clock.now();
  const sessions = await getManyBatched<AdminSession>(
    kv,
    index.map((e) => keys.adminSession(e.value)),
  );
  const live: ListedAdminSession[] = [];
  sessions.forEach((entry, i) => {
    const s = entry.value;
    if (!s || now - s.lastSeenAt > ADMIN_IDLE_MS || now - s.createdAt > ADMIN_ABSOLUTE_MS) return;
    live.push({ ...s, tokenHash: index[i].value });
  });
  return live.sort((a, b) => a.createdAt - b.createdAt);
}

/** Adds the end of a listed session to an atomic write (the change it records joins it). */
export function endAdminSessionInto(
  op: Deno.AtomicOperation,
  session: Pick<ListedAdminSession, "accountId" | "sessionId" | "tokenHash">,
): Deno.AtomicOperation {
  return op.delete(keys.adminSession(session.tokenHash))
    .delete(keys.adminSessionOf(session.accountId, session.sessionId));
}

/** Sessions deleted per atomic write when an account's sessions all end (well under KV's limit). */
const END_BATCH = 100;

/**
 * Ends every session of an account, whether live or idle (a removed member). Each batch is an
 * atomic write of its own; the account's removal has already refused them (admin_auth.ts).
 */
export async function endAllAdminSessions(kv: Deno.Kv, accountId: string): Promise<void> {
  const index = await listEntries<string>(kv, keys.adminSessionsOf(accountId));
  for (let i = 0; i < index.length; i += END_BATCH) {
    const op = kv.atomic();
    for (const entry of index.slice(i, i + END_BATCH)) {
      op.delete(entry.key).delete(keys.adminSession(entry.value));
    }
    await op.commit();
  }
}

/** Every entry under an index prefix. */
async function listEntries<T>(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Deno.KvEntry<T>[]> {
  const entries: Deno.KvEntry<T>[] = [];
  for await (const entry of kv.list<T>({ prefix }, { batchSize: LIST_BATCH })) entries.push(entry);
  return entries;
}
