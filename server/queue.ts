import type { AppDeps } from "./deps.ts";
import { deliverEmail, deliverPending, type EmailJob } from "./email/outbox.ts";
import type { PaymentEventJob } from "./payments/inbox.ts";
import { expireIfLapsed, EXPIRY_RETRY_MS } from "./orders/expiry.ts";
import type { ExpiryJob } from "./orders/expiry_job.ts";
import { handleRecordedEvent } from "./orders/payment.ts";
import { recoverOrders, recoverQuickly } from "./orders/recovery.ts";
import type { LowStockJob, StockAlertsJob } from "./stock/store.ts";
import { sendStockAlerts } from "./stock/back_in_stock/alerts.ts";
import { sendLowStockAlerts, sendLowStockJob } from "./stock/low_stock.ts";
import { type RefundJob, settleRefund } from "./orders/refunds.ts";
import type { StopJob } from "./orders/stop_job.ts";
import { stopPayment } from "./orders/stops.ts";
import { count, inSpan } from "./telemetry.ts";
import { keys } from "./kv/keys.ts";
import { claimJob, dueJobs, finishJob, putJob, retryJob, type StoredJob } from "./kv/jobs.ts";
import { type DropOpeningJob, queueOpeningMails, sendOpeningMail } from "./drops/opening_mail.ts";

/** Jobs the shop stores to run later (server/kv/jobs.ts). Handlers are idempotent: delivery is at
 * least once. */
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
 * Handles one job. A job that fails for a reason outside the shop (the payment provider is
 * unreachable) is put back with a delay of its own rather than the runner's growing ones, so it
 * is tried at its own pace until it succeeds.
 */
