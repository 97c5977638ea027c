/**
 * The paid write: the one write in which a payment becomes a paid order (or, when it cannot stand,
 * money owed back). Exactly once per order, through the stock batch, in four steps a reader
 * follows top to bottom:
 *   1. read the order and everything its payment may change (`readForPaid`);
 *   2. an event handled before only leaves the inbox;
 *   3. an order no longer waiting for payment: a payment for one cancelled before any payment is
 *      owed back (`refundUnwanted`); one paid before is left as it is;
 *   4. the shelf fills it and its promo code has a use for it: paid (`recordPaid`); otherwise the
 *      payment is owed back in full (`cancelUnfillable`).
 */
import type { StockKey } from "../../shared/bom.ts";
import { NotFound } from "../errors.ts";
import type { Email } from "../email/mailer.ts";
import { queueEmailInto } from "../email/outbox.ts";
import { orderConfirmationEmail, ownerOrderEmail } from "./emails.ts";
import { type CartRecord, takeBoughtLinesInto } from "../cart/store.ts";
import { freeHoldInto, type HoldsEntry } from "../stock/holds.ts";
import { keys } from "../kv/keys.ts";
import { applyMove, type StockRecord } from "../stock/record.ts";
import { findOrderEntry, writeOrderTo } from "./store.ts";
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
import { finishEventInto } from "../payments/inbox.ts";
import type { PaidDetails, PaymentEvent } from "../payments/provider.ts";
import { appendStatus, type Order, orderClaims, PAID_WRITE_CHECKS, wasPaid } from "./order.ts";
import { CANCEL_WITH_REFUND_MUTATIONS, cancelWithRefundInto, owingRefund } from "./refunds.ts";
import { originFor } from "./origin.ts";
import { type JobPlan, runStockJob, type StockJob } from "../stock/batch.ts";
import type { OrderDeps } from "./steps.ts";
import { count } from "../telemetry.ts";
import {
  dropClaims,
  type DropRead,
  dropWriteSize,
  readDropCounts,
  wantsOf,
  writeDropCounts,
} from "../drops/counts_store.ts";
import { paymentPersons } from "../drops/checkout_claim.ts";
import type { Person } from "../drops/record.ts";
import {
  copyCounts,
  countMorePersons,
  type DropCounts,
  type DropHold,
  giveBackHeld,
  sellHeld,
  sellLate,
} from "../drops/purchase_rules.ts";

/** Records a paid event through the stock batch (its stock moves from held to sold). */
export async function recordPayment(
  deps: OrderDeps,
  event: PaymentEvent,
  read: Deno.KvEntry<Order>,
): Promise<Order> {
  const job = paidJob(deps, event, read);
  const order = await runStockJob(deps.kv, deps.clock, job);
  // Counted once per order: only the write that made it paid (not a repeat of its event).
  if (job.madePaid()) count("ordersPaid");
  return order;
}

/** What the paid write read: the order, and everything its payment may change. */
interface PaidReads {
  entry: Deno.KvEntry<Order>;
  /** The event's handled marker: set when another delivery of it was handled. */
  handled: Deno.KvEntryMaybe<unknown>;
  cart: Deno.KvEntryMaybe<CartRecord>;
  /** The cart's pending checkout: this order's, unless the cart checked out again since. */
  pending: Deno.KvEntryMaybe<string>;
  holds: HoldsEntry;
  promo: UsageWant | null;
  usage: UsageRead | null;
  /** The drop hold's counts, and every person key the payment counts under. */
  drops: Map<string, DropRead>;
  dropPersons: string[];
}

/** One outcome of the paid write: the order as it ends, and what else the write does. */
type Outcome = {
  order: Order;
  write?: (op: Deno.AtomicOperation) => void;
  moved?: ReadonlyMap<StockKey, StockRecord>;
};

