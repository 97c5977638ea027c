/**
 * Authorisation of every /api/admin and /api/test request, mounted once in app.ts: first who is
 * asking (the admin check, skipped only for the routes the table marks `signed_out`: signing in
 * and out), then whether their role may do what the route needs (shared/admin_permissions.ts).
 * A refusal is 403 naming the role needed, never 401: the credential was right, so a script must
 * not retry it and a staff member must not be sent back to the sign-in form.
 */
import type { MiddlewareHandler } from "hono";
import { PERSON_ONLY, refusalFor, roleCan, routeNeed } from "../../shared/admin_permissions.ts";
import type { AppDeps } from "../deps.ts";
import { Forbidden } from "../errors.ts";
import { actorOf } from "./actor_context.ts";
import { requireAdmin } from "./admin_auth.ts";

/** Why an API key is refused a person's own security routes. */
export const KEY_HAS_NO_SECURITY =
  "An API key has no second factors or sessions of its own: sign in to the dashboard to change yours.";

/**
 * The gate of every admin request: the route's need is read once; signing in and out pass, every
 * other route needs a signed-in actor whose role has the need.
 */
export function adminGate(deps: AppDeps): MiddlewareHandler {
  const adminOnly = requireAdmin(deps);
  return async function gate(c, next) {
    const need = routeNeed(c.req.method, c.req.path);
    if (need === "signed_out") return await next();
    return await adminOnly(c, async () => {
      const actor = actorOf(c);
      if (!roleCan(actor.role, need)) throw new Forbidden(refusalFor(need));
      // Second factors and sessions belong to people: a script's key has none to change.
      if (actor.kind === "key" && PERSON_ONLY.includes(need)) {
        throw new Forbidden(KEY_HAS_NO_SECURITY);
      }
      await next();
    });
  };
}
