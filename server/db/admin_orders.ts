import { isCancellable, isNewForAdmin } from "../../shared/status.ts";
import type { Clock } from "../deps.ts";
import { Conflict } from "../errors.ts";
import type { Email } from "../email/mailer.ts";
import { queueEmailInto } from "../email/outbox.ts";
import { keys } from "./keys.ts";
import { CONFLICT, withRetries } from "./kv_util.ts";
import {
  getOrder,
  listOrders,
  type Order,
  releaseOrder,
  updateOrder,
  withStatus,
} from "./orders.ts";
import { addStock } from "./stock.ts";
import { commitStockChange } from "./stock_version.ts";

/** Sets or corrects an order's tracking number; PAYMENT_RECEIVED moves to PROCESSING. */
export async function addTrackingNumber(
  kv: Deno.Kv,
  clock: Clock,
  orderNumber: string,
  trackingNumber: string,
): Promise<Order> {
  return await updateOrder(kv, orderNumber, (order) => {
    const now = clock.now();
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
export async function shipProcessedOrders(
  kv: Deno.Kv,
  clock: Clock,
  shippedEmail: (order: Order) => Email,
): Promise<number> {
  const ready = (await listOrders(kv)).filter((o) => o.status === "PROCESSING" && o.trackingNumber);
  let shipped = 0;
  for (const candidate of ready) {
    let changed = false;
    await updateOrder(kv, candidate.orderNumber, (order, op) => {
      if (order.status !== "PROCESSING" || !order.trackingNumber) return order;
      const next = withStatus(order, "SHIPPED", clock.now());
      if (next.email) {
        queueEmailInto(op, shippedEmail(next), clock.now(), `order-shipped:${order.orderNumber}`);
      }
      changed = true;
      return next;
    });
    if (changed) shipped++;
  }
  return shipped;
}

/** SHIPPED (with a tracking number) to DELIVERED. */
export async function markDelivered(
  kv: Deno.Kv,
  clock: Clock,
  orderNumber: string,
): Promise<Order> {
  return await updateOrder(kv, orderNumber, (order) => {
    if (order.status !== "SHIPPED" || !order.trackingNumber) {
      throw new Conflict(`Only a shipped order with a tracking number can be marked delivered`);
    }
    return withStatus(order, "DELIVERED", clock.now());
  });
}

/**
 * Cancels an order before shipment. Unpaid: its reservation is released. Paid: its used stock goes
 * back to stock, and the caller refunds the payment in full.
 */
export async function cancelOrder(
  kv: Deno.Kv,
  clock: Clock,
  orderNumber: string,
  reason: string,
): Promise<{ order: Order; refund: boolean }> {
  const order = await getOrder(kv, orderNumber);
  if (!isCancellable(order.status)) {
    throw new Conflict(`An order that is ${order.status} cannot be cancelled`);
  }
  if (order.status === "STARTED") {
    return {
      order: await releaseOrder(kv, clock, orderNumber, "CANCELLED", reason),
      refund: false,
    };
  }
  const cancelled = await withRetries(
    async () => {
      const entry = await kv.get<Order>(keys.order(orderNumber));
      const current = entry.value!;
      if (!isNewForAdmin(current.status)) {
        throw new Conflict(`An order that is ${current.status} cannot be cancelled`);
      }
      const now = clock.now();
      const next: Order = {
        ...withStatus(current, "CANCELLED", now),
        cancelReason: reason,
        reservation: { ...current.reservation, state: "released" },
      };
      const op = kv.atomic().check(entry).set(keys.order(orderNumber), next);
      // Adding stock back never goes below zero, so this always writes.
      await addStock(kv, op, current.reservation.items, +1, -1);
      return await commitStockChange(kv, op, now) ? next : CONFLICT;
    },
    "cancel the order",
    "stock",
  );
  return { order: cancelled, refund: true };
}
