import { Hono } from "hono";
import { z } from "zod";
import { COMPONENTS, type StockKey, switchIdOf, switchKey } from "../../shared/bom.ts";
import type { BuildStockView } from "../../shared/api_types.ts";
import type { AppDeps } from "../deps.ts";
import { switchSnapshot } from "../catalog/store.ts";
import { findCart } from "../cart/cart.ts";
import { priceLines } from "../cart/view.ts";
import { stockSnapshot } from "../stock/store.ts";
import { validateQuery } from "../http/validate.ts";

const query = z.object({ cartId: z.string().max(64).optional() });

/** What a cart's lines would use, per stock key (the configurators count it as taken). */
async function cartUnits(
  deps: AppDeps & { imageBase: string },
  cartId: string,
): Promise<Map<StockKey, number>> {
  const units = new Map<StockKey, number>();
  const cart = await findCart(deps.kv, deps.clock, cartId).catch(() => null);
  if (!cart?.value) return units;
  for (const line of await priceLines(deps.kv, cart.value.lines, deps.imageBase)) {
    for (const [key, n] of line.bom) units.set(key, (units.get(key) ?? 0) + n * line.quantity);
  }
  return units;
}

/**
 * `GET /api/build-stock` (docs/product.md#catalogue-api): the configurators' one call for the
 * whole build. Read from the per-stock-version snapshots, so a page load costs no stock read of
 * its own; the answer carries an ETag of its bytes, so a refresh when the shopper comes back to
 * the tab is a 304 when nothing changed. Advisory: the checkout's reservation decides a sale.
 */
export function buildStockRoutes(deps: AppDeps & { imageBase: string }): Hono {
  const { kv } = deps;
  return new Hono().get("/", validateQuery(query), async (c) => {
    const { cartId } = c.req.valid("query");
    const [stock, switches, inCart] = await Promise.all([
      stockSnapshot(kv),
      switchSnapshot(kv),
      cartId ? cartUnits(deps, cartId) : null,
    ]);
    const view: BuildStockView = {
      switches: [...switches.values()].filter((s) => !s.retired).map((s) => ({
        id: s.id,
        available: stock.get(switchKey(s.id)) ?? 0,
      })),
      components: COMPONENTS.map((name) => ({ name, available: stock.get(name) ?? 0 })),
    };
    if (inCart) {
      view.inCart = {
        switches: [...inCart].flatMap(([key, units]) => {
          const id = switchIdOf(key);
          return id === null ? [] : [{ id, units }];
        }),
        components: [...inCart].flatMap(([key, units]) =>
          switchIdOf(key) === null ? [{ name: key, units }] : []
        ),
      };
    }
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
