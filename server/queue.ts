import type { AppDeps } from "./deps.ts";
import { deliverEmail, deliverPending, type EmailJob } from "./email/outbox.ts";
import type { PaymentEventJob } from "./payments/inbox.ts";
import { expireIfLapsed, EXPIRY_RETRY_MS, type ExpiryJob } from "./orders/expiry.ts";
import { handleRecordedEvent } from "./orders/payment.ts";
import { recoverOrders } from "./orders/recovery.ts";
import type { LowStockJob, StockAlertsJob } from "./stock/store.ts";
import { sendStockAlerts } from "./stock/back_in_stock/alerts.ts";
import { sendLowStockAlerts, sendLowStockJob } from "./stock/low_stock.ts";
import { type RefundJob, settleRefund } from "./orders/refunds.ts";
import type { StopJob } from "./orders/stop_job.ts";
import { stopPayment } from "./orders/stops.ts";
import { type DropOpeningJob, queueOpeningMails, sendOpeningMail } from "./drops/opening_mail.ts";

/** Jobs put on the KV queue. Handlers are idempotent: delivery is at least once. */
export type QueueJob =
  | EmailJob
  | RefundJob
  | StopJob
  | ExpiryJob
  | PaymentEventJob
  | LowStockJob
  | StockAlertsJob
  | DropOpeningJob;

/** How long a recorded payment event waits before another try after a failure. */
const EVENT_RETRY_MS = 5_000;

/**
 * Handles one queue job. A job that fails for a reason outside the shop (the payment provider
 * is unreachable) is put back with a delay of its own rather than left to the queue's few quick
 * retries, so it is tried until it succeeds.
 */
export async function runJob(deps: AppDeps, raw: unknown): Promise<void> {
  const { kv, logger } = deps;
  const job = raw as QueueJob;
  const retryLater = async (delay: number, err: unknown) => {
    logger({ msg: "queue job failed; retrying later", level: "warn", job, error: String(err) });
    await kv.enqueue(job, { delay });
  };
  switch (job?.type) {
    case "email":
      await deliverEmail(deps, job.id);
      return;
    case "refund":
      // A refusal is recorded with its next try queued; what throws here is the store's own.
      return await settleRefund(deps, job.orderNumber, { queued: true });
    case "stop-payment":
      return await stopPayment(deps, job);
    case "reservation-expiry":
      await expireIfLapsed(deps, job.orderNumber)
        .catch((err) => retryLater(EXPIRY_RETRY_MS, err));
      return;
    case "payment-event":
      return await handleRecordedEvent(deps, job.eventId)
        .catch((err) => retryLater(EVENT_RETRY_MS, err));
    case "low-stock":
      return await sendLowStockJob(deps, job);
    case "stock-alerts":
      await sendStockAlerts(deps);
      return;
    case "drop-opening":
      await sendOpeningMail(deps, job.dropId);
      return;
    default:
      logger({ msg: "unknown queue job", level: "warn", job });
  }
}

/** The process's queue listener, as main.ts stops it and the readiness check asks of it. */
export interface QueueWorker {
  /** True from the start until the listener has ended (KV closed, or the listener failed). */
  running(): boolean;
  /**
   * Waits for the jobs being handled and the start's sweep (a job cut off mid-way is delivered again, but finishing it
   * saves the repeat), then closes KV, which ends the listener; resolves once it has.
   */
  stop(): Promise<void>;
}

/** How long stop() waits for jobs in hand before closing KV under them. */
const STOP_WAIT_MS = 10_000;

/**
 * Starts the one KV queue listener of the process (KV allows one per handle) and then finishes
 * what a crash may have left: pending emails, payment events, lapsed holds and owed refunds.
 */
export function startQueueWorker(deps: AppDeps): QueueWorker {
  const { kv, logger } = deps;
  const inHand = new Set<Promise<void>>();
  let listening = true;
  function track(work: Promise<void>): Promise<void> {
    const settled = work.then(() => {}, () => {}).finally(() => inHand.delete(settled));
    inHand.add(settled);
    return work;
  }
  const listener = kv.listenQueue((raw) => track(runJob(deps, raw)))
    .catch((err) => logger({ msg: "queue worker stopped", level: "error", error: String(err) }))
    .finally(() => listening = false);
  track(sweepAtStart(deps)).catch((err) =>
    logger({ msg: "sweep at start failed", level: "error", error: String(err) })
  );
  return {
    running: () => listening,
    async stop() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all(inHand),
        new Promise((resolve) => timer = setTimeout(resolve, STOP_WAIT_MS)),
      ]);
      clearTimeout(timer);
      try {
        kv.close();
      } catch { /* closed already */ }
      await listener;
    },
  };
}

/**
 * What every process does as it starts, beside listening to the queue: finishes what a crash, an
 * outage or a restore left (alerts, emails, payment events, holds, refunds, drops' opening
 * emails). Idempotent.
 */
export async function sweepAtStart(deps: AppDeps): Promise<void> {
  const { logger } = deps;
  await sendLowStockAlerts(deps);
  await sendStockAlerts(deps);
  await deliverPending(deps);
  const recovered = await recoverOrders(deps);
  const dropOpenings = await queueOpeningMails(deps);
  logger({ msg: "recovered at start", ...recovered, dropOpenings });
}
