import { addBom, type Bom, type StockKey, unitsAvailable } from "../../shared/bom.ts";
import type { Address } from "../../shared/api_types.ts";
import type { OrderStatus } from "../../shared/status.ts";
import { canTransition } from "../../shared/status.ts";
import { computeTotals, type Region, type Totals } from "../../shared/policy.ts";
import type { Clock } from "../deps.ts";
import { BadRequest, Conflict, NotFound } from "../errors.ts";
import type { Email } from "../email/mailer.ts";
import { queueEmailInto } from "../email/outbox.ts";
import type { PaidDetails, PaymentRef } from "../payments/provider.ts";
import type { PricedLine } from "./cart_view.ts";
import { keys } from "./keys.ts";
import { CONFLICT, listValues, withRetries } from "./kv_util.ts";
import { addStock, addStockTo, getStockEntries } from "./stock.ts";
import { commitStockChange } from "./stock_version.ts";

/** Most distinct stock components one order may reserve: one KV atomic allows 100 checks. */
export const MAX_ORDER_COMPONENTS = 90;

export type { Address };

/** A line of an order, frozen at the price charged. */
export interface OrderItem {
  lineId: string;
  kind: "product" | "custom" | "cube";
  productId: number | null;
  name: string;
  priceCents: number;
  quantity: number;
  image: string;
  size: number | null;
  keycaps: string | null;
  bodyColor: string | null;
  switches: { id: number; brand: string; name: string; image: string }[];
}

/** What an order holds in stock until it is paid or lapses. */
export interface Reservation {
  items: [StockKey, number][];
  expiresAt: number;
  state: "held" | "committed" | "released";
}

/** An order. */
export interface Order extends Totals {
  orderNumber: string;
  status: OrderStatus;
  region: Region;
  cartId: string;
  userId: string | null;
  email: string | null;
  customerName: string | null;
  shippingAddress: Address | null;
  items: OrderItem[];
  promoCode: string | null;
  taxId: { type: string; value: string } | null;
  reservation: Reservation;
  payment: PaymentRef | null;
  paymentError: string | null;
  trackingNumber: string | null;
  cancelReason: string | null;
  createdAt: number;
  updatedAt: number;
  history: { status: OrderStatus; at: number }[];
}

/**
 * A new order number: "ST" and 18 characters of Crockford base32, 90 random bits, so tracking URLs
 * (a guest's only key) cannot be guessed.
 */
export function newOrderNumber(): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return "ST" + [...bytes].map((b) => alphabet[b & 31]).join("");
}

/** Order items from priced cart lines. */
export function orderItemsOf(lines: readonly PricedLine[]): OrderItem[] {
  return lines.map(({ item, quantity }) => ({
    lineId: item.id,
    kind: item.kind,
    productId: item.productId,
    name: item.name,
    priceCents: item.priceCents,
    quantity,
    image: item.image,
    size: item.size,
    keycaps: item.keycaps,
    bodyColor: item.bodyColor,
    switches: item.switches.map((s) => ({
      id: s.id,
      brand: s.brand,
      name: s.name,
      image: s.image,
    })),
  }));
}

/** Everything a new order needs besides its reservation. */
export type NewOrder = Omit<
  Order,
  | "orderNumber"
  | "status"
  | "reservation"
  | "payment"
  | "paymentError"
  | "trackingNumber"
  | "cancelReason"
  | "createdAt"
  | "updatedAt"
  | "history"
>;

/** Stock that was short for a checkout, by the name of each cart line, with how many can be had. */
export type InsufficientStock = Record<string, number>;

/**
 * Reserves every component of the lines and writes the order in STARTED, in one atomic operation
 * that checks each stock entry's version: either all of it is reserved or none. Throws Conflict
 * with `insufficientStock` naming every short line.
 */
