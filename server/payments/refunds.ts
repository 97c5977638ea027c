import type { AppDeps } from "../deps.ts";
import { findOrder, type Order } from "../db/orders.ts";

/** A refund that could not be made at once, retried from the KV queue until it goes through. */
export interface RefundJob {
  type: "refund";
  orderNumber: string;
}

const RETRY_DELAY_MS = 60_000;

/**
 * Refunds a cancelled order's payment in full. When the provider cannot be reached the refund is
 * queued and retried, so a money-back promise is never lost to a passing outage. Refunds carry an
 * idempotency key at the provider, so a retry never pays back twice.
 */
export async function refundOrder(
  deps: Pick<AppDeps, "kv" | "payments" | "logger">,
  order: Order,
): Promise<"refunded" | "queued"> {
  if (!order.payment) return "refunded";
  try {
    await deps.payments.refund(order.payment, order.totalCents);
    deps.logger({ msg: "refunded", order: order.orderNumber, amountCents: order.totalCents });
    return "refunded";
  } catch (err) {
    deps.logger({
      msg: "refund failed; queued for retry",
      level: "warn",
      order: order.orderNumber,
      error: String(err),
    });
    await deps.kv.enqueue({ type: "refund", orderNumber: order.orderNumber } satisfies RefundJob, {
      delay: RETRY_DELAY_MS,
    });
    return "queued";
  }
}

/** The queue handler of a refund job: throws on failure so the queue retries it. */
export async function retryRefund(
  deps: Pick<AppDeps, "kv" | "payments" | "logger">,
  job: RefundJob,
): Promise<void> {
  const order = await findOrder(deps.kv, job.orderNumber);
  if (!order?.payment || order.status !== "CANCELLED") return;
  await deps.payments.refund(order.payment, order.totalCents);
  deps.logger({ msg: "refunded on retry", order: order.orderNumber });
}
