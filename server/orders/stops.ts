/**
 * Payments that must not be taken any more (a replaced checkout's, a cancelled one's) are stopped
 * at the provider by a queued job, tried until the provider answers: a stop refused once must not
 * leave the old payment open. If the payment was taken meanwhile, its paid event is recorded,
 * which refunds it (its order no longer wants it). A provider down for longer than the payment
 * itself lives (a day at most) needs no stop: the payment lapses there on its own.
 */
import { putJob } from "../kv/jobs.ts";
import { receivePaymentEvent } from "./payment.ts";
import type { StopJob } from "./stop_job.ts";
import { storedPaymentKind } from "../payments/provider.ts";
import type { OrderDeps } from "./steps.ts";

/** Waits after the 1st, 2nd, ... refused stop; every later one waits the last of them. */
const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000];

/**
 * Tries a stop now, right after the write that queued its job (which is the safety net: a
 * refusal here is left to it).
 */
export async function stopSoon(deps: OrderDeps, job: StopJob): Promise<void> {
  try {
    const taken = await deps.payments.stop(job.payment, job.orderNumber);
    if (taken) await receivePaymentEvent(deps, taken);
  } catch (err) {
    deps.logger({ msg: "payment stop left to the queue", level: "warn", error: String(err) });
  }
}

/** Stops the job's payment; a refusal queues the next try, a taken payment is recorded. */
export async function stopPayment(deps: OrderDeps, queued: StopJob): Promise<void> {
  // A job queued before migration 6 names its payment's kind the old way.
  const job = {
    ...queued,
    payment: { ...queued.payment, kind: storedPaymentKind(queued.payment.kind) },
  };
  let taken;
  try {
    taken = await deps.payments.stop(job.payment, job.orderNumber);
  } catch (err) {
    const failures = (job.failures ?? 0) + 1;
    const now = deps.clock.now();
    if (now >= job.giveUpAt) {
      deps.logger({
        msg: "gave up stopping a payment; it has lapsed at the provider",
        level: "error",
        order: job.orderNumber,
        payment: job.payment.id,
        error: String(err),
      });
      return;
    }
    deps.logger({
      msg: "could not stop a payment; tried again later",
      level: "warn",
      order: job.orderNumber,
      error: String(err),
    });
    const delay = RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length) - 1];
    await putJob(deps.kv, { ...job, failures } satisfies StopJob, { at: now + delay });
    return;
  }
  if (taken) await receivePaymentEvent(deps, taken);
}