function paidJob(
  deps: OrderDeps,
  event: PaymentEvent,
  /** The order as the caller just read it; a retry reads it again. */
  read: Deno.KvEntry<Order> | null,
): StockJob<Order> & { madePaid(): boolean } {
  let reads: PaidReads;
  // Whether the last plan (the one committed) made the order paid.
  let paid = false;
  return {
    madePaid: () => paid,
    // The order as read names the stock it moves: read with prepare's reads, not after them.
    stockKeys: read?.value.reservation.items.map(([k]) => k),
    async prepare() {
      const known = read ?? await findOrderEntry(deps.kv, event.orderNumber);
      read = null;
      if (!known) throw new NotFound("Order not found");
      reads = await readForPaid(deps.kv, event, known);
      const order = reads.entry.value;
      return {
        stock: order.reservation.items.map(([k]) => k),
        exclusive: [
          ...orderClaims(order),
          `event:${event.id}`,
          ...(reads.usage ? usageClaims(reads.usage) : []),
          ...(order.dropHold ? dropClaims(wantsOf(dropWantOf(order.dropHold, reads))) : []),
        ],
      };
    },
    plan(stock, now): JobPlan<Order> {
      paid = false;
      const order = reads.entry.value;
      const ledger: PromoLedger | null = reads.usage ? ledgerOf(reads.usage) : null;
      const promoSize = ledger ? ledgerSize(ledger) : { checks: 0, mutations: 0 };
      const dropSize = dropWriteSize(reads.drops);
      // The drop's counts this outcome changes (held to sold, given back, or sold late).
      let dropChange: { read: DropRead; counts: DropCounts } | null = null;
      const done = ({ order: next, write = () => {}, moved = new Map() }: Outcome) => ({
        stock: moved,
        checks: PAID_WRITE_CHECKS + promoSize.checks + dropSize.checks,
        mutations: 16 + CANCEL_WITH_REFUND_MUTATIONS + promoSize.mutations + dropSize.mutations,
        result: next,
        write(op: Deno.AtomicOperation) {
          if (reads.handled.versionstamp) {
            op.delete(keys.paymentInbox(event.id));
            return;
          }
          finishEventInto(op, event.id, now);
          if (ledger) writeLedgerInto(op, ledger);
          if (dropChange) writeDropCounts(op, dropChange.read, dropChange.counts, now);
          write(op);
        },
      });
      if (reads.handled.versionstamp) return done({ order });
      // A payment that ends in a refund gives back the use its order or its charge held.
      const giveBack = () => {
        if (ledger && reads.promo) giveBackUse(ledger, reads.promo, order.orderNumber);
      };
      if (order.status !== "STARTED" && order.status !== "EXPIRED") {
        return done(refundUnwanted(deps, event, reads, now, giveBack));
      }
      const held = order.reservation.state === "held";
      const sold = applyMove(stock, order.reservation.items, held ? "commit" : "sell");
      // The use is counted now, or, when another order took the last one meanwhile, the
      // discounted payment cannot stand and goes back in full like one the shelf cannot fill.
      const usedUp = sold.ok && !!ledger && !!reads.promo &&
        !countUse(ledger, reads.promo, order.orderNumber);
      // The drop's units: a hold moves to sold (once the payment's email and address are within
      // the limit too); a lapsed hold sells only what the drop still has for this person.
      const hold = order.dropHold ?? null;
      const dropRead = hold ? reads.drops.get(hold.dropId) : undefined;
      const dropSold = sold.ok && !usedUp && hold && dropRead
        ? sellDrop(dropRead, hold, reads.dropPersons)
        : null;
      const dropShort = dropSold === false;
      if (!sold.ok || usedUp || dropShort) {
        giveBack();
        if (hold?.state === "holding" && dropRead) {
          const counts = copyCounts(dropRead.counts);
          giveBackHeld(counts, hold);
          dropChange = { read: dropRead, counts };
        }
        return done(
          cancelUnfillable(
            deps,
            event,
            reads,
            stock,
            now,
            usedUp ? "promo" : dropShort ? "drop" : "stock",
          ),
        );
      }
      if (dropSold && dropRead) dropChange = { read: dropRead, counts: dropSold };
      paid = true;
      return done(recordPaid(deps, event, reads, sold.next, now));
    },
  };
}

/**
 * The drop counts once the payment's units are sold, or false when they cannot be: the
 * payment's email or address already holds the limit (a hosted checkout learns them only now),
 * or a lapsed hold's units went to others meanwhile.
 */
