import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { MAX_UPLOAD_BYTES } from "../../shared/images.ts";
import {
  idSchema,
  itemUpdateSchema,
  packUpdateSchema,
  switchCreateSchema,
  switchUpdateSchema,
} from "../../shared/schemas.ts";
import type { RouteDeps } from "../deps.ts";
import { validateJson, validateParams } from "../http/validate.ts";
import { actorOf } from "../middleware/actor_context.ts";
import { createSwitch, listAdminSwitches, updateSwitch } from "../listings/switches.ts";
import { listAdminPacks, updatePack } from "../listings/packs.ts";
import { listAdminItems, updateItem } from "../listings/items.ts";
import { listEditViews } from "../catalog/history.ts";
import { setCatalogImage, tooLarge } from "../listings/images.ts";

const idParam = z.object({ id: idSchema });
const imageParams = z.object({ kind: z.enum(["switches", "packs", "items"]), id: idSchema });

/**
 * The image upload's path: the one route whose body may be larger than the app's 64 KB, so the
 * app-wide limit skips it and the route sets its own.
 */
export const IMAGE_UPLOAD_PATH = /^\/api\/admin\/catalog\/(switches|packs|items)\/[^/]+\/image$/;

/**
 * The owner's catalogue (docs/product.md#admin-api): switches (added, edited, retired), packs
 * and items (edited, taken off sale) and the history of every edit. Edits answer the record.
 */
export function adminCatalogRoutes(deps: RouteDeps): Hono {
  const app = new Hono();

  app.get("/switches", async (c) => c.json(await listAdminSwitches(deps)));

  app.post("/switches", validateJson(switchCreateSchema), async (c) => {
    return c.json(await createSwitch(deps, c.req.valid("json"), actorOf(c)), 201);
  });

  app.patch(
    "/switches/:id",
    validateParams(idParam),
    validateJson(switchUpdateSchema),
    async (c) =>
      c.json(await updateSwitch(deps, c.req.valid("param").id, c.req.valid("json"), actorOf(c))),
  );

  app.get("/packs", async (c) => c.json(await listAdminPacks(deps)));

  app.patch(
    "/packs/:id",
    validateParams(idParam),
    validateJson(packUpdateSchema),
    async (c) =>
      c.json(await updatePack(deps, c.req.valid("param").id, c.req.valid("json"), actorOf(c))),
  );

  app.get("/items", async (c) => c.json(await listAdminItems(deps)));

  app.patch(
    "/items/:id",
    validateParams(idParam),
    validateJson(itemUpdateSchema),
    async (c) =>
      c.json(await updateItem(deps, c.req.valid("param").id, c.req.valid("json"), actorOf(c))),
  );

  // The raw image is the body; its type is read from its bytes (Content-Type is not trusted).
  app.put(
    "/:kind/:id/image",
    validateParams(imageParams),
    bodyLimit({
      maxSize: MAX_UPLOAD_BYTES,
      onError: () => {
        throw tooLarge();
      },
    }),
    async (c) => {
      const { kind, id } = c.req.valid("param");
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      return c.json(await setCatalogImage(deps, kind, id, bytes, actorOf(c)));
    },
  );

  app.delete("/:kind/:id/image", validateParams(imageParams), async (c) => {
    const { kind, id } = c.req.valid("param");
    return c.json(await setCatalogImage(deps, kind, id, null, actorOf(c)));
  });

  app.get("/history", async (c) => c.json(await listEditViews(deps.kv)));
  return app;
}
