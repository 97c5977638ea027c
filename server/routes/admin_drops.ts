import { Hono } from "hono";
import { z } from "zod";
import { dropIdSchema, dropScheduleSchema } from "../../shared/drops.ts";
import type { AppDeps } from "../deps.ts";
import { validateJson, validateParams } from "../http/validate.ts";
import { actorOf } from "../middleware/actor_context.ts";
import { cancelDrop, scheduleDrop } from "../drops/schedule.ts";
import { adminView, listDropRows } from "../drops/views.ts";

const dropParam = z.object({ id: dropIdSchema });

/** The owner's drops: schedule, list, the live view and report, call one off. */
export function adminDropRoutes(deps: AppDeps): Hono {
  const { kv, clock } = deps;
  const app = new Hono();
  app.get("/", async (c) => c.json(await listDropRows(kv, clock)));

  app.post("/", validateJson(dropScheduleSchema), async (c) => {
    const drop = await scheduleDrop(deps, c.req.valid("json"), actorOf(c));
    return c.json({ id: drop.id }, 201);
  });

  app.get("/:id", validateParams(dropParam), async (c) => {
    return c.json(await adminView(kv, clock, c.req.valid("param").id));
  });

  app.delete("/:id", validateParams(dropParam), async (c) => {
    await cancelDrop(deps, c.req.valid("param").id, actorOf(c));
    return c.json(await adminView(kv, clock, c.req.valid("param").id));
  });
  return app;
}
