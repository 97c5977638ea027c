import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppDeps } from "../deps.ts";
import { Unauthorized } from "../errors.ts";
import { secretsEqual, sha256Hex } from "../crypto.ts";
import { deleteAdminSession, touchAdminSession } from "../accounts/admin_sessions.ts";
import { actorOfAccount, ownerActor } from "../staff/session_actor.ts";
import { beginAdminAttempt } from "../accounts/login_limits.ts";
import { passwordCaller } from "./password_caller.ts";
import { clientKey } from "./client_key.ts";
import type { Actor } from "../audit/actor.ts";
import { apiKeyActor } from "../staff/api_keys.ts";
import { refuseBearerPassword } from "../staff/bearer_password.ts";
import { refuseUntilEnrolled } from "../staff/enrolment_gate.ts";

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

/**
 * Requires an admin: the session cookie, `Authorization: Bearer <API key>` (a script, acting with
 * its key's name and role: staff/api_keys.ts) or `Authorization: Bearer <ADMIN_PASSWORD>` (the
 * spec's Mark Delivered call) while the owner has no second factor. Anything else is 401 JSON. A
 * staff session that must set up a second factor first reaches only the factor routes. A bearer
 * (key or password) is an attempt
 * like a login (login_limits.ts): counted before it is compared, and given back when right, so
 * a script may have up to 5 requests in flight per client (one while the admin's ceiling is
 * passed, as a client's first attempt is the one let through then).
 */
export function requireAdmin(deps: AppDeps): MiddlewareHandler {
  return async function adminOnly(c, next) {
    const token = getCookie(c, adminCookieName(deps.config.production));
    if (token) {
      const actor = await sessionActor(deps, c, token);
      if (actor) {
        c.set("actor", actor);
        await refuseUntilEnrolled(deps.kv, actor, c.req.path);
        return await next();
      }
    }
    const auth = c.req.header("Authorization") ?? "";
    const bearer = /^Bearer (.+)$/i.exec(auth)?.[1];
    if (bearer !== undefined) {
      const attempt = await beginAdminAttempt(
        deps.kv,
        deps.clock,
        passwordCaller(c, deps.config.production),
      );
      const keyActor = await apiKeyActor(deps, bearer, clientKey(c));
      if (keyActor) {
        await attempt.succeeded();
        c.set("actor", keyActor);
        return await next();
      }
      if (await secretsEqual(bearer, deps.config.adminPassword)) {
        await attempt.succeeded();
        await refuseBearerPassword(deps.kv);
        c.set("actor", ownerActor(clientKey(c)));
        return await next();
      }
    }
    throw new Unauthorized("Admin authentication required");
  };
}

/**
 * The actor of a session cookie, or null. A live session whose account is gone (a removed member)
 * is deleted and refused with a sentence the open dashboard can show.
 */
async function sessionActor(deps: AppDeps, c: Context, token: string): Promise<Actor | null> {
  const session = await touchAdminSession(deps.kv, deps.clock, token);
  if (!session) return null;
  const actor = await actorOfAccount(
    deps.kv,
    session.accountId,
    clientKey(c),
    await sha256Hex(token),
  );
  if (actor) return actor;
  await deleteAdminSession(deps.kv, token);
  throw new Unauthorized(SIGNED_OUT);
}

/** What a removed member's open dashboard reads on its next request. */
export const SIGNED_OUT = "You have been signed out: this account no longer has access.";
