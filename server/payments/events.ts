import type { AppDeps } from "../deps.ts";
import { emptyCart } from "../db/cart.ts";
import {
  findOrder,
  markOrderPaid,
  type Order,
  recordPaymentFailure,
  releaseOrder,
} from "../db/orders.ts";
import { orderConfirmationEmail } from "../email/templates.ts";
import type { PaymentEvent } from "./provider.ts";
import { refundOrder } from "./refunds.ts";

/** Dependencies of the event handler. */
export type EventDeps = Pick<AppDeps, "kv" | "clock" | "config" | "payments" | "logger">;

/**
 * The one handler every payment signal goes through: webhooks, the demo provider, redirects and
 * polls. Idempotent: an event id is processed once, and a paid order is recorded once whatever
 * arrives in whatever order. An event for an unknown order is logged and ignored.
 */
export async function handlePaymentEvent(
  deps: EventDeps,
  event: PaymentEvent,
  origin: string,
): Promise<Order | null> {
  const { kv, clock, logger } = deps;
  const order = await findOrder(kv, event.orderNumber);
  if (!order) {
    logger({ msg: "payment event for an unknown order", level: "warn", event: event.id });
    return null;
  }
  if (order.payment && order.payment.id !== event.paymentId) {
    logger({ msg: "payment event does not match the order's payment", level: "warn", event });
    return order;
  }
  switch (event.type) {
    case "paid": {
      const outcome = await markOrderPaid(
        kv,
        clock,
        order.orderNumber,
        event.details ?? {},
        event.id,
        (o) => orderConfirmationEmail(o, deps.config.publicUrl ?? origin),
      );
      if (outcome.kind === "refund" && outcome.order.payment) {
        logger({ msg: "refunding a payment for a lapsed reservation", order: order.orderNumber });
        await refundOrder(deps, outcome.order);
      }
      if (outcome.kind === "recorded") await emptyCart(kv, clock, outcome.order.cartId);
      return outcome.order;
    }
    case "failed":
      return await recordPaymentFailure(
        kv,
        clock,
        order.orderNumber,
        event.failureMessage ?? "The payment failed",
      );
    case "expired":
      return await releaseOrder(
        kv,
        clock,
        order.orderNumber,
        "EXPIRED",
        "The payment session expired",
      );
  }
}
