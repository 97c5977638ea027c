import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppDeps } from "../deps.ts";
import { Unauthorized } from "../errors.ts";
import { secretsEqual } from "../crypto.ts";
import { touchAdminSession } from "../db/admin_sessions.ts";
import { countHit, isLimited, type RateLimit } from "../db/rate_limit.ts";
import { LimitReached } from "../errors.ts";
import { clientKey } from "./client_key.ts";

/** Five wrong passwords a minute per client, then 429 (docs/decisions.md#admin-authentication). */
export const ADMIN_LOGIN_LIMIT: RateLimit = { bucket: "admin-login", max: 5, windowMs: 60_000 };

/** The cookie's name: `__Host-` binds it to this origin over HTTPS (production). */
export function adminCookieName(production: boolean): string {
  return production ? "__Host-admin_session" : "admin_session";
}

/** Sets the HttpOnly, SameSite=Strict session cookie. */
export function setAdminCookie(c: Context, production: boolean, token: string): void {
  setCookie(c, adminCookieName(production), token, {
    httpOnly: true,
    sameSite: "Strict",
    secure: production,
    path: "/",
  });
}

/** Clears the session cookie. */
export function clearAdminCookie(c: Context, production: boolean): void {
  deleteCookie(c, adminCookieName(production), { path: "/", secure: production });
}

/** Refuses a client that failed too often, before any password is even compared. */
export async function ensureNotLocked(deps: AppDeps, c: Context): Promise<void> {
  if (await isLimited(deps.kv, deps.clock, ADMIN_LOGIN_LIMIT, clientKey(c))) {
    throw new LimitReached("Too many wrong passwords. Please wait a minute and try again.");
  }
}

/** Counts a wrong password for the client. */
export async function countFailure(deps: AppDeps, c: Context): Promise<void> {
  await countHit(deps.kv, deps.clock, ADMIN_LOGIN_LIMIT, clientKey(c));
}

/**
 * Requires an admin: the session cookie, or `Authorization: Bearer <ADMIN_PASSWORD>` (the spec's
 * Mark Delivered call and scripts). Anything else is 401 JSON; wrong bearer passwords count
 * toward the brute-force limit like wrong logins.
 */
export function requireAdmin(deps: AppDeps): MiddlewareHandler {
  return async function adminOnly(c, next) {
    const token = getCookie(c, adminCookieName(deps.config.production));
    if (token && await touchAdminSession(deps.kv, deps.clock, token)) return await next();
    const auth = c.req.header("Authorization") ?? "";
    const bearer = /^Bearer (.+)$/i.exec(auth)?.[1];
    if (bearer !== undefined) {
      await ensureNotLocked(deps, c);
      if (await secretsEqual(bearer, deps.config.adminPassword)) return await next();
      await countFailure(deps, c);
    }
    throw new Unauthorized("Admin authentication required");
  };
}
