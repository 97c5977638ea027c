/** What an order is, and the pure rules of its status history. */
import type { Bom, StockKey } from "../../shared/bom.ts";
import { addBom } from "../../shared/bom.ts";
import type { Address, LineKind } from "../../shared/api_types.ts";
import type { OrderStatus } from "../../shared/status.ts";
import { canTransition } from "../../shared/status.ts";
import type { Region, Totals } from "../../shared/policy.ts";
import { Conflict, InvalidInput } from "../errors.ts";
import type { PaymentRef } from "../payments/provider.ts";
import type { PricedLine } from "../cart/view.ts";
import type { UsageWant } from "../promos/store.ts";
import type { DropHold } from "../drops/purchase_rules.ts";

export type { Address };

/** A line of an order, frozen at the price charged. */
export interface OrderItem {
  lineId: string;
  kind: LineKind;
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
  /** held: counted in `reserved`; committed: sold (in `used`); released: given back. */
  state: "held" | "committed" | "released";
  /** When the shopper extended the hold (once at most; `expiresAt` is then the new end). */
  extendedAt?: number;
}

/**
 * Money that must go back to the customer: queued with the change that owes it, then asked of the
 * provider until it gives a final answer (server/orders/refunds.ts).
 */
export interface RefundState {
  /**
   * pending: owed, not yet accepted by the provider; requested: accepted, not yet final;
   * refunded: on its way back; failed: the provider gave up on it, and the owner was told.
   */
  state: "pending" | "requested" | "refunded" | "failed";
  amountCents: number;
  reason: string;
  /** The provider's refund, once it accepted one. */
  providerId?: string | null;
  /** Tries the provider refused (or that could not reach it), since when, and its last answer. */
  failures?: number;
  failingSince?: number | null;
  lastError?: string | null;
  /** The next try (a queued job is due then); earlier jobs of the refund do nothing. */
  nextTryAt?: number | null;
  /** The owner was told the refund needs them. */
  ownerTold?: boolean;
}

/** An order. */
export interface Order extends Totals {
  orderNumber: string;
  status: OrderStatus;
  region: Region;
  cartId: string;
  userId: string | null;
  /** The shop's address the checkout came from, for links in emails sent later. */
  origin: string;
  /** Who started the checkout (the rate-limit client key): their holds are counted together. */
  holdClient: string | null;
  email: string | null;
  customerName: string | null;
  shippingAddress: Address | null;
  items: OrderItem[];
  promoCode: string | null;
  /**
   * The limited promo use this unpaid order holds (its code, and the email when the code limits
   * uses per email): given back if it ends unpaid. Absent on orders from before promo limits.
   */
  promoHold?: UsageWant | null;
  /**
   * The drop units this order takes (absent or null when it takes none): counted in the drop's
   * ledger as `state` says, and under its person keys and place in line.
   */
  dropHold?: DropHold | null;
  taxId: { type: string; value: string } | null;
  reservation: Reservation;
  payment: PaymentRef | null;
  paymentError: string | null;
  refund: RefundState | null;
  trackingNumber: string | null;
  cancelReason: string | null;
  createdAt: number;
  updatedAt: number;
  history: { status: OrderStatus; at: number }[];
}

/** Most distinct stock components one order may reserve: one KV atomic allows 100 checks. */
export const MAX_ORDER_COMPONENTS = 90;

/** Checks one KV atomic operation may make. */
export const KV_MAX_CHECKS = 100;

/** Checks the payment's write (paid_write.ts) makes besides the order's parts, promo and drop. */
export const PAID_WRITE_CHECKS = 9;

/**
 * Refuses, at the checkout, an order whose payment's write could not fit one KV atomic: its
 * parts, that write's own checks and `extra`'s (its promo use and drop hold, as many as they can
 * be once the payment names the email and address), whose causes the sentence names ("a promo
 * code"). A charge taken for such an order could never be recorded.
 */
export function checkPayableSize(
  parts: number,
  extra: { checks: number; causes: readonly string[] },
): void {
  const most = Math.min(MAX_ORDER_COMPONENTS, KV_MAX_CHECKS - PAID_WRITE_CHECKS - extra.checks);
  if (parts > most) {
    const cause = extra.causes.length > 0 ? `with ${extra.causes.join(" and ")}, ` : "";
    throw new InvalidInput(
      `This order has ${parts} different switches and parts; ${cause}one order can hold at most ${most}. Please split it into two orders.`,
    );
  }
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

/** Every component the lines consume, summed over lines and quantities. */
export function needOf(lines: readonly PricedLine[]): Bom {
  const need: Bom = new Map();
  for (const line of lines) addBom(need, line.bom, line.quantity);
  return need;
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
export function appendStatus(order: Order, status: OrderStatus, now: number): Order {
  return { ...order, status, updatedAt: now, history: [...order.history, { status, at: now }] };
}

/** Whether the order ever took money (a cancelled order may or may not have). */
export function wasPaid(order: Order): boolean {
  return order.history.some((h) => h.status === "PAYMENT_RECEIVED");
}

/** Whether the order still holds stock for a payment that may come. */
export function isHolding(order: Order, now: number): boolean {
  return order.status === "STARTED" && order.reservation.state === "held" &&
    order.reservation.expiresAt > now;
}

/**
 * What a write about this order claims in a group commit (server/db/stock_batch.ts): the order,
 * its cart (and its pending-checkout pointer) and its client's holds.
 */
export function orderClaims(order: Order): string[] {
  return [`order:${order.orderNumber}`, `cart:${order.cartId}`, `holds:${order.holdClient}`];
}