export async function createReservedOrder(
  kv: Deno.Kv,
  clock: Clock,
  lines: readonly PricedLine[],
  input: NewOrder,
  reservationMs: number,
): Promise<Order> {
  const need: Bom = new Map();
  for (const line of lines) addBom(need, line.bom, line.quantity);
  if (need.size > MAX_ORDER_COMPONENTS) {
    throw new BadRequest(
      `This order has ${need.size} different switches and parts; one order can hold at most ${MAX_ORDER_COMPONENTS}. Please split it into two orders.`,
    );
  }
  const stockKeys = [...need.keys()];
  return await withRetries(
    async () => {
      const entries = await getStockEntries(kv, stockKeys);
      const stockOf = (k: StockKey) => entries.get(k)?.value?.stock ?? 0;
      const short = [...need].filter(([k, n]) => stockOf(k) < n);
      if (short.length > 0) {
        throw new Conflict("Some items are no longer in stock", {
          insufficientStock: insufficientStockOf(lines, need, stockOf),
        });
      }
      const now = clock.now();
      const order: Order = {
        ...input,
        orderNumber: newOrderNumber(),
        status: "STARTED",
        reservation: { items: [...need], expiresAt: now + reservationMs, state: "held" },
        payment: null,
        paymentError: null,
        trackingNumber: null,
        cancelReason: null,
        createdAt: now,
        updatedAt: now,
        history: [{ status: "STARTED", at: now }],
      };
      const op = kv.atomic();
      addStockTo(op, entries, [...need], -1, 0);
      op.check({ key: keys.order(order.orderNumber), versionstamp: null })
        .set(keys.order(order.orderNumber), order)
        .enqueue({ type: "reservation-expiry", orderNumber: order.orderNumber }, {
          delay: reservationMs,
        });
      if (order.userId) op.set(keys.ordersByUser(order.userId, order.orderNumber), order.createdAt);
      // In the same write, so a crash cannot leave a reservation the next checkout would not find.
      op.set(keys.pendingCheckout(order.cartId), order.orderNumber, {
        expireIn: reservationMs * 2,
      });
      return await commitStockChange(kv, op, now) ? order : CONFLICT;
    },
    "reserve stock",
    "stock",
  );
}

/**
 * Names every cart line that touches a short component (lines can share a switch or a box, so
 * each may fit alone and still not together), with how many of it the stock alone could make.
 */
function insufficientStockOf(
  lines: readonly PricedLine[],
  need: Bom,
  stockOf: (k: StockKey) => number,
): InsufficientStock {
  const short = new Set([...need].filter(([k, n]) => stockOf(k) < n).map(([k]) => k));
  const result: InsufficientStock = {};
  for (const line of lines) {
    if (![...line.bom.keys()].some((k) => short.has(k))) continue;
    let name = line.item.name;
    for (let i = 2; name in result; i++) name = `${line.item.name} (${i})`;
    result[name] = unitsAvailable(line.bom, stockOf);
  }
  return result;
}

/** The order, or null. */
export async function findOrder(kv: Deno.Kv, orderNumber: string): Promise<Order | null> {
  if (!/^[A-Z0-9]{4,40}$/.test(orderNumber)) return null;
  return (await kv.get<Order>(keys.order(orderNumber))).value;
}

/** The order; throws NotFound. */
export async function getOrder(kv: Deno.Kv, orderNumber: string): Promise<Order> {
  const order = await findOrder(kv, orderNumber);
  if (!order) throw new NotFound("Order not found");
  return order;
}

/** The order paid through a checkout session or payment intent, or null. */
export async function findOrderByPaymentId(kv: Deno.Kv, paymentId: string): Promise<Order | null> {
  if (!/^[A-Za-z0-9_-]{4,200}$/.test(paymentId)) return null;
  const ref = await kv.get<string>(keys.orderBySession(paymentId));
  return ref.value ? await findOrder(kv, ref.value) : null;
}

/** Records the payment object created for an order, and indexes the order by its id. */
export async function attachPayment(
  kv: Deno.Kv,
  clock: Clock,
  orderNumber: string,
  payment: PaymentRef,
): Promise<Order> {
  return await updateOrder(kv, orderNumber, (order, op) => {
    op.set(keys.orderBySession(payment.id), orderNumber);
    return { ...order, payment, updatedAt: clock.now() };
  });
}

/** Every order, newest first. */
export async function listOrders(kv: Deno.Kv): Promise<Order[]> {
  return (await listValues<Order>(kv, keys.orders())).sort((a, b) => b.createdAt - a.createdAt);
}

/**
 * Reads an order, lets `change` build the next version (adding writes to the same atomic
 * operation), and commits with a version check, retrying on conflict. `change` may return the
 * order unchanged to write nothing.
 */
