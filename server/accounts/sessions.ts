import type { Clock } from "../clock.ts";
import { newToken, sha256Hex } from "../crypto.ts";

/** A kind of session (admin, shopper): where it is kept and how long it lives. */
export interface SessionKind {
  key: (tokenHash: string) => Deno.KvKey;
  /** Ends after this long without use... */
  idleMs: number;
  /** ...and this long after sign-in at the latest. */
  absoluteMs: number;
}

interface SessionTimes {
  createdAt: number;
  lastSeenAt: number;
}

/** Starts a session holding `data`; returns the token (only its hash is stored). */
export async function createSession(
  kv: Deno.Kv,
  clock: Clock,
  kind: SessionKind,
  data: Record<string, unknown> = {},
): Promise<string> {
  const token = newToken();
  const now = clock.now();
  await kv.set(kind.key(await sha256Hex(token)), { ...data, createdAt: now, lastSeenAt: now }, {
    expireIn: kind.absoluteMs,
  });
  return token;
}

/**
 * The session of a token if it is live, renewing its idle timer; a stale one is deleted. Renewal
 * happens at most once a minute, so most requests only read.
 */
export async function touchSession<T extends object>(
  kv: Deno.Kv,
  clock: Clock,
  kind: SessionKind,
  token: string,
): Promise<(T & SessionTimes) | null> {
  if (!token || token.length > 100) return null;
  const key = kind.key(await sha256Hex(token));
  const entry = await kv.get<T & SessionTimes>(key);
  const session = entry.value;
  const now = clock.now();
  if (!session) return null;
  if (now - session.lastSeenAt > kind.idleMs || now - session.createdAt > kind.absoluteMs) {
    await kv.delete(key);
    return null;
  }
  if (now - session.lastSeenAt > 60_000) {
    const renewed = { ...session, lastSeenAt: now };
    // Checked, so a renewal racing the session's end (a sign-out, a removed member) cannot
    // write the session back; if it lost that race, the next request finds nothing.
    await kv.atomic().check(entry).set(key, renewed, {
      expireIn: Math.max(1, kind.absoluteMs - (now - session.createdAt)),
    }).commit();
    return renewed;
  }
  return session;
}

/** Ends a session. */
export async function deleteSession(kv: Deno.Kv, kind: SessionKind, token: string): Promise<void> {
  if (token) await kv.delete(kind.key(await sha256Hex(token)));
}
