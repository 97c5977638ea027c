import { Hono } from "hono";
import { z } from "zod";
import { apiKeyCreateSchema } from "../../shared/schemas.ts";
import type { AppDeps } from "../deps.ts";
import { actorOf } from "../middleware/actor_context.ts";
import { validateJson, validateParams } from "../http/validate.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "../staff/api_keys.ts";

const idParam = z.object({ id: z.string().min(1).max(64) });

/**
 * Scripts' API keys (the owner's: shared/admin_permissions.ts): made and shown once, listed
 * without the key, revoked. Signed in and authorised by the admin gate mounted in app.ts.
 */
export function adminApiKeyRoutes(deps: AppDeps): Hono {
  const app = new Hono();

  app.get("/", async (c) => c.json(await listApiKeys(deps.kv)));

  app.post("/", validateJson(apiKeyCreateSchema), async (c) => {
    return c.json(await createApiKey(deps, actorOf(c), c.req.valid("json")), 201);
  });

  app.delete("/:id", validateParams(idParam), async (c) => {
    await revokeApiKey(deps, actorOf(c), c.req.valid("param").id);
    return c.json({ ok: true });
  });
  return app;
}
