/**
 * Stock adds up, per component, after every step:
 * - no count is ever negative;
 * - `reserved` is exactly what unpaid checkouts hold, `used` exactly what paid orders took;
 * - shelf plus sold equals what was counted: the seed's count, then the owner's last count plus
 *   what had sold by then (a sale moves units from the shelf to sold, a cancelled sale moves them
 *   back, so only the owner's counts change the sum); so nothing sells that was not counted;
 * - each order's reservation agrees with its status;
 * - the owner's low-stock level reads back as set, whatever sold since.
 */
import type { StockKey } from "../../../shared/bom.ts";
import type { Order } from "../../../server/orders/order.ts";
import { addTo, currentLevel, DEFAULT_LEVEL, type Model } from "../model.ts";
import type { View } from "../view.ts";
import { Violation } from "../world.ts";

const PAID_STATUSES = new Set(["PAYMENT_RECEIVED", "PROCESSING", "SHIPPED", "DELIVERED"]);

/** The reservation state an order in this status must have. */
function reservationFor(order: Order): Order["reservation"]["state"] {
  if (order.status === "STARTED") return "held";
  return PAID_STATUSES.has(order.status) ? "committed" : "released";
}

export function checkStock(model: Model, view: View): void {
  const held = new Map<StockKey, number>();
  const sold = new Map<StockKey, number>();
  for (const order of view.orders.values()) {
    const state = order.reservation.state;
    // A STARTED order whose hold lapsed keeps its units until its expiry runs.
    if (state !== reservationFor(order)) {
      throw new Violation(
        `order ${order.orderNumber} is ${order.status} but its reservation is ${state}`,
      );
    }
    for (const [key, n] of order.reservation.items) {
      if (state === "held") addTo(held, key, n);
      if (state === "committed") addTo(sold, key, n);
    }
  }
  for (const [key, record] of view.stock) {
    const { stock, reserved, used } = record;
    if (stock < 0 || reserved < 0 || used < 0) {
      throw new Violation(`${key} went negative: ${JSON.stringify(record)}`);
    }
    if (reserved !== (held.get(key) ?? 0)) {
      throw new Violation(
        `${key}: ${reserved} reserved, but unpaid checkouts hold ${held.get(key) ?? 0}`,
      );
    }
    if (used !== (sold.get(key) ?? 0)) {
      throw new Violation(`${key}: ${used} used, but paid orders took ${sold.get(key) ?? 0}`);
    }
    const counted = model.counted.get(key);
    if (counted !== undefined && stock + used !== counted) {
      throw new Violation(
        `${key}: ${stock} on the shelf and ${used} sold make ${
          stock + used
        }, but ${counted} were counted`,
      );
    }
    const level = record.lowStockAt ?? DEFAULT_LEVEL;
    if (level !== currentLevel(model, key)) {
      throw new Violation(
        `${key}: the owner set the low-stock level to ${
          currentLevel(model, key)
        }, the store says ${level}`,
      );
    }
  }
}
