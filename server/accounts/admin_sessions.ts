import type { Clock } from "../clock.ts";
import { keys } from "../kv/keys.ts";
import { createSession, deleteSession, type SessionKind, touchSession } from "./sessions.ts";

/** An admin session ends after 2 hours without use, and 12 hours after sign-in at the latest. */
export const ADMIN_IDLE_MS = 2 * 60 * 60 * 1000;
export const ADMIN_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

const ADMIN: SessionKind = {
  key: keys.adminSession,
  idleMs: ADMIN_IDLE_MS,
  absoluteMs: ADMIN_ABSOLUTE_MS,
};

/** Starts an admin session; returns the token for the cookie (only its hash is stored). */
export async function createAdminSession(kv: Deno.Kv, clock: Clock): Promise<string> {
  return await createSession(kv, clock, ADMIN);
}

/** Whether a token is a live session; a live one has its idle timer renewed. */
export async function touchAdminSession(
  kv: Deno.Kv,
  clock: Clock,
  token: string,
): Promise<boolean> {
  return (await touchSession(kv, clock, ADMIN, token)) !== null;
}

/** Ends a session. */
export async function deleteAdminSession(kv: Deno.Kv, token: string): Promise<void> {
  await deleteSession(kv, ADMIN, token);
}
