/**
 * Every charge ends right. After every step: a charge the provider took belongs to an order it
 * paid, an event still waiting to be handled, or a refund owed or made; a refunded charge was
 * refunded in full for an order that owes it; an order is paid only by a charge the provider
 * took, of the order's total. Once the world heals: every charge taken is exactly one paid order
 * or one full refund, nothing waits, and no hold outlives its time.
 */
import type { Order } from "../../../server/orders/order.ts";
import type { DemoPayment } from "../../../server/payments/demo/provider.ts";
import type { View } from "../view.ts";
import { Violation } from "../world.ts";

const PAID_STATUSES = new Set(["PAYMENT_RECEIVED", "PROCESSING", "SHIPPED", "DELIVERED"]);

/** Whether the order ever took money. */
export function wasPaid(order: Order): boolean {
  return order.history.some((h) => h.status === "PAYMENT_RECEIVED");
}

function paidBy(order: Order, payment: DemoPayment): boolean {
  return order.payment?.id === payment.id;
}

export function checkMoney(view: View): void {
  const payments = new Map(view.payments.map((p) => [p.id, p]));
  const waiting = new Set(view.inbox.map((e) => e.event.paymentId));
  for (const p of view.payments) {
    const order = view.orders.get(p.orderNumber);
    if (!order) throw new Violation(`payment ${p.id} is for ${p.orderNumber}, which is not stored`);
    if (p.status === "succeeded") {
      const paid = paidBy(order, p) && wasPaid(order) && order.status !== "CANCELLED";
      const owed = paidBy(order, p) && order.refund !== null;
      if (!paid && !owed && !waiting.has(p.id)) {
        throw new Violation(
          `charge ${p.id} was taken but order ${order.orderNumber} is ${order.status}, owes no refund, and no event waits`,
        );
      }
    }
    if (p.status === "refunded") {
      if (!paidBy(order, p) || !order.refund) {
        throw new Violation(`charge ${p.id} was refunded but ${order.orderNumber} owes no refund`);
      }
      if (p.refundedCents !== p.amountCents) {
        throw new Violation(
          `charge ${p.id} of ${p.amountCents} cents was refunded ${p.refundedCents}, not in full`,
        );
      }
    }
  }
  for (const order of view.orders.values()) {
    if (!wasPaid(order)) continue;
    const p = order.payment ? payments.get(order.payment.id) : undefined;
    if (!p || (p.status !== "succeeded" && p.status !== "refunded")) {
      throw new Violation(
        `order ${order.orderNumber} was paid, but its charge ${order.payment?.id} is ${p?.status}`,
      );
    }
    if (p.amountCents !== order.totalCents) {
      throw new Violation(
        `order ${order.orderNumber} totals ${order.totalCents} cents, its charge ${p.amountCents}`,
      );
    }
    if (
      order.status === "CANCELLED" && order.refund?.state === "refunded" && p.status !== "refunded"
    ) {
      throw new Violation(`order ${order.orderNumber} says refunded, its charge is ${p.status}`);
    }
  }
}

/** What must hold once the world has healed and the queue is empty. */
export function checkMoneySettled(view: View, now: number): void {
  for (const p of view.payments) {
    const order = view.orders.get(p.orderNumber)!;
    if (p.status === "succeeded" && !(paidBy(order, p) && PAID_STATUSES.has(order.status))) {
      throw new Violation(
        `charge ${p.id} was taken, but after healing order ${order.orderNumber} is ${order.status} (refund ${
          order.refund?.state ?? "none"
        })`,
      );
    }
    if (
      p.status === "refunded" &&
      !(order.status === "CANCELLED" && order.refund?.state === "refunded")
    ) {
      throw new Violation(`charge ${p.id} was refunded but its order is ${order.status}`);
    }
  }
  if (view.inbox.length > 0) {
    throw new Violation(`payment events still wait after healing: ${view.inbox[0].event.id}`);
  }
  for (const order of view.orders.values()) {
    if (order.refund?.state === "pending") {
      throw new Violation(`order ${order.orderNumber}'s refund is still pending after healing`);
    }
    if (order.status === "STARTED" && order.reservation.expiresAt <= now) {
      throw new Violation(
        `order ${order.orderNumber} still holds its stock ${
          Math.round((now - order.reservation.expiresAt) / 60_000)
        } minutes after its hold lapsed`,
      );
    }
  }
}
