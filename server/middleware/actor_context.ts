import type { Context } from "hono";
import type { Actor } from "../audit/actor.ts";
import { Unauthorized } from "../errors.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** Who is acting in an admin request; set by the admin check (admin_auth.ts). */
    actor: Actor;
  }
}

/** The actor of an admin request; a route outside the admin check has none and is refused. */
export function actorOf(c: Context): Actor {
  const actor = c.get("actor");
  if (!actor) throw new Unauthorized("Admin authentication required");
  return actor;
}
