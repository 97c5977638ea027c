/**
 * The shopper keeps an unpaid checkout's stock longer, once (WCAG 2.2.1 Timing Adjustable: a time
 * limit the user can extend). The payment is kept open first, then the hold's end moves in one
 * write with the client's holds; the queued expiry already reads the stored end and looks again
 * when it comes early, so it needs no new job.
 */
import { Conflict, NotFound, Unavailable } from "../errors.ts";
import { keys } from "../kv/keys.ts";
import { extendHoldInto, type HoldsEntry } from "../stock/holds.ts";
import { findOrder, updateOrder } from "./store.ts";
import type { Order } from "./order.ts";
import { type OrderDeps, step } from "./steps.ts";

/** Why a hold cannot be extended now, in words for the shopper; null when it can. */
export function extensionRefusal(order: Order, now: number): string | null {
  if (order.status !== "STARTED") {
    return "This order is no longer waiting for payment, so there is no hold to extend.";
  }
  if (order.reservation.state !== "held" || order.reservation.expiresAt <= now) {
    return "Your hold has already ended. Return to your cart to check out again.";
  }
  if (order.reservation.extendedAt !== undefined) {
    return "Your hold was already extended once and cannot be extended again.";
  }
  return null;
}

/**
 * What the one extension adds, in minutes: the shop's HOLD_EXTENSION_MINUTES, or a drop's own
 * hold length when that is shorter (the owner keeps a drop's holds short so unpaid units pass on
 * to the next in line soon; the shop's 10 minutes would make a 2-minute hold six times as long).
 * Never more than the shop's: a Stripe Checkout Session ends at least 30 minutes after it starts
 * and is kept open only that long, which the shop's extension is sized to. A hold not yet
 * extended runs from the order's making to its end.
 */
export function extensionMinutes(
  order: Pick<Order, "dropHold" | "createdAt" | "reservation">,
  shopMinutes: number,
): number {
  if (!order.dropHold) return shopMinutes;
  const held = Math.round((order.reservation.expiresAt - order.createdAt) / 60_000);
  return Math.min(held, shopMinutes);
}

/**
 * Extends `orderNumber`'s hold by extensionMinutes for the caller who shows the payment
 * its page holds (the demo page's session, /checkout's payment intent): NotFound, as for an
 * unknown number, when it is not that order's payment. Conflict when it ended, was paid or was
 * extended before, or when the provider cannot keep its payment open that long.
 */
export async function extendHold(
  deps: OrderDeps,
  orderNumber: string,
  paymentId: string,
): Promise<Order> {
  const order = await findOrder(deps.kv, orderNumber);
  if (!order?.payment || order.payment.id !== paymentId) throw new NotFound("Order not found");
  const refusal = extensionRefusal(order, deps.clock.now());
  if (refusal) throw new Conflict(refusal);
  const payment = order.payment;
  const expiresAt = order.reservation.expiresAt +
    extensionMinutes(order, deps.config.holdExtensionMinutes) * 60_000;
  // First, so the hold never outlives its payment: an extension that fails below leaves only a
  // payment open longer, which the expiry stops at the hold's end all the same.
  const open = await step(deps, "extend payment", async () => {
    try {
      return await deps.payments.extend(payment, expiresAt);
    } catch (err) {
      deps.logger({
        msg: "hold extension: provider unreachable",
        level: "warn",
        error: String(err),
      });
      throw new Unavailable(
        "The payment provider cannot be reached to keep your checkout open. Please try again in a moment.",
      );
    }
  }, orderNumber);
  if (!open) {
    throw new Conflict(
      "This payment page cannot be kept open longer. Pay within the time left, or return to your cart to check out again.",
    );
  }
  return await step(
    deps,
    "extend hold",
    () =>
      updateOrder(deps.kv, orderNumber, async (current, op) => {
        const now = deps.clock.now();
        // Read again in the write: a second tab, a payment or the expiry may have come meanwhile.
        if (current.payment?.id !== paymentId) throw new NotFound("Order not found");
        const why = extensionRefusal(current, now);
        if (why) throw new Conflict(why);
        if (current.holdClient) {
          const holds = await deps.kv.get(keys.holds(current.holdClient)) as HoldsEntry;
          extendHoldInto(op, current.holdClient, holds, orderNumber, expiresAt, now);
        }
        return {
          ...current,
          reservation: { ...current.reservation, expiresAt, extendedAt: now },
          updatedAt: now,
        };
      }),
    orderNumber,
  );
}
