import { Hono } from "hono";
import { z } from "zod";
import { promoCreateSchema, promoUpdateSchema } from "../../shared/schemas.ts";
import type { AppDeps } from "../deps.ts";
import { validateJson, validateParams } from "../http/validate.ts";
import { actorOf } from "../middleware/actor_context.ts";
import { createPromo, listPromos, updatePromo } from "../promos/admin.ts";

const codeParam = z.object({ code: z.string().min(1).max(60) });

/** The owner's promo codes (docs/product.md#admin-api): list with uses, create, edit. */
export function adminPromoRoutes(deps: AppDeps): Hono {
  const { kv, clock } = deps;
  const app = new Hono();
  app.get("/", async (c) => c.json(await listPromos(kv)));

  app.post("/", validateJson(promoCreateSchema), async (c) => {
    return c.json(await createPromo(kv, clock, c.req.valid("json"), actorOf(c)), 201);
  });

  app.patch("/:code", validateParams(codeParam), validateJson(promoUpdateSchema), async (c) => {
    return c.json(
      await updatePromo(kv, clock, c.req.valid("param").code, c.req.valid("json"), actorOf(c)),
    );
  });
  return app;
}
