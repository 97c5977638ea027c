import { Hono } from "hono";
import { z } from "zod";
import {
  adminSessionsQuerySchema,
  inviteAcceptSchema,
  staffInviteSchema,
  staffRoleSchema,
} from "../../shared/schemas.ts";
import type { InviteAcceptView } from "../../shared/api_types.ts";
import type { AppDeps } from "../deps.ts";
import { clearAdminCookie } from "../middleware/admin_auth.ts";
import { actorOf } from "../middleware/actor_context.ts";
import { clientKey } from "../middleware/client_key.ts";
import { originOf } from "../middleware/shop_origin.ts";
import { validateJson, validateParams, validateQuery } from "../http/validate.ts";
import { changeRole, listMembers, removeMember } from "../staff/staff_accounts.ts";
import { acceptInvitation, inviteStaff } from "../staff/invitations.ts";
import { endSessionFor, listSessionsFor } from "../staff/staff_sessions.ts";

const idParam = z.object({ id: z.string().min(1).max(64) });

/**
 * The owner's staff (the role table, shared/admin_permissions.ts, keeps them the owner's): list, invite (or invite again),
 * change a role, remove.
 */
export function adminStaffRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  app.get("/", async (c) => {
    return c.json(await listMembers(deps));
  });

  app.post("/", validateJson(staffInviteSchema), async (c) => {
    const actor = actorOf(c);
    return c.json(await inviteStaff(deps, actor, c.req.valid("json"), originOf(c)), 201);
  });

  app.patch("/:id", validateParams(idParam), validateJson(staffRoleSchema), async (c) => {
    const actor = actorOf(c);
    const { id } = c.req.valid("param");
    return c.json(await changeRole(deps, actor, id, c.req.valid("json").role));
  });

  app.delete("/:id", validateParams(idParam), async (c) => {
    const actor = actorOf(c);
    await removeMember(deps, actor, c.req.valid("param").id);
    return c.json({ ok: true });
  });
  return app;
}

/** Every account's own sessions (and, for the owner, everyone's): list, end. */
export function adminSessionRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  app.get("/", validateQuery(adminSessionsQuerySchema), async (c) => {
    const all = c.req.valid("query").all === "1";
    return c.json(await listSessionsFor(deps, actorOf(c), all));
  });

  app.delete("/:id", validateParams(idParam), async (c) => {
    const { wasCurrent } = await endSessionFor(deps, actorOf(c), c.req.valid("param").id);
    // Ending this very session signs this browser out.
    if (wasCurrent) clearAdminCookie(c, deps.config.production);
    return c.json({ ok: true, signedOut: wasCurrent });
  });
  return app;
}

/** The invitation link's page posts here: no session yet, the token is the credential. */
export function inviteRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  app.post("/accept", validateJson(inviteAcceptSchema), async (c) => {
    const member = await acceptInvitation(deps, c.req.valid("json"), clientKey(c));
    return c.json({ ok: true, email: member.email } satisfies InviteAcceptView);
  });
  return app;
}
