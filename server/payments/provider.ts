/** The payment provider seam: Stripe in production, the built-in demo provider by default. */
import type { Region } from "../../shared/policy.ts";
import type { Address } from "../../shared/api_types.ts";

/** A line as the payment page shows it. */
export interface PaymentLine {
  name: string;
  unitAmountCents: number;
  quantity: number;
}

/** What a hosted checkout session needs. */
export interface CheckoutSessionInput {
  orderNumber: string;
  region: Region;
  lines: PaymentLine[];
  shippingCents: number;
  taxCents: number;
  totalCents: number;
  successUrl: string;
  cancelUrl: string;
  /** Unix ms when the session (and the stock reservation) lapses. */
  expiresAt: number;
}

/** What an embedded payment (the /checkout page) needs. */
export interface PaymentIntentInput {
  orderNumber: string;
  amountCents: number;
  email: string;
}

/** A payment object the provider created, as the order keeps it. */
export interface PaymentRef {
  provider: "demo" | "stripe";
  kind: "checkout_session" | "payment_intent";
  id: string;
  /** Hosted checkout page. */
  url?: string;
  /** For the embedded payment element. */
  clientSecret?: string;
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
  promoCode?: string | null;
}

/** A provider event, normalised: the one input of the payment event handler. */
export interface PaymentEvent {
  /** Unique per event; an event id is processed once. */
  id: string;
  type: "paid" | "failed" | "expired";
  orderNumber: string;
  paymentId: string;
  details?: PaidDetails;
  failureMessage?: string;
}

/** One payment provider. */
export interface PaymentProvider {
  readonly name: "demo" | "stripe";
  /** For the embedded payment form (Stripe.js); null for the demo provider. */
  readonly publishableKey: string | null;
  createCheckoutSession(input: CheckoutSessionInput): Promise<PaymentRef>;
  createPaymentIntent(input: PaymentIntentInput): Promise<PaymentRef>;
  /** Stops a payment from being taken (the reservation lapsed or was cancelled). Best effort. */
  cancel(ref: PaymentRef): Promise<void>;
  /** Refunds a taken payment in full. */
  refund(ref: PaymentRef, amountCents: number): Promise<void>;
  /** Asks the provider whether a payment completed (for redirects that beat the webhook). */
  poll(ref: PaymentRef, orderNumber: string): Promise<PaymentEvent | null>;
}