function sellDrop(read: DropRead, hold: DropHold, persons: readonly string[]): DropCounts | false {
  const drop = read.drop.value;
  const counts = copyCounts(read.counts);
  if (hold.state === "sold") return counts;
  if (!drop) return counts;
  if (hold.state === "holding") {
    const more = persons.filter((p) => !hold.persons.includes(p));
    if (!countMorePersons(drop, counts, more, hold.units)) return false;
    sellHeld(counts, hold);
    return counts;
  }
  return sellLate(drop, counts, hold, persons) ? counts : false;
}

/** The keys a payment of a drop order reads: its hold's, and its payment's person keys. */
function dropWantOf(hold: DropHold, reads: Pick<PaidReads, "dropPersons">): DropHold {
  return { ...hold, persons: reads.dropPersons };
}

/**
 * Step 1: the order read again with the other keys (it may have moved on since the caller read
 * it, alongside the charge, say); those depend only on what never changes (its cart, client and
 * promo code), so it costs no extra round trip.
 */
async function readForPaid(
  kv: Deno.Kv,
  event: PaymentEvent,
  known: Deno.KvEntry<Order>,
): Promise<PaidReads> {
  let promo = promoOf(known.value, event);
  const [[handled, cart, pending, holds, fresh], read] = await Promise.all([
    kv.getMany<[unknown, CartRecord, string, never, Order]>([
      keys.paymentEvent(event.id),
      keys.cart(known.value.cartId),
      keys.pendingCheckout(known.value.cartId),
      keys.holds(known.value.holdClient ?? ""),
      keys.order(known.value.orderNumber),
    ]) as Promise<
      [
        Deno.KvEntryMaybe<unknown>,
        Deno.KvEntryMaybe<CartRecord>,
        Deno.KvEntryMaybe<string>,
        HoldsEntry,
        Deno.KvEntryMaybe<Order>,
      ]
    >,
    promo ? readUsage(kv, [promo]) : null,
  ]);
  if (!fresh.value) throw new NotFound("Order not found");
  const entry = fresh as Deno.KvEntry<Order>;
  let usage = read;
  const want = promoOf(entry.value, event);
  if (JSON.stringify(want) !== JSON.stringify(promo)) {
    // The paid write of another delivery filled in the email the promo counts by.
    promo = want;
    usage = promo ? await readUsage(kv, [promo]) : null;
  }
  const dropPersons = entry.value.dropHold
    ? paymentPersons(entry.value.dropHold.persons, payingPerson(entry.value, event.details))
    : [];
  const drops = entry.value.dropHold && entry.value.dropHold.state !== "sold"
    ? await readDropCounts(kv, wantsOf(dropWantOf(entry.value.dropHold, { dropPersons })))
    : new Map<string, DropRead>();
  return { entry, handled, cart, pending, holds, promo, usage, drops, dropPersons };
}

/**
 * Who pays, as a drop's per-person limit counts them: the order's account and the network it
 * checked out from, its email (else the one a payment page collected), and the delivery address a
 * payment page collected (else the order's).
 */
export function payingPerson(
  order: Pick<Order, "userId" | "email" | "shippingAddress" | "holdClient">,
  details: Pick<PaidDetails, "email" | "address"> | undefined,
): Person {
  return {
    userId: order.userId,
    email: order.email ?? details?.email ?? null,
    address: details?.address ?? order.shippingAddress,
    network: order.holdClient ?? "",
  };
}

/**
 * Step 3: an order no longer waiting for payment. Cancelled before any payment (a replaced
 * checkout whose payment could not be stopped in time), this money has no order to pay for and
 * goes back; paid before (another event, redirect or poll won), only the event is marked.
 */
function refundUnwanted(
  deps: OrderDeps,
  event: PaymentEvent,
  { entry }: PaidReads,
  now: number,
  giveBack: () => void,
): Outcome {
  const order = entry.value;
  if (order.status !== "CANCELLED" || wasPaid(order) || order.refund) return { order };
  giveBack();
  const owed = owingRefund({
    ...withPayment(order, event, now, deps.payments.name),
    cancelReason: `${
      order.cancelReason ?? "Cancelled"
    }. A payment for it arrived afterwards and is refunded in full.`,
  }, "cancelled before payment");
  return {
    order: owed,
    write(op) {
      writeOrderTo(op, owed, entry.versionstamp);
      cancelWithRefundInto(deps, op, owed, now);
    },
  };
}

