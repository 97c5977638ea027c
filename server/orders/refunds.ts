/**
 * Money owed back. Whatever makes an order owe a refund (a cancellation after payment, a payment
 * that arrived for an order that could no longer be filled) marks the order `refund: pending` and
 * queues this job in the same write, so a crash never forgets a refund. The job asks the provider
 * with the order's idempotency key (a retry never pays back twice) and then marks it refunded.
 */
import type { Clock } from "../deps.ts";
import { findOrder, updateOrder } from "../db/orders.ts";
import type { Order, RefundState } from "./order.ts";
import type { OrderDeps } from "./steps.ts";

/** The queue job that settles one order's refund. */
export interface RefundJob {
  type: "refund";
  orderNumber: string;
}

/** How long a refund the provider refused waits before the next try. */
export const REFUND_RETRY_MS = 60_000;

/** The order owing its total back (write it with `queueRefundInto` in the same operation). */
export function owingRefund(order: Order, reason: string): Order {
  const refund: RefundState = { state: "pending", amountCents: order.totalCents, reason };
  return { ...order, refund };
}

/** Adds the job that pays an owed refund back to `op`. */
export function queueRefundInto(op: Deno.AtomicOperation, orderNumber: string): void {
  op.enqueue({ type: "refund", orderNumber } satisfies RefundJob);
}

/**
 * Pays a pending refund back through the provider and records it. Throws when the provider
 * refuses or cannot be reached: the caller queues another try.
 */
export async function settleRefund(deps: OrderDeps, orderNumber: string): Promise<void> {
  const order = await findOrder(deps.kv, orderNumber);
  if (order?.refund?.state !== "pending") return;
  if (order.payment) {
    await deps.payments.refund(order.payment, order.refund.amountCents, `refund-${orderNumber}`);
  }
  await markRefunded(deps.kv, deps.clock, orderNumber);
  deps.logger({ msg: "refunded", order: orderNumber, amountCents: order.refund.amountCents });
}

/** Tries a refund now; a failure is logged and left to the queued job. */
export async function refundSoon(deps: OrderDeps, orderNumber: string): Promise<void> {
  try {
    await settleRefund(deps, orderNumber);
  } catch (err) {
    deps.logger({
      msg: "refund failed; the queue retries it",
      level: "warn",
      order: orderNumber,
      error: String(err),
    });
  }
}

async function markRefunded(kv: Deno.Kv, clock: Clock, orderNumber: string): Promise<void> {
  await updateOrder(
    kv,
    orderNumber,
    (order) =>
      order.refund?.state === "pending"
        ? { ...order, refund: { ...order.refund, state: "refunded" }, updatedAt: clock.now() }
        : order,
  );
}
