/**
 * Payments arriving for orders: every provider signal (a webhook, a demo charge, a redirect's
 * poll, the expiry's question to the provider) becomes a payment event, which is
 *   1. recorded (inbox + queue job, in one write), then
 *   2. handled: a paid order, a refund, a failure note or an expiry, in one write that also
 *      marks the event handled and removes it from the inbox.
 * An event id is handled once. A crash between the two steps leaves the queue (and the start-up
 * sweep) to handle it, so a charge always ends as a paid order or a refund.
 */
import type { StockKey } from "../../shared/bom.ts";
import { NotFound } from "../errors.ts";
import type { Email } from "../email/mailer.ts";
import { queueEmailInto } from "../email/outbox.ts";
import { orderConfirmationEmail, ownerOrderEmail } from "./emails.ts";
import { type CartRecord, takeBoughtLinesInto } from "../cart/cart.ts";
import { freeHoldInto, type HoldsEntry } from "../stock/holds.ts";
import { keys } from "../kv/keys.ts";
import type { StockRecord } from "../stock/record.ts";
import { findOrderEntry, updateOrder, writeOrderTo } from "./store.ts";
import { normalizePromoCode, readUsage, type UsageRead, type UsageWant } from "../promos/store.ts";
import {
  countUse,
  giveBackUse,
  ledgerOf,
  ledgerSize,
  type PromoLedger,
  usageClaims,
  usageWant,
  writeLedgerInto,
} from "../promos/rules.ts";
import {
  finishEventInto,
  inboxEvent,
  markHandledInto,
  recordEventInto,
} from "../payments/inbox.ts";
import type { PaidDetails, PaymentEvent } from "../payments/provider.ts";
import { appendStatus, type Order, orderClaims, wasPaid } from "./order.ts";
import {
  CANCEL_WITH_REFUND_MUTATIONS,
  cancelWithRefundInto,
  owingRefund,
  recordRefundOutcome,
  refundSoon,
} from "./refunds.ts";
import { releaseOrder } from "./release.ts";
import { originFor } from "./origin.ts";
import { type JobPlan, runStockJob, type StockJob } from "../stock/batch.ts";
import { applyMove } from "../stock/record.ts";
import { type OrderDeps, step } from "./steps.ts";

/**
 * Records an event (step 1) and handles it at once (step 2), answering the order as it ends.
 * For events a provider delivers over HTTP: the answer to the provider can be given as soon as
 * the event is recorded.
 */
export async function receivePaymentEvent(
  deps: OrderDeps,
  event: PaymentEvent,
): Promise<Order | null> {
  await recordPaymentEvent(deps, event);
  return await handlePaymentEvent(deps, event);
}

/** Step 1 alone: the event is recorded with its queue job (a no-op for one handled before). */
export async function recordPaymentEvent(deps: OrderDeps, event: PaymentEvent): Promise<void> {
  await step(deps, "record payment event", async () => {
    const op = deps.kv.atomic();
    recordEventInto(op, event, deps.clock.now());
    // A failed check means the event was handled before: nothing to record.
    await op.commit();
  });
}

/** The queue job of a recorded event: handles it if it is still waiting. */
export async function handleRecordedEvent(deps: OrderDeps, eventId: string): Promise<void> {
  const event = await inboxEvent(deps.kv, eventId);
  if (event) await handlePaymentEvent(deps, event);
}

/**
 * Handles one event, once per event id; answers the order (null for an unknown order, whose
 * event is logged and set aside).
 */
