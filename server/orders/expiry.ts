/**
 * Expiry: an unpaid order whose hold lapsed gives its stock back, but only once the provider has
 * been asked. The payment is stopped first (after that it cannot be taken); if it was taken
 * already, its paid event is recorded instead, so nothing expires with money in.
 */
import type { Order } from "./order.ts";
import { findOrder } from "../db/orders.ts";
import { keys } from "../db/keys.ts";
import { receivePaymentEvent } from "./payment.ts";
import { releaseOrder } from "./release.ts";
import { type OrderDeps, step } from "./steps.ts";

/** The queue job that expires one order when its hold lapses. */
export interface ExpiryJob {
  type: "reservation-expiry";
  orderNumber: string;
}

/** How long an expiry waits before asking an unreachable provider again. */
export const EXPIRY_RETRY_MS = 60_000;

/**
 * Expires one order if its hold has lapsed (the delayed queue job, and the start-up sweep).
 * Idempotent. Throws when the provider cannot be asked; the caller tries again later.
 */
export async function expireIfLapsed(deps: OrderDeps, orderNumber: string): Promise<Order | null> {
  const order = await findOrder(deps.kv, orderNumber);
  if (!order || order.status !== "STARTED" || order.reservation.state !== "held") return null;
  // Queue delays are not exact, so the stored expiry decides.
  if (order.reservation.expiresAt > deps.clock.now()) return null;
  if (order.payment) {
    const payment = order.payment;
    const taken = await step(
      deps,
      "stop payment",
      () => deps.payments.stop(payment, order.orderNumber),
    );
    if (taken) return await receivePaymentEvent(deps, taken);
  }
  return await step(
    deps,
    "expire order",
    () => releaseOrder(deps, orderNumber, "EXPIRED", "The reservation lapsed"),
  );
}

/**
 * Expires every order whose hold has lapsed (at start, for jobs a crash or an outage left
 * behind). An order whose provider cannot be asked now gets a job to try again.
 */
export async function sweepExpiredReservations(deps: OrderDeps): Promise<string[]> {
  const expired: string[] = [];
  for await (const entry of deps.kv.list<Order>({ prefix: keys.orders() })) {
    const order = entry.value;
    if (
      order.status !== "STARTED" || order.reservation.state !== "held" ||
      order.reservation.expiresAt > deps.clock.now()
    ) continue;
    try {
      const ended = await expireIfLapsed(deps, order.orderNumber);
      if (ended) expired.push(order.orderNumber);
    } catch (err) {
      deps.logger({
        msg: "expiry postponed",
        level: "warn",
        order: order.orderNumber,
        error: String(err),
      });
      await deps.kv.enqueue(
        { type: "reservation-expiry", orderNumber: order.orderNumber } satisfies ExpiryJob,
        { delay: EXPIRY_RETRY_MS },
      );
    }
  }
  return expired;
}
