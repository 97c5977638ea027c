import type { AppDeps } from "./deps.ts";
import { deliverEmail, deliverPending, type EmailJob } from "./email/outbox.ts";
import { expireIfLapsed } from "./db/orders.ts";
import { type RefundJob, retryRefund } from "./payments/refunds.ts";
import { stopPayment } from "./payments/stop_payment.ts";

/** Jobs put on the KV queue. Handlers are idempotent: delivery is at least once. */
export type QueueJob =
  | EmailJob
  | RefundJob
  | { type: "reservation-expiry"; orderNumber: string };

/**
 * Starts the one KV queue listener of the process (KV allows one per handle) and sweeps what a
 * crash may have left: pending emails. Returns when the listener stops.
 */
export async function startQueueWorker(deps: AppDeps): Promise<void> {
  const { kv, mailer, clock, logger, payments } = deps;
  await deliverPending(kv, mailer, clock, logger);
  await kv.listenQueue(async (raw) => {
    const job = raw as QueueJob;
    if (job?.type === "email") {
      await deliverEmail(kv, mailer, clock, logger, job.id);
      return;
    }
    if (job?.type === "refund") {
      await retryRefund(deps, job);
      return;
    }
    if (job?.type === "reservation-expiry") {
      await stopPayment(payments, await expireIfLapsed(kv, clock, job.orderNumber));
      return;
    }
    logger({ msg: "unknown queue job", level: "warn", job });
  });
}