export async function handlePaymentEvent(
  deps: OrderDeps,
  event: PaymentEvent,
  /** The order, when the caller started reading it already (the payment's own read). */
  orderRead?: Promise<Deno.KvEntry<Order> | null>,
): Promise<Order | null> {
  const { kv, clock, logger } = deps;
  if (event.type === "refund") {
    // About a refund the shop asked for (found by its order number): its final state.
    const order = event.refund && await findOrderEntry(kv, event.orderNumber)
      ? await recordRefundOutcome(deps, event.orderNumber, event.refund)
      : null;
    await finishEvent(kv, event.id, clock.now());
    return order;
  }
  const read = await orderRead?.catch(() => null);
  const entry = read?.value.orderNumber === event.orderNumber
    ? read
    : await findOrderEntry(kv, event.orderNumber);
  if (!entry || (entry.value.payment && entry.value.payment.id !== event.paymentId)) {
    logger({ msg: "payment event for an unknown order", level: "warn", event });
    await finishEvent(kv, event.id, clock.now());
    return entry?.value ?? null;
  }
  switch (event.type) {
    case "paid": {
      const order = await step(deps, "record payment", () => recordPayment(deps, event, entry));
      if (order.refund?.state === "pending") {
        await step(deps, "refund", () => refundSoon(deps, order.orderNumber));
      }
      return order;
    }
    case "failed": {
      const order = await notePaymentFailure(
        deps,
        event.orderNumber,
        event.failureMessage ?? "The payment failed",
      );
      await finishEvent(kv, event.id, clock.now());
      return order;
    }
    case "expired": {
      const order = await releaseOrder(deps, event.orderNumber, "EXPIRED", "The payment expired");
      await finishEvent(kv, event.id, clock.now());
      return order;
    }
  }
}

/**
 * Notes a failed attempt on an unpaid order, for the shopper to read; the hold stands until it
 * lapses, so another card can be tried.
 */
export async function notePaymentFailure(
  deps: OrderDeps,
  orderNumber: string,
  message: string,
): Promise<Order> {
  return await updateOrder(
    deps.kv,
    orderNumber,
    (order) =>
      order.status === "STARTED"
        ? { ...order, paymentError: message, updatedAt: deps.clock.now() }
        : order,
  );
}

/**
 * Marks an event handled on its own (when handling it wrote nothing else). Unchecked: marking it
 * again only renews how long it is remembered.
 */
async function finishEvent(kv: Deno.Kv, eventId: string, now: number): Promise<void> {
  await markHandledInto(kv.atomic(), eventId, now).commit();
}

/** Records a paid event through the stock batch (its stock moves from held to sold). */
function recordPayment(
  deps: OrderDeps,
  event: PaymentEvent,
  read: Deno.KvEntry<Order>,
): Promise<Order> {
  return runStockJob(deps.kv, deps.clock, paidJob(deps, event, read));
}

/**
 * The stock job of a payment. Exactly once per order: a STARTED order becomes PAYMENT_RECEIVED,
 * its held stock becomes sold, its promo code's use is counted, the confirmation email is queued,
 * the lines it bought leave its cart and its client's hold is freed, all with the event marked
 * handled. A
 * payment for an order whose hold lapsed takes the stock again if it is free; a payment the shelf
 * cannot fill, whose promo code has no use left for it, or for an order cancelled before any
 * payment, is owed back (a refund queued in the same write).
 */
