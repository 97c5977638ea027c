/**
 * The audit log holds exactly the owner's order moves that happened, whatever died or ran twice:
 * one entry per move into PROCESSING (a tracking number), SHIPPED and DELIVERED (only the owner
 * makes those), and one cancel for an order the shop cancelled (at most one, on a cancelled order,
 * for any other). An entry for a move that never committed, or a move without its entry, breaks
 * it: the entry is in the move's own write. The packing script's staff key appears only for the
 * orders' work: a cancel, a price or a promo limit in its name would be the owner's done by staff.
 */
import type { View } from "../view.ts";
import { Violation } from "../world.ts";
import { SHOP_CANCEL_REASONS } from "../../../server/orders/fulfilment.ts";
import { STAFF_KEY_NAME } from "../play.ts";

/** What the staff key may be recorded doing: the orders' work (its other tries are refused). */
const STAFF_ACTIONS = new Set(["order.tracking", "order.shipped", "order.delivered"]);

/** The owner's moves each entry action stands for, as the status it leads to. */
const MOVES: Record<string, "PROCESSING" | "SHIPPED" | "DELIVERED"> = {
  "order.shipped": "SHIPPED",
  "order.delivered": "DELIVERED",
};

export function checkAudit(view: View): void {
  const entries = new Map<string, number>();
  const cancels = new Map<string, number>();
  for (const e of view.audit) {
    // A staff key's refused tries leave no trace: nothing of the owner's is ever done in its name.
    if (
      e.actor.kind === "key" && (e.actor.name !== STAFF_KEY_NAME || !STAFF_ACTIONS.has(e.action))
    ) {
      throw new Violation(`the audit log has ${e.actor.name} (a staff key) doing ${e.action}`);
    }
    if (e.kind !== "orders" || !e.target) continue;
    const to = MOVES[e.action] ??
      (e.action === "order.tracking" && e.changes?.status?.to === "PROCESSING"
        ? "PROCESSING"
        : null);
    if (to) entries.set(`${e.target} ${to}`, (entries.get(`${e.target} ${to}`) ?? 0) + 1);
    if (e.action === "order.cancelled") cancels.set(e.target, (cancels.get(e.target) ?? 0) + 1);
  }
  for (const order of view.orders.values()) {
    for (const status of ["PROCESSING", "SHIPPED", "DELIVERED"] as const) {
      const moves = order.history.filter((h) => h.status === status).length;
      const recorded = entries.get(`${order.orderNumber} ${status}`) ?? 0;
      entries.delete(`${order.orderNumber} ${status}`);
      if (moves !== recorded) {
        throw new Violation(
          `order ${order.orderNumber} moved to ${status} ${moves} times; the audit log records ${recorded}`,
        );
      }
    }
    const cancelled = cancels.get(order.orderNumber) ?? 0;
    cancels.delete(order.orderNumber);
    // The shop's reason is the owner's cancel (a payment that came after may cancel it again for a
    // refund, with a reason of its own, so another reason may still follow one owner's cancel).
    const byOwner = order.cancelReason === SHOP_CANCEL_REASONS.paid ||
      order.cancelReason === SHOP_CANCEL_REASONS.unpaid;
    const wasCancelled = order.history.some((h) => h.status === "CANCELLED");
    if (cancelled > 1 || (cancelled === 1 && !wasCancelled) || (byOwner && cancelled !== 1)) {
      throw new Violation(
        `order ${order.orderNumber} has ${cancelled} cancel entries but ${
          order.history.filter((h) => h.status === "CANCELLED").length
        } cancellations`,
      );
    }
  }
  const orphans = [...entries.keys(), ...cancels.keys()];
  if (orphans.length > 0) throw new Violation(`audit entries for no order: ${orphans.join(", ")}`);
}