export async function updateOrder(
  kv: Deno.Kv,
  orderNumber: string,
  change: (order: Order, op: Deno.AtomicOperation) => Order | Promise<Order>,
): Promise<Order> {
  return await withRetries(
    async () => {
      const entry = await kv.get<Order>(keys.order(orderNumber));
      if (!entry.value) throw new NotFound("Order not found");
      const op = kv.atomic().check(entry);
      const next = await change(entry.value, op);
      if (next === entry.value) return next;
      op.set(keys.order(orderNumber), next);
      return (await op.commit()).ok ? next : CONFLICT;
    },
    "update the order",
    `order:${orderNumber}`,
  );
}

/** Adds a status step to an order, if the transition table allows it. */
export function withStatus(order: Order, status: OrderStatus, now: number): Order {
  if (!canTransition(order.status, status)) {
    throw new Conflict(`Cannot move an order from ${order.status} to ${status}`);
  }
  return appendStatus(order, status, now);
}

/**
 * Adds a status step without consulting the transition table: for the payment path, where a
 * payment decides the status (an EXPIRED order can still be paid, or cancelled for a refund), moves
 * the admin may not make.
 */
function appendStatus(order: Order, status: OrderStatus, now: number): Order {
  return { ...order, status, updatedAt: now, history: [...order.history, { status, at: now }] };
}

/**
 * Gives an unpaid order's held stock back and moves it to EXPIRED or CANCELLED. Idempotent: an
 * order whose stock was already released or committed is returned unchanged.
 */
export async function releaseOrder(
  kv: Deno.Kv,
  clock: Clock,
  orderNumber: string,
  to: "EXPIRED" | "CANCELLED",
  reason: string,
): Promise<Order> {
  return await withRetries(
    async () => {
      const entry = await kv.get<Order>(keys.order(orderNumber));
      const order = entry.value;
      if (!order) throw new NotFound("Order not found");
      if (order.reservation.state !== "held" || order.status !== "STARTED") return order;
      const now = clock.now();
      const next: Order = {
        ...withStatus(order, to, now),
        reservation: { ...order.reservation, state: "released" },
        cancelReason: reason,
      };
      const op = kv.atomic().check(entry).set(keys.order(orderNumber), next);
      await addStock(kv, op, order.reservation.items, +1, 0);
      return await commitStockChange(kv, op, now) ? next : CONFLICT;
    },
    "release the reservation",
    "stock",
  );
}

/** What happened when a payment was recorded. */
export type PaidOutcome =
  | { kind: "recorded"; order: Order }
  | { kind: "already"; order: Order }
  | { kind: "refund"; order: Order };

/**
 * Records a payment: STARTED to PAYMENT_RECEIVED, held stock becomes used, the confirmation email
 * is queued, and the event id is marked processed, all in one atomic operation. Exactly once: an
 * order already past STARTED is left as it is. A payment for an order whose reservation lapsed
 * takes the stock again if it is still there; otherwise the order is cancelled for a refund.
 */
export async function markOrderPaid(
  kv: Deno.Kv,
  clock: Clock,
  orderNumber: string,
  details: PaidDetails,
  eventId: string,
  confirmation: (order: Order) => Email,
): Promise<PaidOutcome> {
  return await withRetries<PaidOutcome>(
    async () => {
      const entry = await kv.get<Order>(keys.order(orderNumber));
      const order = entry.value;
      if (!order) throw new NotFound("Order not found");
      const now = clock.now();
      const op = kv.atomic().check(entry)
        .check({ key: keys.paymentEvent(eventId), versionstamp: null })
        .set(keys.paymentEvent(eventId), { orderNumber, at: now }, { expireIn: 90 * 86400_000 });
      if (order.status !== "STARTED" && order.status !== "EXPIRED") {
        // Paid before (another event, redirect or poll won), or cancelled: only mark the event.
        const first = (await op.commit()).ok;
        // Cancelled before any payment (a replaced checkout whose session could not be stopped in
        // time): this money has no order to pay for and goes back, on the event's first delivery.
        const everPaid = order.history.some((h) => h.status === "PAYMENT_RECEIVED");
        if (first && order.status === "CANCELLED" && !everPaid) return { kind: "refund", order };
        return { kind: "already", order };
      }
      const held = order.reservation.state === "held";
      const paid = applyPaidDetails(order, details, now);
      const ok = held
        ? await addStock(kv, op, order.reservation.items, 0, +1)
        : await addStock(kv, op, order.reservation.items, -1, +1);
      if (!ok) {
        // The lapsed reservation's stock was sold meanwhile: the payment must go back. `op` holds
        // only the order check and the event marker (addStock left it untouched).
        const cancelled: Order = {
          ...appendStatus(order, "CANCELLED", now),
          cancelReason:
            "Your reservation expired before the payment arrived and the items sold out meanwhile; your payment is refunded in full.",
        };
        op.set(keys.order(orderNumber), cancelled);
        return (await op.commit()).ok ? { kind: "refund", order: cancelled } : CONFLICT;
      }
      const next: Order = {
        ...appendStatus(paid, "PAYMENT_RECEIVED", now),
        reservation: { ...order.reservation, state: "committed" },
        paymentError: null,
      };
      op.set(keys.order(orderNumber), next).delete(keys.pendingCheckout(order.cartId));
      // Hosted checkouts that collected no email have no one to confirm to; the page says it all.
      if (next.email) {
        queueEmailInto(op, confirmation(next), now, `order-confirmation:${orderNumber}`);
      }
      return await commitStockChange(kv, op, now) ? { kind: "recorded", order: next } : CONFLICT;
    },
    "record the payment",
    "stock",
  );
}