function paidJob(
  deps: OrderDeps,
  event: PaymentEvent,
  /** The order as the caller just read it; a retry reads it again. */
  read: Deno.KvEntry<Order> | null,
): StockJob<Order> {
  const { kv } = deps;
  let entry: Deno.KvEntry<Order>;
  let handled: Deno.KvEntryMaybe<unknown>;
  let cart: Deno.KvEntryMaybe<CartRecord>;
  let pending: Deno.KvEntryMaybe<string>;
  let holds: HoldsEntry;
  let promo: UsageWant | null;
  let usage: UsageRead | null;
  return {
    // The order as read names the stock it moves: read with prepare's reads, not after them.
    stockKeys: read?.value.reservation.items.map(([k]) => k),
    async prepare() {
      const known = read ?? await findOrderEntry(kv, event.orderNumber);
      read = null;
      if (!known) throw new NotFound("Order not found");
      // The order may have moved on since the caller read it (read alongside the charge, say):
      // it is read again with the other keys, which depend only on what never changes (its
      // cart, client and promo code), at no extra round trip.
      promo = promoOf(known.value, event);
      let fresh: Deno.KvEntryMaybe<Order>;
      [[handled, cart, pending, holds, fresh], usage] = await Promise.all([
        kv.getMany<[unknown, CartRecord, string, never, Order]>([
          keys.paymentEvent(event.id),
          keys.cart(known.value.cartId),
          keys.pendingCheckout(known.value.cartId),
          keys.holds(known.value.holdClient ?? ""),
          keys.order(known.value.orderNumber),
        ]) as Promise<
          [typeof handled, typeof cart, typeof pending, HoldsEntry, Deno.KvEntryMaybe<Order>]
        >,
        promo ? readUsage(kv, [promo]) : null,
      ]);
      if (!fresh.value) throw new NotFound("Order not found");
      entry = fresh as Deno.KvEntry<Order>;
      const order = entry.value;
      const want = promoOf(order, event);
      if (JSON.stringify(want) !== JSON.stringify(promo)) {
        // The paid write of another delivery filled in the email the promo counts by.
        promo = want;
        usage = promo ? await readUsage(kv, [promo]) : null;
      }
      return {
        stock: order.reservation.items.map(([k]) => k),
        exclusive: [
          ...orderClaims(order),
          `event:${event.id}`,
          ...(usage ? usageClaims(usage) : []),
        ],
      };
    },
    plan(stock, now): JobPlan<Order> {
      const order = entry.value;
      const ledger: PromoLedger | null = usage ? ledgerOf(usage) : null;
      const promoSize = ledger ? ledgerSize(ledger) : { checks: 0, mutations: 0 };
      const done = (
        next: Order,
        write: (op: Deno.AtomicOperation) => void = () => {},
        moved: ReadonlyMap<StockKey, StockRecord> = new Map(),
      ): JobPlan<Order> => ({
        stock: moved,
        checks: 9 + promoSize.checks,
        mutations: 16 + CANCEL_WITH_REFUND_MUTATIONS + promoSize.mutations,
        result: next,
        write(op) {
          if (handled.versionstamp) {
            op.delete(keys.paymentInbox(event.id));
            return;
          }
          finishEventInto(op, event.id, now);
          if (ledger) writeLedgerInto(op, ledger);
          write(op);
        },
      });
      if (handled.versionstamp) return done(order);
      // A payment that ends in a refund gives back the use its order or its charge held.
      const giveBack = () => {
        if (ledger && promo) giveBackUse(ledger, promo, order.orderNumber);
      };

      if (order.status !== "STARTED" && order.status !== "EXPIRED") {
        // Cancelled before any payment (a replaced checkout whose payment could not be stopped
        // in time): this money has no order to pay for and goes back.
        if (order.status === "CANCELLED" && !wasPaid(order) && !order.refund) {
          giveBack();
          const owed = owingRefund({
            ...withPayment(order, event, now, deps.payments.name),
            cancelReason: `${
              order.cancelReason ?? "Cancelled"
            }. A payment for it arrived afterwards and is refunded in full.`,
          }, "cancelled before payment");
          return done(owed, (op) => {
            writeOrderTo(op, owed, entry.versionstamp);
            cancelWithRefundInto(deps, op, owed, now);
          });
        }
        // Paid before (another event, redirect or poll won): only the event is marked.
        return done(order);
      }

      const held = order.reservation.state === "held";
      const sold = applyMove(stock, order.reservation.items, held ? "commit" : "sell");
      // The use is counted now, or, when another order took the last one meanwhile, the
      // discounted payment cannot stand and goes back in full like one the shelf cannot fill.
      const usedUp = sold.ok && ledger && promo && !countUse(ledger, promo, order.orderNumber);
      if (!sold.ok || usedUp) {
        // The shelf cannot fill it: the hold lapsed and the units sold meanwhile, or the owner's
        // count fell below what was held. The payment goes back in full.
        giveBack();
        const released = held ? applyMove(stock, order.reservation.items, "release") : null;
        const cancelled: Order = owingRefund({
          ...appendStatus(withPayment(order, event, now, deps.payments.name), "CANCELLED", now),
          reservation: { ...order.reservation, state: "released" },
          promoHold: null,
          cancelReason: usedUp
            ? `The promo code ${
              promo!.code
            } had no use left for this order when its payment arrived; your payment is refunded in full. Return to your cart to check out again.`
            : held
            ? "We could not fill this order from our shelf after all; your payment is refunded in full."
            : "Your reservation expired before the payment arrived and the items sold out meanwhile; your payment is refunded in full.",
        }, usedUp ? "promo code used up" : "could not be filled");
        return done(cancelled, (op) => {
          writeOrderTo(op, cancelled, entry.versionstamp);
          cancelWithRefundInto(deps, op, cancelled, now);
          freeHoldInto(op, order.holdClient, holds, order.orderNumber, now);
        }, released?.ok ? released.next : new Map());
      }

      const paid: Order = {
        ...appendStatus(
          withPayment(order, event, now, deps.payments.name),
          "PAYMENT_RECEIVED",
          now,
        ),
        reservation: { ...order.reservation, state: "committed" },
        promoHold: null,
        paymentError: null,
      };
      return done(paid, (op) => {
        writeOrderTo(op, paid, entry.versionstamp);
        if (pending.value === order.orderNumber) op.check(pending).delete(pending.key);
        takeBoughtLinesInto(op, cart, order.items, now);
        freeHoldInto(op, order.holdClient, holds, order.orderNumber, now);
        // Hosted checkouts that collected no email have no one to confirm to; the page says it.
        if (paid.email) {
          queueEmailInto(
            op,
            confirmationOf(deps, paid),
            now,
            `order-confirmation:${paid.orderNumber}`,
          );
        }
        queueEmailInto(
          op,
          ownerOrderEmail(paid, originFor(deps, paid), deps.config.shopEmail),
          now,
          `owner-order:${paid.orderNumber}`,
        );
      }, sold.next);
    },
  };
}

