/**
 * The owner's moves on paid orders: tracking numbers, shipping, delivery, and cancelling before
 * shipment (an unpaid order is released and its payment stopped; a paid one goes back to the
 * shelf and its refund is owed in the same write).
 */
import { isCancellable, isNewForAdmin, isReadyToShip } from "../../shared/status.ts";
import { Conflict, DomainError, NotFound } from "../errors.ts";
import type { Email } from "../email/mailer.ts";
import { queueEmailInto } from "../email/outbox.ts";
import { orderDeliveredEmail, orderPrintingEmail, orderShippedEmail } from "./emails.ts";
import { findOrderEntry, getOrder, updateOrder, writeOrderTo } from "./store.ts";
import { listAllOrders } from "./list.ts";
import { type Order, withStatus } from "./order.ts";
import {
  CANCEL_WITH_REFUND_MUTATIONS,
  cancelWithRefundInto,
  owingRefund,
  refundSoon,
} from "./refunds.ts";
import { receivePaymentEvent } from "./payment.ts";
import { originFor } from "./origin.ts";
import { releaseOrder } from "./release.ts";
import { type JobPlan, runStockJob } from "../stock/batch.ts";
import { applyMove } from "../stock/record.ts";
import { type OrderDeps, step } from "./steps.ts";
import type { Actor } from "../audit/actor.ts";
import { AUDIT_MUTATIONS, auditEntry, auditInto } from "../audit/log.ts";
import {
  dropClaims,
  type DropRead,
  dropWriteSize,
  readDropCounts,
  wantsOf,
  writeDropCounts,
} from "../drops/counts_store.ts";
import { copyCounts, giveBackSold } from "../drops/purchase_rules.ts";
import { isOver } from "../drops/record.ts";

/** Why an order was cancelled, as the shopper's order page says: paid, or before payment. */
export interface CancelReasons {
  paid: string;
  unpaid: string;
}

/**
 * Why an order the shop cancels was cancelled. An unpaid checkout's page must not say "refunded":
 * nothing was charged.
 */
export const SHOP_CANCEL_REASONS: CancelReasons = {
  paid: "Cancelled by the shop; refunded in full",
  unpaid: "Cancelled by the shop before payment",
};

/** Whether an error is the provider's (refused or unreachable), not the shop's own. */
function isProviderTrouble(err: unknown): boolean {
  return !(err instanceof DomainError) && !(err instanceof TypeError);
}

/**
 * Records `actor`'s move of `before` to `after` in `op`, the write that makes it: the status and
 * tracking number each when they changed. Nothing for a move the system made (no actor).
 */
function auditMoveInto(
  deps: OrderDeps,
  op: Deno.AtomicOperation,
  actor: Actor | undefined,
  action: string,
  before: Order,
  after: Pick<Order, "status" | "trackingNumber">,
): void {
  if (!actor) return;
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  if (before.status !== after.status) changes.status = { from: before.status, to: after.status };
  if ((before.trackingNumber ?? null) !== (after.trackingNumber ?? null)) {
    changes.trackingNumber = { from: before.trackingNumber ?? null, to: after.trackingNumber };
  }
  auditInto(
    op,
    auditEntry(deps.clock, actor, { kind: "orders", action, target: before.orderNumber, changes }),
  );
}

/** Sets or corrects an order's tracking number; PAYMENT_RECEIVED moves to PROCESSING. */
export async function addTrackingNumber(
  deps: OrderDeps,
  orderNumber: string,
  trackingNumber: string,
  actor?: Actor,
): Promise<Order> {
  return await updateOrder(deps.kv, orderNumber, (order, op) => {
    const now = deps.clock.now();
    if (order.status === "PAYMENT_RECEIVED") {
      const next = { ...withStatus(order, "PROCESSING", now), trackingNumber };
      if (next.email) {
        const email = orderPrintingEmail(next, originFor(deps, next));
        queueEmailInto(op, email, now, `order-printing:${orderNumber}`);
      }
      auditMoveInto(deps, op, actor, "order.tracking", order, next);
      return next;
    }
    if (order.status === "PROCESSING") {
      auditMoveInto(deps, op, actor, "order.tracking", order, { ...order, trackingNumber });
      return { ...order, trackingNumber, updatedAt: now };
    }
    throw new Conflict(`Cannot add a tracking number to an order that is ${order.status}`);
  });
}

/** Why a chosen order was not shipped. */
export interface ShipSkip {
  orderNumber: string;
  reason: string;
}

/**
 * Ships PROCESSING orders that have a tracking number: every one, or only the chosen ones (the
 * rest of those are reported with the reason). Each order's shipped email, and its audit entry
 * (one per order, so the Audit tab finds an order's shipping by its number), are in the same
 * atomic write as its status, so each is made once per order.
 */
export async function shipProcessedOrders(
  deps: OrderDeps,
  origin: string,
  chosen?: readonly string[],
  actor?: Actor,
): Promise<{ shippedCount: number; skipped: ShipSkip[] }> {
  const skipped: ShipSkip[] = [];
  const candidates = chosen
    ? [...new Set(chosen)]
    : (await listAllOrders(deps.kv, { status: (s) => s === "PROCESSING" }))
      .filter(isReadyToShip).map((o) => o.orderNumber);
  let shippedCount = 0;
  for (const orderNumber of candidates) {
    let why: string | null = null;
    try {
      await updateOrder(deps.kv, orderNumber, (order, op) => {
        if (order.status !== "PROCESSING") {
          why = `It is ${order.status}, not PROCESSING`;
          return order;
        }
        if (!order.trackingNumber) {
          why = "It has no tracking number yet";
          return order;
        }
        why = null;
        const now = deps.clock.now();
        const next = withStatus(order, "SHIPPED", now);
        if (next.email) {
          const email: Email = orderShippedEmail(next, deps.config.publicUrl ?? origin);
          queueEmailInto(op, email, now, `order-shipped:${order.orderNumber}`);
        }
        auditMoveInto(deps, op, actor, "order.shipped", order, next);
        return next;
      });
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
      why = "No such order";
    }
    if (why) skipped.push({ orderNumber, reason: why });
    else shippedCount++;
  }
  return { shippedCount, skipped };
}