/**
 * Step 4, when it cannot stand: the shelf cannot fill the order (the hold lapsed and the units
 * sold meanwhile, or the owner's count fell below what was held), or its promo code has no use
 * left for it. The order is cancelled, its hold released, and the payment owed back in full.
 */
function cancelUnfillable(
  deps: OrderDeps,
  event: PaymentEvent,
  { entry, holds, promo }: PaidReads,
  stock: ReadonlyMap<StockKey, StockRecord>,
  now: number,
  why: "stock" | "promo" | "drop",
): Outcome {
  const usedUp = why === "promo";
  const order = entry.value;
  const held = order.reservation.state === "held";
  const released = held ? applyMove(stock, order.reservation.items, "release") : null;
  const cancelled: Order = owingRefund({
    ...appendStatus(withPayment(order, event, now, deps.payments.name), "CANCELLED", now),
    reservation: { ...order.reservation, state: "released" },
    promoHold: null,
    ...(order.dropHold ? { dropHold: { ...order.dropHold, state: "returned" as const } } : {}),
    cancelReason: usedUp
      ? `The promo code ${
        promo!.code
      } had no use left for this order when its payment arrived; your payment is refunded in full. Return to your cart to check out again.`
      : why === "drop"
      ? "The drop allows only so many per person, and this payment's email or address already has them (or the drop's units went to others before it arrived); your payment is refunded in full."
      : held
      ? "We could not fill this order from our shelf after all; your payment is refunded in full."
      : "Your reservation expired before the payment arrived and the items sold out meanwhile; your payment is refunded in full.",
  }, usedUp ? "promo code used up" : why === "drop" ? "drop limit" : "could not be filled");
  return {
    order: cancelled,
    write(op) {
      writeOrderTo(op, cancelled, entry.versionstamp);
      cancelWithRefundInto(deps, op, cancelled, now);
      freeHoldInto(op, order.holdClient, holds, order.orderNumber, now);
    },
    moved: released?.ok ? released.next : new Map(),
  };
}

/**
 * Step 4, paid: the order is PAYMENT_RECEIVED with its stock sold, the lines it bought leave its
 * cart, its client's hold is freed, and the shopper's confirmation and the owner's notice are
 * queued.
 */
function recordPaid(
  deps: OrderDeps,
  event: PaymentEvent,
  { entry, cart, pending, holds, dropPersons }: PaidReads,
  sold: ReadonlyMap<StockKey, StockRecord>,
  now: number,
): Outcome {
  const order = entry.value;
  const paid: Order = {
    ...appendStatus(withPayment(order, event, now, deps.payments.name), "PAYMENT_RECEIVED", now),
    reservation: { ...order.reservation, state: "committed" },
    promoHold: null,
    ...(order.dropHold
      ? { dropHold: { ...order.dropHold, persons: dropPersons, state: "sold" as const } }
      : {}),
    paymentError: null,
  };
  return {
    order: paid,
    write(op) {
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
    },
    moved: sold,
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
    // The provider's discount as the charged total implies it: a session paid in another currency
    // reports its discount converted, which may be cents off the dollars it took.
    const discount = details.amountDiscountCents === undefined ||
        details.amountDiscountCents === null
      ? order.discountCents
      : order.discountCents +
        goodsShare(Math.max(0, order.totalCents - details.amountTotalCents), order);
    next.discountCents = discount;
    next.totalCents = details.amountTotalCents;
    // What is left is the tax as charged: its line was discounted by the rest of the code's
    // discount, and the breakdown adds up to what was charged (a cent of rounding lands here).
    next.taxCents = Math.max(
      0,
      details.amountTotalCents - (order.subtotalCents - discount) - order.shippingCents,
    );
  }
  return next;
}

/**
 * The part of a provider's discount that fell on the goods. A hosted page's code (Stripe's
 * promotion codes) discounts the estimated tax line too, spread over the lines by their amounts,
 * as taxing the discounted goods would: recorded whole as the discount, it overstated both the
 * discount and the tax collected. Shipping is a rate, never discounted.
 */
function goodsShare(discountCents: number, order: Order): number {
  const lines = order.subtotalCents + order.taxCents;
  if (lines <= 0 || order.taxCents <= 0) return discountCents;
  return Math.min(order.subtotalCents, Math.round(discountCents * order.subtotalCents / lines));
}
