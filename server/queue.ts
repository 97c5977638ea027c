import type { AppDeps } from "./deps.ts";
import { deliverEmail, deliverPending, type EmailJob } from "./email/outbox.ts";
import { type RefundJob, retryRefund } from "./payments/refunds.ts";

/** Jobs put on the KV queue. Handlers are idempotent: delivery is at least once. */
export type QueueJob =
  | EmailJob
  | RefundJob
  | { type: "reservation-expiry"; orderNumber: string };

/** Extra job handlers by type, registered by features that own them. */
export type JobHandlers = Partial<Record<QueueJob["type"], (job: QueueJob) => Promise<void>>>;

/**
 * Starts the one KV queue listener of the process (KV allows one per handle) and sweeps what a
 * crash may have left: pending emails. Returns when the listener stops.
 */
export async function startQueueWorker(deps: AppDeps, handlers: JobHandlers = {}): Promise<void> {
  const { kv, mailer, clock, logger } = deps;
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
    const handler = handlers[job?.type];
    if (handler) await handler(job);
    else logger({ msg: "unknown queue job", level: "warn", job });
  });
}
