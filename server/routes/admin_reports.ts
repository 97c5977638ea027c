import { Hono } from "hono";
import { salesQuerySchema } from "../../shared/schemas.ts";
import type { AppDeps } from "../deps.ts";
import { validateQuery } from "../http/validate.ts";
import { salesReport } from "../reports/sales.ts";
import { currentPickList } from "../reports/pick_list.ts";
import { restockList } from "../reports/restock.ts";

/** The owner's morning: sales figures, the print day's pick list and what to restock. */
export function adminReportRoutes(deps: AppDeps): Hono {
  const { kv } = deps;
  const app = new Hono();

  app.get("/sales", validateQuery(salesQuerySchema), async (c) => {
    const { from, to } = c.req.valid("query");
    return c.json(await salesReport(kv, from, to));
  });

  app.get("/pick-list", async (c) => c.json(await currentPickList(kv)));
  app.get("/restock", async (c) => c.json(await restockList(kv, deps.clock.now())));
  return app;
}
