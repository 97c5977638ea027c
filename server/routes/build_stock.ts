import { Hono } from "hono";
import { z } from "zod";
import type { RouteDeps } from "../deps.ts";
import { buildStockView } from "../cart/build_stock.ts";
import { validateQuery } from "../http/validate.ts";

const query = z.object({ cartId: z.string().max(64).optional() });

/**
 * `GET /api/build-stock` (docs/product.md#catalogue-api): the configurators' one call for the
 * whole build (server/cart/build_stock.ts). The answer carries an ETag of its bytes, so a refresh
 * when the shopper comes back to the tab is a 304 when nothing changed.
 */
export function buildStockRoutes(deps: RouteDeps): Hono {
  return new Hono().get("/", validateQuery(query), async (c) => {
    const view = await buildStockView(deps, c.req.valid("query").cartId);
    const body = JSON.stringify(view);
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
    const etag = `"${
      [...new Uint8Array(digest)].slice(0, 16).map((b) => b.toString(16).padStart(2, "0")).join("")
    }"`;
    const headers = { ETag: etag, "Cache-Control": "no-cache" };
    if (
      c.req.header("If-None-Match")?.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)
    ) {
      return new Response(null, { status: 304, headers });
    }
    return c.body(body, 200, { ...headers, "Content-Type": "application/json" });
  });
}