/** SHIPPED (with a tracking number) to DELIVERED. */
export async function markDelivered(
  deps: OrderDeps,
  orderNumber: string,
  actor?: Actor,
): Promise<Order> {
  return await updateOrder(deps.kv, orderNumber, (order, op) => {
    if (order.status !== "SHIPPED" || !order.trackingNumber) {
      throw new Conflict(`Only a shipped order with a tracking number can be marked delivered`);
    }
    const now = deps.clock.now();
    const next = withStatus(order, "DELIVERED", now);
    if (next.email) {
      const email = orderDeliveredEmail(next, originFor(deps, next));
      queueEmailInto(op, email, now, `order-delivered:${orderNumber}`);
    }
    auditMoveInto(deps, op, actor, "order.delivered", order, next);
    return next;
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
  reasons: CancelReasons,
  /** Who cancels, in the dashboard; none for a shopper's own cancel. */
  actor?: Actor,
): Promise<Order> {
  const order = await getOrder(deps.kv, orderNumber);
  if (!isCancellable(order.status)) {
    throw new Conflict(`An order that is ${order.status} cannot be cancelled`);
  }
  if (order.status === "STARTED") {
    if (order.payment) {
      const payment = order.payment;
      let taken;
      try {
        taken = await step(
          deps,
          "stop payment",
          () => deps.payments.stop(payment, orderNumber),
          orderNumber,
        );
      } catch (err) {
        if (!isProviderTrouble(err)) throw err;
        // The provider cannot be asked now: the checkout ends anyway, and a job stops its
        // payment (a payment taken meanwhile is then recorded and refunded).
        deps.logger({ msg: "cancel: payment stop queued", level: "warn", error: String(err) });
        return await releaseOrder(deps, orderNumber, "CANCELLED", reasons.unpaid, payment, actor);
      }
      if (taken) {
        // It was paid meanwhile: record it, then cancel it as a paid order. Found cancelled instead
        // (the payment could not stand and its own write cancelled the order with its refund owed,
        // or another cancel came first), what the caller asked for is done: answered, not refused.
        // No audit entry of the caller's: the cancel was that write's, under its own reason.
        await receivePaymentEvent(deps, taken);
        const now = await getOrder(deps.kv, orderNumber);
        if (now.status === "CANCELLED") return now;
        return await cancelOrder(deps, orderNumber, reasons, actor);
      }
    }
    return await releaseOrder(deps, orderNumber, "CANCELLED", reasons.unpaid, undefined, actor);
  }
  const cancelled = await step(
    deps,
    "cancel paid order",
    () => cancelPaid(deps, orderNumber, reasons.paid, actor),
    orderNumber,
  );
  await step(deps, "refund", () => refundSoon(deps, orderNumber), orderNumber);
  return await getOrder(deps.kv, cancelled.orderNumber);
}

function cancelPaid(
  deps: OrderDeps,
  orderNumber: string,
  reason: string,
  actor: Actor | undefined,
): Promise<Order> {
  let entry: Deno.KvEntry<Order>;
  let drops: Map<string, DropRead>;
  return runStockJob(deps.kv, deps.clock, {
    async prepare() {
      const found = await findOrderEntry(deps.kv, orderNumber);
      if (!found) throw new NotFound("Order not found");
      entry = found;
      const hold = found.value.dropHold;
      const wants = hold?.state === "sold" ? wantsOf(hold) : new Map();
      drops = await readDropCounts(deps.kv, wants);
      return {
        stock: found.value.reservation.items.map(([k]) => k),
        exclusive: [`order:${orderNumber}`, ...dropClaims(wants)],
      };
    },
    plan(stock, now): JobPlan<Order> {
      const current = entry.value;
      if (!isNewForAdmin(current.status)) {
        throw new Conflict(`An order that is ${current.status} cannot be cancelled`);
      }
      const restocked = applyMove(stock, current.reservation.items, "restock");
      // A drop still selling takes its units back for the next in line; one sold out or called
      // off leaves its count as it ended, and the units sell from the shelf as usual.
      const hold = current.dropHold?.state === "sold" ? current.dropHold : null;
      const read = hold ? drops.get(hold.dropId) : undefined;
      const drop = read?.drop.value;
      const counts = read && drop && !isOver(drop, read.counts.ledger)
        ? copyCounts(read.counts)
        : null;
      if (hold && counts) giveBackSold(counts, hold);
      const next: Order = owingRefund({
        ...withStatus(current, "CANCELLED", now),
        cancelReason: reason,
        reservation: { ...current.reservation, state: "released" },
        ...(hold && counts ? { dropHold: { ...hold, state: "returned" as const } } : {}),
      }, reason);
      const dropSize = dropWriteSize(drops);
      return {
        // Putting units back always fits the shelf.
        stock: restocked.ok ? restocked.next : new Map(),
        checks: 3 + dropSize.checks,
        mutations: 3 + CANCEL_WITH_REFUND_MUTATIONS + dropSize.mutations +
          (actor ? AUDIT_MUTATIONS : 0),
        result: next,
        write(op) {
          writeOrderTo(op, next, entry.versionstamp);
          if (read && counts) writeDropCounts(op, read, counts, now);
          cancelWithRefundInto(deps, op, next, now);
          auditMoveInto(deps, op, actor, "order.cancelled", current, next);
        },
      };
    },
  });
}