/**
 * The shop's promo code a payment uses: the order's own, or one the provider's page applied (the
 * demo page), with the email it counts against.
 */
function promoOf(order: Order, event: PaymentEvent): UsageWant | null {
  const code = order.promoCode ?? event.details?.promoCode;
  if (!code) return null;
  return usageWant(normalizePromoCode(code), order.email ?? event.details?.email);
}

function confirmationOf(deps: OrderDeps, order: Order): Email {
  return orderConfirmationEmail(order, originFor(deps, order));
}

/** The order with what the provider learned, and the payment it was taken through. */
function withPayment(
  order: Order,
  event: PaymentEvent,
  now: number,
  provider: string,
): Order {
  const next = applyPaidDetails(order, event.details ?? {}, now);
  // A crash between the reservation and attaching its payment leaves no reference: the event's.
  next.payment ??= { provider, kind: event.paymentKind, id: event.paymentId };
  return next;
}

function applyPaidDetails(order: Order, details: PaidDetails, now: number): Order {
  const next: Order = { ...order, updatedAt: now };
  if (details.email && !order.email) next.email = details.email;
  if (details.customerName && !order.customerName) next.customerName = details.customerName;
  if (details.address) next.shippingAddress = details.address;
  if (details.taxId) next.taxId = details.taxId;
  if (details.promoCode) next.promoCode = details.promoCode;
  if (details.totals) return { ...next, ...details.totals };
  if (typeof details.amountTotalCents === "number") {
    const discount = details.amountDiscountCents ?? order.discountCents;
    next.discountCents = discount;
    next.totalCents = details.amountTotalCents;
    // The provider discounted the tax line too; keep the breakdown adding up to what was charged.
    next.taxCents = Math.max(
      0,
      details.amountTotalCents - (order.subtotalCents - discount) - order.shippingCents,
    );
  }
  return next;
}