export async function runJob(deps: AppDeps, raw: unknown): Promise<void> {
  const { kv, logger } = deps;
  const job = raw as QueueJob;
  const retryLater = async (delay: number, err: unknown) => {
    logger({ msg: "queue job failed; retrying later", level: "warn", job, error: String(err) });
    await putJob(kv, job, { at: deps.clock.now() + delay });
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

/** The process's job runner, as main.ts stops it and the readiness check asks of it. */
export interface QueueWorker {
  /** True from the start until stop() (or until its polling failed for good). */
  running(): boolean;
  /** Looks for due jobs now rather than at the next tick (after a write that may owe one). */
  nudge(): void;
  /** Runs every job due now and waits for them (Deno Deploy's cron calls it each minute). */
  runDue(): Promise<void>;
  /**
   * Stops looking, waits for the jobs being handled and the start's sweep (a job cut off mid-way
   * comes due again when its lease ends, but finishing it saves the repeat), then closes KV.
   */
  stop(): Promise<void>;
}

/** How often a process looks for due jobs when nothing nudges it. */
export const JOB_POLL_MS = 1_000;
/**
 * How long a claimed job is this process's: a process that dies leaves it to come due again then.
 * Longer than any job takes (each outside call has its own timeout, well under this).
 */
export const JOB_LEASE_MS = 2 * 60_000;
/** When a job that threw is tried again, by its failures so far; then hourly, never dropped. */
export const JOB_RETRY_MS = [1_000, 5_000, 30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000];
/** How soon after a nudge the runner looks: writes in a burst share one look. */
const NUDGE_MS = 50;
/** Jobs one process handles at once. */
const MAX_IN_HAND = 32;
/**
 * The jobs that wait on one outside service, and how many of them one process holds at once: a
 * mail server or a payment provider that hangs (each call up to its timeouts) takes these hands
 * only, and the others still run the work of the other service and the shop's own.
 */
const LANES: Partial<Record<QueueJob["type"], string>> = {
  "email": "mail server",
  "refund": "payment provider",
  "stop-payment": "payment provider",
  "reservation-expiry": "payment provider",
  "payment-event": "payment provider",
};
const MAX_IN_LANE = 12;
/** How many due jobs one look reads at most, looking past those whose lane is full. */
const LOOK_LIMIT = 4 * MAX_IN_HAND;
/** How long stop() waits for jobs in hand before closing KV under them. */
const STOP_WAIT_MS = 10_000;

/**
 * Claims one due job and handles it: done, it is deleted; thrown, it comes due again after its
 * failures' delay (logged, an error from the fifth failure on). A job another process claimed
 * first is left to it.
 */
export async function runStoredJob(deps: AppDeps, entry: Deno.KvEntry<StoredJob>): Promise<void> {
  const { kv, clock, logger } = deps;
  const claimed = await claimJob(kv, entry, clock.now() + JOB_LEASE_MS);
  if (!claimed) return;
  const { job, tries } = claimed.stored;
  try {
    await inSpan(
      `job: ${job.type}`,
      { "shop.job.type": job.type, "shop.job.tries": tries },
      () => runJob(deps, job),
    );
  } catch (err) {
    count("jobsRetried", { type: job.type });
    const delay = JOB_RETRY_MS[Math.min(tries, JOB_RETRY_MS.length - 1)];
    logger({
      msg: "job failed; tried again later",
      level: tries >= 4 ? "error" : "warn",
      job,
      failures: tries + 1,
      retryInMs: delay,
      error: String(err),
    });
    await retryJob(kv, claimed, clock.now() + delay);
    return;
  }
  await finishJob(kv, claimed);
}

/**
 * Runs the jobs due now, at most `limit` claimed in this pass (the rest wait for the next one),
 * and waits for them. What tests and the simulation call to play the runner's part.
 */
export async function runDueJobs(deps: AppDeps, limit = MAX_IN_HAND): Promise<number> {
  const due = await dueJobs(deps.kv, deps.clock.now(), limit);
  await Promise.all(due.map((entry) => runStoredJob(deps, entry)));
  return due.length;
}

/**
 * Starts the process's job runner: a look for due jobs every second (and on a nudge), each due job
 * claimed and handled while the next looks go on, then finishes what a crash may have left:
 * pending emails, payment events, lapsed holds and owed refunds.
 */
export function startQueueWorker(deps: AppDeps): QueueWorker {
  const { kv, clock, logger } = deps;
  const inHand = new Set<Promise<void>>();
  const claiming = new Set<string>();
  /** Jobs in hand by the outside service they wait on (LANES). */
  const inLane = new Map<string, number>();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let looking: Promise<void> | null = null;
  let again = false;
  let nudged = false;

  function track(work: Promise<void>): Promise<void> {
    const settled = work.then(() => {}, () => {}).finally(() => inHand.delete(settled));
    inHand.add(settled);
    return work;
  }

  /** One look: claims and starts what is due, without waiting for the jobs to end. */
  async function lookOnce(): Promise<void> {
    let room = MAX_IN_HAND - inHand.size;
    if (room <= 0) return;
    for (const entry of await dueJobs(kv, clock.now(), LOOK_LIMIT)) {
      if (room <= 0) break;
      // A job this process is claiming already (a look started before the last one ended).
      const id = String(entry.key[2]);
      if (claiming.has(id)) continue;
      const lane = LANES[(entry.value.job as QueueJob).type];
      if (lane && (inLane.get(lane) ?? 0) >= MAX_IN_LANE) continue;
      claiming.add(id);
      if (lane) inLane.set(lane, (inLane.get(lane) ?? 0) + 1);
      room--;
      track(runStoredJob(deps, entry)).catch((err) =>
        logger({ msg: "job not handled", level: "error", job: entry.value.job, error: String(err) })
      ).finally(() => {
        claiming.delete(id);
        if (lane) inLane.set(lane, inLane.get(lane)! - 1);
      });
    }
  }

  /** Looks now (or right after the look under way), then schedules the next tick. */
  function look(): Promise<void> {
    nudged = false;
    if (stopped) return Promise.resolve();
    if (looking) {
      again = true;
      return looking;
    }
    clearTimeout(timer);
    looking = lookOnce()
      .catch((err) => logger({ msg: "looking for jobs failed", level: "warn", error: String(err) }))
      .finally(() => {
        looking = null;
        clearTimeout(timer);
        if (stopped) return;
        if (again) {
          again = false;
          look();
        } else timer = setTimeout(look, JOB_POLL_MS);
      });
    return looking;
  }

  track(sweepOnStart(deps).then(() => {})).catch((err) =>
    logger({ msg: "sweep at start failed", level: "error", error: String(err) })
  );
  look();
  return {
    running: () => !stopped,
    nudge() {
      if (stopped || nudged) return;
      // A look under way may have listed before the write: one more follows it.
      if (looking) {
        again = true;
        return;
      }
      nudged = true;
      clearTimeout(timer);
      timer = setTimeout(look, NUDGE_MS);
    },
    async runDue() {
      // A look under way may have listed before what is due now: wait for the one after it.
      if (looking) {
        again = true;
        await looking;
      }
      await (looking ?? look());
      await Promise.all(inHand);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await looking;
      let wait: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all(inHand),
        new Promise((resolve) => wait = setTimeout(resolve, STOP_WAIT_MS)),
      ]);
      clearTimeout(wait);
      try {
        kv.close();
      } catch { /* closed already */ }
    },
  };
}

/**
 * How often the full start-up sweep runs per store at most. Everything it finishes has its stored
 * job too (but for a store restored from a backup made before jobs were stored, and failed emails
 * tried again), and on Deno Deploy an idle app's cron may start an isolate every minute: a sweep
 * reading every order each time would cost far more than the shop's traffic.
 */
export const FULL_SWEEP_EVERY_MS = 5 * 60_000;

/**
 * What a process does as it starts: the quick recovery always (payment events waiting, lapsed
 * holds: what a shopper waits on after a crash), and the full sweep when no process of this store
 * began one in the last 5 minutes (claimed with a version check, so isolates starting together run
 * it once).
 */
export async function sweepOnStart(deps: AppDeps): Promise<"full" | "quick"> {
  const { kv, clock, logger } = deps;
  const last = await kv.get<number>(keys.fullSweep());
  const now = clock.now();
  const due = last.value === null || now - last.value >= FULL_SWEEP_EVERY_MS || now < last.value;
  if (due && (await kv.atomic().check(last).set(last.key, now).commit()).ok) {
    await sweepAtStart(deps);
    return "full";
  }
  const recovered = await recoverQuickly(deps);
  logger({ msg: "recovered at start (quick)", ...recovered });
  return "quick";
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
