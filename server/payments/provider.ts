/**
 * The payment provider seam: what the shop asks of any provider, and what it hears back. The
 * providers themselves are folders beside this file, chosen by server/payments/registry.ts.
 */
import type { Region, Totals } from "../../shared/policy.ts";
import type { Address } from "../../shared/api_types.ts";
import type { PublicOrderView } from "../../shared/api_types.ts";
import type { OrderStatus } from "../../shared/status.ts";
import type { Clock } from "../clock.ts";

/** A line as the payment page shows it. */
export interface PaymentLine {
  name: string;
  unitAmountCents: number;
  quantity: number;
}

/** What a payment on the provider's own page needs. */
export interface HostedPaymentInput {
  orderNumber: string;
  region: Region;
  lines: PaymentLine[];
  shippingCents: number;
  taxCents: number;
  totalCents: number;
  /**
   * The shop's address: a hosted page sends the shopper back to its /order-success page with the
   * payment's id as `session_id`, or to /cart when they leave it.
   */
  origin: string;
  /** Unix ms when the session (and the stock reservation) lapses. */
  expiresAt: number;
}

/** What a payment in the provider's form on the /checkout page needs. */
export interface EmbeddedPaymentInput {
  orderNumber: string;
  amountCents: number;
  email: string;
}

/**
 * Where the shopper pays: on the provider's own page (the cart's checkout buttons), or in the
 * provider's form embedded in the shop's /checkout page.
 */
export type PaymentKind = "hosted" | "embedded";

/**
 * A kind as stored before migration 6, which gave kinds the shop's own names (they were the
 * first provider's object names): stored orders, inbox events and queued stop jobs may hold one.
 */
export function storedPaymentKind(kind: string): PaymentKind {
  if (kind === "checkout_session") return "hosted";
  if (kind === "payment_intent") return "embedded";
  return kind as PaymentKind;
}

/** A payment object the provider created, as the order keeps it. */
export interface PaymentRef {
  /** The provider's name (its key in the registry). */
  provider: string;
  kind: PaymentKind;
  id: string;
  /** Hosted checkout page. */
  url?: string;
  /** For the embedded payment element. */
  clientSecret?: string;
}

/** What a payment is for, in the terms every provider needs. */
export interface PaymentTarget {
  kind: PaymentKind;
  orderNumber: string;
  region: Region;
  /** Goods before discount, shipping and tax: what a promotion code discounts. */
  subtotalCents: number;
  totalCents: number;
  /** Unix ms when the stock hold lapses; the payment cannot be taken after it. */
  expiresAt: number;
}

/** Details a provider learned while taking the payment (hosted checkout collects them). */
export interface PaidDetails {
  email?: string | null;
  customerName?: string | null;
  address?: Address | null;
  taxId?: { type: string; value: string } | null;
  /** What the provider actually charged, when it computed totals itself (promotion codes). */
  amountTotalCents?: number | null;
  amountDiscountCents?: number | null;
  /** The whole breakdown, when the provider computed it the shop's way (the demo provider). */
  totals?: Totals | null;
  promoCode?: string | null;
}

/** What a provider says of a refund it was asked for. */
export interface RefundOutcome {
  /** The provider's refund (null when nothing was charged, so nothing goes back). */
  id: string | null;
  /**
   * succeeded: the money is on its way back; pending: not final yet (its event or a later
   * question tells); failed: it will not go back (a closed card, say), and the owner must act.
   */
  status: "succeeded" | "pending" | "failed";
  /** Why a refund failed, as the provider says it. */
  failureReason?: string | null;
}

/** A provider event, normalised: the one input of the payment event handler. */
export interface PaymentEvent {
  /** Unique per event; an event id is processed once. */
  id: string;
  /** refund: a refund of the order's payment changed state (`refund` says how). */
  type: "paid" | "failed" | "expired" | "refund";
  orderNumber: string;
  paymentId: string;
  paymentKind: PaymentRef["kind"];
  details?: PaidDetails;
  failureMessage?: string;
  refund?: RefundOutcome;
}

/**
 * Payments kept in the shop's own KV (the demo provider) join the shop's atomic writes: a
 * checkout creates its payment in the same write that reserves the stock, and replacing a
 * checkout stops the old payment in the same write that releases the old order.
 */
