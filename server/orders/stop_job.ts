/**
 * The stored job that stops a payment that must not be taken any more, as the writes that abandon
 * a payment store it (its handling is server/orders/stops.ts).
 */
import type { PaymentRef } from "../payments/provider.ts";

/** The job that stops one payment. */
export interface StopJob {
  type: "stop-payment";
  orderNumber: string;
  payment: PaymentRef;
  /** After this, the provider's own expiry has ended the payment: stop trying. */
  giveUpAt: number;
  failures?: number;
}

/** A provider's payment lives at most this long (a hosted session: 24 hours), with a margin. */
const PAYMENT_LIFETIME_MS = 25 * 3_600_000;

/** The job that stops `payment` of `orderNumber`, to queue with the write that abandons it. */
export function stopJob(orderNumber: string, payment: PaymentRef, now: number): StopJob {
  return { type: "stop-payment", orderNumber, payment, giveUpAt: now + PAYMENT_LIFETIME_MS };
}
