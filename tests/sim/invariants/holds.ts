/**
 * Holds and their one extension, after every step:
 * - an order's hold end moves at most once, by exactly the configured extension (a drop's hold by
 *   its own length when that is shorter), and only with `extendedAt` recorded (the end it had when
 *   first seen is the model's);
 * - no order expired before its stored hold end (the expiry reads the end, extended or not).
 * That `reserved` is what holding orders hold, extended or not, is the stock invariant's.
 */
import type { Model } from "../model.ts";
import type { View } from "../view.ts";
import { Violation } from "../world.ts";

export function checkHolds(model: Model, view: View, extensionMs: number): void {
  for (const order of view.orders.values()) {
    const { expiresAt, extendedAt } = order.reservation;
    // A drop's hold runs from the checkout; its one extension adds that length, at most the
    // configured one.
    const drop = !!order.dropHold;
    if (!model.holdEnds.has(order.orderNumber)) {
      // Seen extended already: the whole span is the hold twice, or the hold and the extension.
      const span = expiresAt - order.createdAt;
      model.holdEnds.set(
        order.orderNumber,
        extendedAt === undefined
          ? expiresAt
          : drop && span <= 2 * extensionMs
          ? order.createdAt + span / 2
          : expiresAt - extensionMs,
      );
    }
    const first = model.holdEnds.get(order.orderNumber)!;
    const added = drop ? Math.min(first - order.createdAt, extensionMs) : extensionMs;
    const want = extendedAt === undefined ? first : first + added;
    if (expiresAt !== want) {
      throw new Violation(
        `order ${order.orderNumber}'s hold ends at ${expiresAt}, but it began ending at ${first} and was ${
          extendedAt === undefined ? "never extended" : "extended once"
        } (${want})`,
      );
    }
    const expired = order.history.find((h) => h.status === "EXPIRED");
    if (expired && expired.at < expiresAt) {
      throw new Violation(
        `order ${order.orderNumber} expired at ${expired.at}, before its hold's end ${expiresAt}`,
      );
    }
  }
}
