import { Hono } from "hono";
import Stripe from "stripe";
import type { AppDeps } from "../deps.ts";
import { findOrderByPaymentId } from "../db/orders.ts";
import { handlePaymentEvent } from "../payments/events.ts";
import { stripeEventToPaymentEvent } from "../payments/stripe.ts";
import { originOf } from "./orders.ts";

type Deps = AppDeps & { imageBase: string };

/** Web Crypto: the SDK's synchronous Node crypto does not exist in Deno's worker build. */
const cryptoProvider = Stripe.createSubtleCryptoProvider();

/**
 * POST /api/webhooks/stripe (DESIGN.md section 4): verifies Stripe's signature on the raw body,
 * then feeds the event to the one idempotent payment handler. Anything verified is answered 200,
 * even for an unknown order, because Stripe retries every other answer for days.
 */
export function webhookRoutes(deps: Deps): Hono {
  const { config, logger } = deps;
  return new Hono().post("/stripe", async (c) => {
    const stripe = config.stripe;
    if (deps.payments.name !== "stripe" || !stripe) {
      return c.json({ error: "Stripe webhooks are off: the shop uses demo payments" }, 404);
    }
    // The signature covers the exact bytes Stripe sent, so the body is read as text, never parsed.
    const body = await c.req.text();
    const signature = c.req.header("stripe-signature");
    let stripeEvent: Stripe.Event;
    try {
      if (!signature) throw new Error("No stripe-signature header");
      stripeEvent = await Stripe.webhooks.constructEventAsync(
        body,
        signature,
        stripe.webhookSecret,
        undefined,
        cryptoProvider,
      );
    } catch (err) {
      logger({ msg: "stripe webhook rejected", level: "warn", error: String(err) });
      return c.json({ error: "Invalid signature" }, 400);
    }

    const event = stripeEventToPaymentEvent(stripeEvent);
    if (!event) return c.json({ received: true, ignored: true });
    if (!event.orderNumber) {
      // Objects created outside this code path lack metadata; the payment id still finds them.
      const order = await findOrderByPaymentId(deps.kv, event.paymentId);
      if (order) event.orderNumber = order.orderNumber;
    }
    const order = await handlePaymentEvent(deps, event, originOf(c, config.publicUrl));
    logger({
      msg: "stripe webhook",
      event: stripeEvent.id,
      type: stripeEvent.type,
      order: event.orderNumber || null,
      status: order?.status ?? "unknown order",
    });
    return c.json({ received: true });
  });
}
