import type { Clock } from "../deps.ts";
import { newToken, sha256Hex } from "../crypto.ts";
import { keys } from "./keys.ts";

/** An admin session ends after 2 hours without use, and 12 hours after sign-in at the latest. */
export const ADMIN_IDLE_MS = 2 * 60 * 60 * 1000;
export const ADMIN_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

interface AdminSession {
  createdAt: number;
  lastSeenAt: number;
}

/** Starts an admin session; returns the token for the cookie (only its hash is stored). */
export async function createAdminSession(kv: Deno.Kv, clock: Clock): Promise<string> {
  const token = newToken();
  const now = clock.now();
  await kv.set(keys.adminSession(await sha256Hex(token)), { createdAt: now, lastSeenAt: now }, {
    expireIn: ADMIN_ABSOLUTE_MS,
  });
  return token;
}

/** Whether a token is a live session; a live one has its idle timer renewed. */
export async function touchAdminSession(
  kv: Deno.Kv,
  clock: Clock,
  token: string,
): Promise<boolean> {
  if (!token || token.length > 100) return false;
  const key = keys.adminSession(await sha256Hex(token));
  const entry = await kv.get<AdminSession>(key);
  const now = clock.now();
  const session = entry.value;
  if (
    !session || now - session.lastSeenAt > ADMIN_IDLE_MS ||
    now - session.createdAt > ADMIN_ABSOLUTE_MS
  ) {
    if (session) await kv.delete(key);
    return false;
  }
  // Renewing at most once a minute keeps reads cheap.
  if (now - session.lastSeenAt > 60_000) {
    await kv.set(key, { ...session, lastSeenAt: now }, {
      expireIn: Math.max(1, ADMIN_ABSOLUTE_MS - (now - session.createdAt)),
    });
  }
  return true;
}

/** Ends a session. */
export async function deleteAdminSession(kv: Deno.Kv, token: string): Promise<void> {
  if (token) await kv.delete(keys.adminSession(await sha256Hex(token)));
}