function applyPaidDetails(order: Order, details: PaidDetails, now: number): Order {
  const next: Order = { ...order, updatedAt: now };
  if (details.email && !order.email) next.email = details.email;
  if (details.customerName && !order.customerName) next.customerName = details.customerName;
  if (details.address) next.shippingAddress = details.address;
  if (details.taxId) next.taxId = details.taxId;
  if (details.promoCode) next.promoCode = details.promoCode;
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

/** Records a declined attempt on an unpaid order; its reservation stands until expiry. */
export async function recordPaymentFailure(
  kv: Deno.Kv,
  clock: Clock,
  orderNumber: string,
  message: string,
): Promise<Order> {
  return await updateOrder(
    kv,
    orderNumber,
    (order) =>
      order.status === "STARTED"
        ? { ...order, paymentError: message, updatedAt: clock.now() }
        : order,
  );
}

/**
 * Expires every unpaid order whose reservation has lapsed (the start-up sweep); `onExpired` gets
 * each released order, to stop its payment.
 */
export async function sweepExpiredReservations(
  kv: Deno.Kv,
  clock: Clock,
  onExpired: (order: Order) => Promise<void> = () => Promise.resolve(),
): Promise<string[]> {
  const expired: string[] = [];
  for await (const entry of kv.list<Order>({ prefix: keys.orders() })) {
    const order = entry.value;
    if (
      order.status === "STARTED" && order.reservation.state === "held" &&
      order.reservation.expiresAt <= clock.now()
    ) {
      await onExpired(
        await releaseOrder(kv, clock, order.orderNumber, "EXPIRED", "The reservation lapsed"),
      );
      expired.push(order.orderNumber);
    }
  }
  return expired;
}

/** Expires one order if its reservation has lapsed (the delayed queue job). Idempotent. */
export async function expireIfLapsed(
  kv: Deno.Kv,
  clock: Clock,
  orderNumber: string,
): Promise<Order | null> {
  const order = await findOrder(kv, orderNumber);
  if (!order || order.status !== "STARTED" || order.reservation.state !== "held") return null;
  // Queue delays are not exact, so the stored expiry decides.
  if (order.reservation.expiresAt > clock.now()) return null;
  return await releaseOrder(kv, clock, orderNumber, "EXPIRED", "The reservation lapsed");
}

/** Applies a promo to an unpaid order (the hosted demo page's field), recomputing its totals. */
export async function applyOrderPromo(
  kv: Deno.Kv,
  clock: Clock,
  orderNumber: string,
  promo: { code: string; percentOff: number },
): Promise<Order> {
  return await updateOrder(kv, orderNumber, (order) => {
    if (order.status !== "STARTED") throw new Conflict("This order can no longer change");
    if (order.promoCode === promo.code) return order;
    return {
      ...order,
      ...computeTotals(order.subtotalCents, order.region, promo.percentOff),
      promoCode: promo.code,
      updatedAt: clock.now(),
    };
  });
}
