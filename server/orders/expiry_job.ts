/**
 * The stored job that expires an unpaid order when its hold lapses, as the checkout's write stores
 * it (its handling is server/orders/expiry.ts).
 */

/** The job that expires one order. */
export interface ExpiryJob {
  type: "reservation-expiry";
  orderNumber: string;
}

/**
 * An expiry job's fixed id: stored again for the same lapse (the start's sweep, a job that came
 * early) it stays one entry.
 */
export function expiryJobId(orderNumber: string): string {
  return `reservation-expiry:${orderNumber}`;
}
