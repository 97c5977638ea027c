import { type Context, Hono } from "hono";
import { z } from "zod";
import {
  customerCancelSchema,
  extendHoldSchema,
  orderCreateSchema,
  promoValidateSchema,
} from "../../shared/schemas.ts";
import type { RouteDeps } from "../deps.ts";
import { NotFound } from "../errors.ts";
import { findOrder } from "../orders/store.ts";
import { publicOrderView } from "../orders/views.ts";
import { hitRateLimit, type RateLimit } from "../kv/rate_limit.ts";
import { paymentReturned } from "../orders/payment.ts";
import { previewPromo } from "../promos/preview.ts";
import { startCheckout } from "../orders/checkout.ts";
import { cancelByCustomer } from "../orders/customer_cancel.ts";
import { extendHold } from "../orders/hold_extension.ts";
import { clientKey } from "../middleware/client_key.ts";
import { originOf } from "../middleware/shop_origin.ts";
import { optionalUser } from "../middleware/user_auth.ts";
import { validateJson, validateParams } from "../http/validate.ts";
import type { HostedCheckoutView } from "../../shared/api_types.ts";
import type {
  EmbeddedCheckoutView,
  PaymentsConfigView,
  PaymentSessionStatus,
} from "../../shared/api_types.ts";

/** Guessing order numbers is pointless (90 random bits), and repeated misses are throttled too. */
export const ORDER_MISS_LIMIT: RateLimit = {
  bucket: "order-miss",
  max: 30,
  windowMs: 10 * 60 * 1000,
};

/** Hosted checkout from the cart's two buttons (docs/product.md#checkout-api). */
export function checkoutRoutes(deps: RouteDeps): Hono {
  const params = z.object({
    cartId: z.string().min(1).max(64),
    region: z.enum(["us", "international"], {
      error: "Checkout region must be us or international",
    }),
  });
  return new Hono().post("/:cartId/checkout/:region", validateParams(params), async (c) => {
    const { cartId, region } = c.req.valid("param");
    const { order, payment } = await startCheckout(deps, {
      cartId,
      region,
      mode: "hosted",
      origin: originOf(c),
      client: clientKey(c),
    });
    return c.json(
      { url: payment.url!, orderNumber: order.orderNumber } satisfies HostedCheckoutView,
    );
  });
}

/** Orders: embedded checkout, lookups and the tracking view; promo validation. */
export function orderRoutes(deps: RouteDeps): Hono {
  const { kv, clock, imageBase, config } = deps;
  const app = new Hono();

  app.post("/orders/create", validateJson(orderCreateSchema), async (c) => {
    const body = c.req.valid("json");
    const { order, payment } = await startCheckout(deps, {
      cartId: body.cartId,
      region: "us",
      mode: "embedded",
      origin: originOf(c),
      client: clientKey(c),
      email: body.email,
      customerName: body.customerName,
      address: body.shippingAddress,
      promoCode: body.promoCode,
      userId: (await optionalUser(deps, c))?.userId,
    });
    return c.json(
      {
        // An embedded payment (a payment intent) always has its client secret.
        clientSecret: payment.clientSecret!,
        stripeClientSecret: payment.clientSecret!,
        orderNumber: order.orderNumber,
        paymentIntentId: payment.id,
        totals: publicOrderView(order, imageBase, clock.now(), config.holdExtensionMinutes),
      } satisfies EmbeddedCheckoutView,
    );
  });

  app.get("/payments/config", (c) =>
    c.json(
      {
        provider: deps.payments.name,
        publishableKey: deps.payments.publishableKey,
        reservationMinutes: config.reservationMinutes,
      } satisfies PaymentsConfigView,
    ));

  app.post("/promo/validate", validateJson(promoValidateSchema), async (c) => {
    return c.json(await previewPromo(deps, c.req.valid("json")));
  });

  const sessionParam = z.object({ sessionId: z.string().min(1).max(200) });
  app.get("/orders/session/:sessionId", validateParams(sessionParam), async (c) => {
    const order = await paymentReturned(deps, c.req.valid("param").sessionId);
    return c.json(
      { orderNumber: order.orderNumber, status: order.status } satisfies PaymentSessionStatus,
    );
  });

  const orderParam = z.object({ orderNumber: z.string().min(1).max(64) });
  /**
   * Counts an order lookup, or an attempt to act on an order, against the client's misses; the
   * caller gives it back once the order is found and proved the caller's, so guesses run out.
   */
  function countLookup(c: Context) {
    return hitRateLimit(
      kv,
      clock,
      ORDER_MISS_LIMIT,
      clientKey(c),
      "Too many order lookups. Please wait a few minutes and try again.",
    );
  }
  app.get("/orders/:orderNumber", validateParams(orderParam), async (c) => {
    // Every lookup counts until it finds an order, so parallel guesses are numbered too.
    const lookup = await countLookup(c);
    const order = await findOrder(kv, c.req.valid("param").orderNumber);
    if (!order) throw new NotFound("Order not found");
    await lookup.giveBack();
    return c.json(publicOrderView(order, imageBase, clock.now(), config.holdExtensionMinutes));
  });

  app.post(
    "/orders/:orderNumber/cancel",
    validateParams(orderParam),
    validateJson(customerCancelSchema),
    async (c) => {
      // Counted like a lookup until it proves the order is the caller's: no guessing by cancel.
      const attempt = await countLookup(c);
      const user = await optionalUser(deps, c);
      const order = await cancelByCustomer(deps, c.req.valid("param").orderNumber, {
        email: c.req.valid("json").email,
        userId: user?.userId,
      });
      await attempt.giveBack();
      return c.json(publicOrderView(order, imageBase, clock.now(), config.holdExtensionMinutes));
    },
  );
  app.post(
    "/orders/:orderNumber/extend-hold",
    validateParams(orderParam),
    validateJson(extendHoldSchema),
    async (c) => {
      // Counted like a lookup until it proves the order is the caller's: no guessing by extending.
      const attempt = await countLookup(c);
      const order = await extendHold(
        deps,
        c.req.valid("param").orderNumber,
        c.req.valid("json").paymentId,
      );
      await attempt.giveBack();
      return c.json(publicOrderView(order, imageBase, clock.now(), config.holdExtensionMinutes));
    },
  );
  return app;
}
