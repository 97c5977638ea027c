/**
 * The owner's moves on paid orders: tracking numbers, shipping, delivery, and cancelling before
 * shipment (an unpaid order is released and its payment stopped; a paid one goes back to the
 * shelf and its refund is owed in the same write).
 */
import { isCancellable, isNewForAdmin } from "../../shared/status.ts";
import { Conflict, NotFound } from "../errors.ts";
import type { Email } from "../email/mailer.ts";
import { queueEmailInto } from "../email/outbox.ts";
import { orderShippedEmail } from "../email/templates.ts";
import { findOrderEntry, getOrder, listOrders, updateOrder, writeOrderTo } from "../db/orders.ts";
import { type Order, withStatus } from "./order.ts";
import { owingRefund, queueRefundInto, refundSoon } from "./refunds.ts";
import { receivePaymentEvent } from "./payment.ts";
import { releaseOrder } from "./release.ts";
import { type JobPlan, runStockJob } from "../db/stock_batch.ts";
import { applyMove } from "./stock_moves.ts";
import { type OrderDeps, step } from "./steps.ts";

/** Sets or corrects an order's tracking number; PAYMENT_RECEIVED moves to PROCESSING. */
export async function addTrackingNumber(
  deps: OrderDeps,
  orderNumber: string,
  trackingNumber: string,
): Promise<Order> {
  return await updateOrder(deps.kv, orderNumber, (order) => {
    const now = deps.clock.now();
    if (order.status === "PAYMENT_RECEIVED") {
      return { ...withStatus(order, "PROCESSING", now), trackingNumber };
    }
    if (order.status === "PROCESSING") return { ...order, trackingNumber, updatedAt: now };
    throw new Conflict(`Cannot add a tracking number to an order that is ${order.status}`);
  });
}

/**
 * Ships every PROCESSING order that has a tracking number, each with its shipped email queued in
 * the same atomic write (so the email goes out once per order). Returns how many shipped.
 */
export async function shipProcessedOrders(deps: OrderDeps, origin: string): Promise<number> {
  const ready = (await listOrders(deps.kv))
    .filter((o) => o.status === "PROCESSING" && o.trackingNumber);
  let shipped = 0;
  for (const candidate of ready) {
    let changed = false;
    await updateOrder(deps.kv, candidate.orderNumber, (order, op) => {
      if (order.status !== "PROCESSING" || !order.trackingNumber) return order;
      const now = deps.clock.now();
      const next = withStatus(order, "SHIPPED", now);
      if (next.email) {
        const email: Email = orderShippedEmail(next, deps.config.publicUrl ?? origin);
        queueEmailInto(op, email, now, `order-shipped:${order.orderNumber}`);
      }
      changed = true;
      return next;
    });
    if (changed) shipped++;
  }
  return shipped;
}

/** SHIPPED (with a tracking number) to DELIVERED. */
export async function markDelivered(deps: OrderDeps, orderNumber: string): Promise<Order> {
  return await updateOrder(deps.kv, orderNumber, (order) => {
    if (order.status !== "SHIPPED" || !order.trackingNumber) {
      throw new Conflict(`Only a shipped order with a tracking number can be marked delivered`);
    }
    return withStatus(order, "DELIVERED", deps.clock.now());
  });
}

/**
 * Cancels an order before shipment. Unpaid: its payment is stopped, then its hold released (a
 * payment taken meanwhile is recorded and refunded). Paid: its units go back on the shelf and its
 * full refund is owed in the same write, then paid back at once or from the queue.
 */
export async function cancelOrder(
  deps: OrderDeps,
  orderNumber: string,
  reason: string,
): Promise<Order> {
  const order = await getOrder(deps.kv, orderNumber);
  if (!isCancellable(order.status)) {
    throw new Conflict(`An order that is ${order.status} cannot be cancelled`);
  }
  if (order.status === "STARTED") {
    if (order.payment) {
      const payment = order.payment;
      const taken = await step(
        deps,
        "stop payment",
        () => deps.payments.stop(payment, orderNumber),
      );
      if (taken) {
        // It was paid meanwhile: record it, then cancel it as a paid order.
        await receivePaymentEvent(deps, taken);
        return await cancelOrder(deps, orderNumber, reason);
      }
    }
    return await releaseOrder(deps, orderNumber, "CANCELLED", reason);
  }
  const cancelled = await step(
    deps,
    "cancel paid order",
    () => cancelPaid(deps, orderNumber, reason),
  );
  await step(deps, "refund", () => refundSoon(deps, orderNumber));
  return await getOrder(deps.kv, cancelled.orderNumber);
}

function cancelPaid(deps: OrderDeps, orderNumber: string, reason: string): Promise<Order> {
  let entry: Deno.KvEntry<Order>;
  return runStockJob(deps.kv, deps.clock, {
    async prepare() {
      const found = await findOrderEntry(deps.kv, orderNumber);
      if (!found) throw new NotFound("Order not found");
      entry = found;
      return {
        stock: found.value.reservation.items.map(([k]) => k),
        exclusive: [`order:${orderNumber}`],
      };
    },
    plan(stock, now): JobPlan<Order> {
      const current = entry.value;
      if (!isNewForAdmin(current.status)) {
        throw new Conflict(`An order that is ${current.status} cannot be cancelled`);
      }
      const restocked = applyMove(stock, current.reservation.items, "restock");
      const next: Order = owingRefund({
        ...withStatus(current, "CANCELLED", now),
        cancelReason: reason,
        reservation: { ...current.reservation, state: "released" },
      }, "cancelled by the shop");
      return {
        // Putting units back always fits the shelf.
        stock: restocked.ok ? restocked.next : new Map(),
        checks: 1,
        mutations: 4,
        result: next,
        write(op) {
          writeOrderTo(op, next, entry.versionstamp);
          queueRefundInto(op, orderNumber);
        },
      };
    },
  });
}
