import { Hono } from "hono";
import { noticeSchema } from "../../shared/schemas.ts";
import type { AppDeps } from "../deps.ts";
import { validateJson } from "../http/validate.ts";
import { actorOf } from "../middleware/actor_context.ts";
import { getAdminNotice, getNotice, setNotice } from "../catalog/notice.ts";

/** The red banner every page shows: `GET /api/notice`, public. */
export function noticeRoutes(deps: AppDeps): Hono {
  return new Hono().get("/notice", async (c) => c.json(await getNotice(deps.kv)));
}

/** The owner's banner: `GET` (with its version) and `PUT /api/admin/notice`. */
export function adminNoticeRoutes(deps: AppDeps): Hono {
  const { kv, clock } = deps;
  const app = new Hono();
  app.get("/", async (c) => c.json(await getAdminNotice(kv)));
  app.put("/", validateJson(noticeSchema), async (c) => {
    return c.json(await setNotice(kv, clock, c.req.valid("json"), actorOf(c)));
  });
  return app;
}