export interface InlinePayments {
  /** A new payment: its reference, and the write that creates it (no reads needed). */
  create(target: PaymentTarget): { ref: PaymentRef; write(op: Deno.AtomicOperation): void };
  /** Where a payment is kept, to read it before `stopper`. */
  key(ref: PaymentRef): Deno.KvKey;
  /**
   * The write that stops a payment, checked against the entry read, or null when the payment
   * was taken already (it cannot be stopped: it will be paid).
   */
  stopper(entry: Deno.KvEntryMaybe<unknown>): ((op: Deno.AtomicOperation) => void) | null;
}

/** One payment provider. */
export interface PaymentProvider {
  readonly name: string;
  /** How people name it: in the start-up line and messages. */
  readonly label: string;
  /** For the embedded payment form in the browser, when the provider's form needs one. */
  readonly publishableKey: string | null;
  /** A payment on the provider's own page: the ref carries the page's `url`. */
  createHostedPayment(input: HostedPaymentInput): Promise<PaymentRef>;
  /** A payment for the provider's form on /checkout: the ref carries its `clientSecret`. */
  createEmbeddedPayment(input: EmbeddedPaymentInput): Promise<PaymentRef>;
  /**
   * Stops a payment so it can no longer be taken. When it was taken already, answers its paid
   * event instead, so nothing expires with money in. Throws when the provider cannot be reached:
   * the caller must not treat the payment as stopped.
   */
  stop(ref: PaymentRef, orderNumber: string): Promise<PaymentEvent | null>;
  /**
   * Lets a payment be taken until `expiresAt` (a hold the shopper extended): true when it can
   * be, false when the provider cannot keep it open that long (a hosted page's end is fixed when
   * it is made) or it is no longer open. Throws when the provider cannot be reached.
   */
  extend(ref: PaymentRef, expiresAt: number): Promise<boolean>;
  /**
   * Refunds a taken payment in full; the same key never refunds twice. Answers the refund as the
   * provider has it now (a refund the provider accepted may still fail later). Throws when the
   * provider refuses or cannot be reached: the caller tries again later.
   */
  refund(
    ref: PaymentRef,
    amountCents: number,
    idempotencyKey: string,
    orderNumber: string,
  ): Promise<RefundOutcome>;
  /** A refund's state now, by the provider's id of it. Throws when the provider is unreachable. */
  refundStatus(refundId: string): Promise<RefundOutcome>;
  /** Asks the provider whether a payment completed (for redirects that beat the webhook). */
  poll(ref: PaymentRef, orderNumber: string): Promise<PaymentEvent | null>;
  /**
   * A webhook call as the shop's event: null for events the shop does not act on. Throws
   * InvalidInput when the call cannot be verified as the provider's own.
   */
  parseWebhook(body: string, headers: Headers): Promise<PaymentEvent | null>;
  /** Present when the provider keeps its payments in the shop's KV. */
  readonly inline?: InlinePayments;
  /**
   * True when the promotion codes its hosted page takes are the provider's own (Stripe's), never
   * the shop's. Otherwise the page may take a shop code the cart did not have, whose use the
   * payment's write then counts, so a hosted checkout budgets that count (the demo page does).
   */
  readonly ownPromoCodes?: boolean;
}

/** The provider the environment chooses (by its name in `registry.ts`), with its settings. */
export interface PaymentsChoice {
  name: string;
  settings: unknown;
}

/**
 * What the shop lends a provider's own pages (the demo provider's hosted page and card form), so
 * a provider never imports the order workflows that sit above it: they are passed in.
 */
export interface ShopDesk {
  /** The order a payment is for, as its tracking page shows it; null when there is none. */
  orderView(orderNumber: string): Promise<PublicOrderView | null>;
  /**
   * Takes a payment on the provider's page: runs `charge` (which may tell the order's number as
   * soon as it knows it, so the order is read meanwhile), then handles its event at once, as a
   * webhook would. When the card is declined, the order `declinedOrder` names is told why and
   * the decline is thrown on: the order's hold stands, so another card can be tried.
   */
  takePayment(
    charge: (orderNumberKnown: (orderNumber: string) => void) => Promise<PaymentEvent>,
    declinedOrder: () => Promise<string | null>,
  ): Promise<{ orderNumber: string; status: OrderStatus }>;
}

/** What a provider's own routes are given. */
export interface ProviderRouteDeps {
  kv: Deno.Kv;
  clock: Clock;
  /** The provider the shop uses: another provider's routes answer 404. */
  payments: PaymentProvider;
  desk: ShopDesk;
}
