import { type Context, Hono } from "hono";
import { z } from "zod";
import { quantityUpdateSchema, simpleAddSchema, testerAddSchema } from "../../shared/schemas.ts";
import type { AppDeps } from "../deps.ts";
import { addToCart, removeLine, setLineQuantity } from "../cart/edits.ts";
import { getCart } from "../cart/store.ts";
import { type LineSpec } from "../cart/rules.ts";
import { viewCart } from "../cart/view.ts";
import { validateJson, validateParams, validateQuery } from "../http/validate.ts";
import { optionalUser } from "../middleware/user_auth.ts";
import { clientKey } from "../middleware/client_key.ts";
import { hitRateLimit, type RateLimit } from "../kv/rate_limit.ts";
import { readStockVersion } from "../kv/version.ts";

const cartParam = z.object({ cartId: z.string().min(1).max(64) });
const lineParam = z.object({
  cartId: z.string().min(1).max(64),
  itemId: z.string().min(1).max(64),
});

/** New carts a client may make per 10 minutes: `max` is NEW_CARTS_PER_CLIENT. */
export const NEW_CART_LIMIT: RateLimit = { bucket: "new-cart", max: 60, windowMs: 10 * 60_000 };

/** The cart API (docs/product.md#cart-api). */
export function cartRoutes(
  { kv, clock, config, imageBase }: AppDeps & { imageBase: string },
): Hono {
  const app = new Hono();
  const newCartLimit = { ...NEW_CART_LIMIT, max: config.newCartsPerClient };

  /** Counts a cart about to be made (an add without a cart); a cart is stored with its first line. */
  function countNewCart(c: Context, cartId: string | null | undefined): Promise<unknown> {
    if (cartId) return Promise.resolve();
    // Counted while the add reads (no round trips of its own); the add waits for it to store.
    const counted = hitRateLimit(
      kv,
      clock,
      newCartLimit,
      clientKey(c),
      "Too many new carts from your connection. Please wait a few minutes, or keep using your current cart.",
    );
    counted.catch(() => {});
    return counted;
  }

  app.post("/add", validateQuery(simpleAddSchema), async (c) => {
    const { itemId, quantity, cartId, ticket } = c.req.valid("query");
    // The shopper first: the count starts only where the add that waits for it follows.
    const userId = (await optionalUser({ kv, clock }, c))?.userId;
    const cart = await addToCart(kv, clock, {
      admitted: countNewCart(c, cartId),
      cartId: cartId || null,
      spec: { kind: "product", productId: itemId },
      quantity,
      ticket,
      userId,
    });
    return c.json({ ...(await viewCart(kv, cart, imageBase)), message: "Item added to cart" });
  });

  app.post("/add/tester", validateJson(testerAddSchema), async (c) => {
    const body = c.req.valid("json");
    const userId = (await optionalUser({ kv, clock }, c))?.userId;
    const switchIds = body.switches.map((s) => s.id);
    const spec: LineSpec = body.name === "Custom Switch Tester"
      ? {
        kind: "custom",
        size: body.size,
        keycaps: body.keycaps,
        bodyColor: body.bodyColor,
        switchIds,
      }
      : { kind: "cube", keycaps: body.keycaps, bodyColor: body.bodyColor, switchIds };
    const cart = await addToCart(kv, clock, {
      admitted: countNewCart(c, body.cartId),
      cartId: body.cartId || null,
      spec,
      quantity: body.quantity,
      ticket: body.ticket,
      userId,
    });
    return c.json({
      ...(await viewCart(kv, cart, imageBase)),
      message: `${body.name} added to cart`,
    });
  });

  app.get("/:cartId", validateParams(cartParam), async (c) => {
    // The stock version is read with the cart, so the view's snapshot checks cost no trip of their own.
    const [cart] = await Promise.all([
      getCart(kv, clock, c.req.valid("param").cartId),
      readStockVersion(kv),
    ]);
    return c.json(await viewCart(kv, cart, imageBase));
  });

  app.delete("/:cartId/items/:itemId", validateParams(lineParam), async (c) => {
    const { cartId, itemId } = c.req.valid("param");
    const cart = await removeLine(kv, clock, cartId, itemId);
    return c.json(await viewCart(kv, cart, imageBase));
  });

  app.put(
    "/:cartId/items/:itemId",
    validateParams(lineParam),
    validateQuery(quantityUpdateSchema),
    async (c) => {
      const { cartId, itemId } = c.req.valid("param");
      const cart = await setLineQuantity(kv, clock, cartId, itemId, c.req.valid("query").quantity);
      return c.json(await viewCart(kv, cart, imageBase));
    },
  );
  return app;
}
