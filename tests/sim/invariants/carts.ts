/**
 * Carts and the orders made from them. The model learns of each order's payment from the store
 * (the step after which it reads PAYMENT_RECEIVED) and takes the units it bought out of its cart,
 * as a shopper expects; then, after every step:
 * - a cart holds exactly what its shopper put in and did not buy;
 * - no line of a cart was ever bought more often than it was put in (one paid order per checkout
 *   of a cart's lines), and no order that can still be paid holds lines already bought;
 * - a cart has at most one checkout holding stock.
 */
import { addTo, type Model, noteState } from "../model.ts";
import type { View } from "../view.ts";
import { Violation } from "../world.ts";
import { wasPaid } from "./money.ts";

/** Applies the payments that happened in the last step to the model's carts. */
export function observePayments(model: Model, view: View): void {
  for (const order of view.orders.values()) {
    if (model.paid.has(order.orderNumber) || !wasPaid(order)) continue;
    model.paid.add(order.orderNumber);
    const cart = model.carts.get(order.cartId);
    if (!cart) continue;
    for (const item of order.items) {
      addTo(cart.bought, item.lineId, item.quantity);
      const left = (cart.lines.get(item.lineId) ?? 0) - item.quantity;
      if (left > 0) cart.lines.set(item.lineId, left);
      else cart.lines.delete(item.lineId);
      noteState(cart);
      if ((cart.bought.get(item.lineId) ?? 0) > (cart.put.get(item.lineId) ?? 0)) {
        throw new Violation(
          `cart ${cart.id}: paid orders bought ${
            cart.bought.get(item.lineId)
          } of line ${item.lineId}, but its shopper put in ${
            cart.put.get(item.lineId) ?? 0
          } (order ${order.orderNumber} paid for lines already bought)`,
        );
      }
    }
  }
}

export function checkCarts(model: Model, view: View): void {
  for (const cart of model.carts.values()) {
    const stored = view.carts.get(cart.id);
    const lines = new Map((stored?.lines ?? []).map((l) => [l.lineId, l.quantity]));
    const expected = [...cart.lines].sort();
    const actual = [...lines].sort();
    if (JSON.stringify(expected) !== JSON.stringify(actual)) {
      throw new Violation(
        `cart ${cart.id} of shopper ${cart.shopper} holds ${
          JSON.stringify(actual)
        }, but its shopper put in and did not buy ${JSON.stringify(expected)}`,
      );
    }
  }
  const holding = new Map<string, string>();
  for (const order of view.orders.values()) {
    if (order.status !== "STARTED" || order.reservation.state !== "held") continue;
    const other = holding.get(order.cartId);
    if (other) {
      throw new Violation(
        `cart ${order.cartId} has two checkouts holding stock: ${other} and ${order.orderNumber}`,
      );
    }
    holding.set(order.cartId, order.orderNumber);
    const cart = model.carts.get(order.cartId);
    if (!cart) continue;
    for (const item of order.items) {
      const bought = cart.bought.get(item.lineId) ?? 0;
      if (bought + item.quantity > (cart.put.get(item.lineId) ?? 0)) {
        throw new Violation(
          `order ${order.orderNumber} can still be paid for ${item.quantity} of line ${item.lineId}, which cart ${cart.id} already bought (${bought} of ${
            cart.put.get(item.lineId) ?? 0
          } put in)`,
        );
      }
    }
  }
}
