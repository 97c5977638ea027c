import { Hono } from "hono";
import { z } from "zod";
import {
  idSchema,
  itemUpdateSchema,
  packUpdateSchema,
  switchCreateSchema,
  switchUpdateSchema,
} from "../../shared/schemas.ts";
import type { AppDeps } from "../deps.ts";
import { requireAdmin } from "../middleware/admin_auth.ts";
import { validateJson, validateParams } from "../middleware/validate.ts";
import { createSwitch, listAdminSwitches, updateSwitch } from "../catalog/switches.ts";
import { listAdminPacks, updatePack } from "../catalog/packs.ts";
import { listAdminItems, updateItem } from "../catalog/items.ts";
import { listEditViews } from "../catalog/history.ts";

const idParam = z.object({ id: idSchema });

/**
 * The owner's catalogue (docs/product.md#admin-api): switches (added, edited, retired), packs
 * and items (edited, taken off sale) and the history of every edit. Edits answer the record.
 */
export function adminCatalogRoutes(deps: AppDeps & { imageBase: string }): Hono {
  const app = new Hono();
  app.use("*", requireAdmin(deps));

  app.get("/switches", async (c) => c.json(await listAdminSwitches(deps)));

  app.post("/switches", validateJson(switchCreateSchema), async (c) => {
    return c.json(await createSwitch(deps, c.req.valid("json")), 201);
  });

  app.patch(
    "/switches/:id",
    validateParams(idParam),
    validateJson(switchUpdateSchema),
    async (c) => c.json(await updateSwitch(deps, c.req.valid("param").id, c.req.valid("json"))),
  );

  app.get("/packs", async (c) => c.json(await listAdminPacks(deps)));

  app.patch(
    "/packs/:id",
    validateParams(idParam),
    validateJson(packUpdateSchema),
    async (c) => c.json(await updatePack(deps, c.req.valid("param").id, c.req.valid("json"))),
  );

  app.get("/items", async (c) => c.json(await listAdminItems(deps)));

  app.patch(
    "/items/:id",
    validateParams(idParam),
    validateJson(itemUpdateSchema),
    async (c) => c.json(await updateItem(deps, c.req.valid("param").id, c.req.valid("json"))),
  );

  app.get("/history", async (c) => c.json(await listEditViews(deps.kv)));
  return app;
}
