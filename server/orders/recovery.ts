/**
 * What a crash, an outage or a restore may have left unfinished, finished at start: recorded
 * payment events not yet handled, holds that lapsed while no process ran their expiry (and the
 * expiry of the others stored when missing), refunds owed and not yet paid back (their next try
 * stored when missing: a store restored from a backup made before jobs were stored has none).
 * Every step is idempotent, so running it while the jobs also run is harmless.
 */
import { listInbox } from "../payments/inbox.ts";
import { listOrders } from "./store.ts";
import { expireLapsedHolds, sweepHolds } from "./expiry.ts";
import { handlePaymentEvent } from "./payment.ts";
import { queueRefundInto, type RefundJob } from "./refunds.ts";
import { jobsOfType } from "../kv/jobs.ts";
import type { OrderDeps } from "./steps.ts";

/**
 * What every start does, however recent the last full sweep: handles recorded payment events and
 * expires lapsed holds (through the pending checkouts), both cheap and both what a shopper waits
 * on after a crash. Answers what it did, for the start-up log.
 */
export async function recoverQuickly(
  deps: OrderDeps,
): Promise<{ events: number; expired: number }> {
  const events = await handleWaitingEvents(deps);
  return { events, expired: (await expireLapsedHolds(deps)).length };
}

/** Handles every recorded payment event still waiting; answers how many. */
async function handleWaitingEvents(deps: OrderDeps): Promise<number> {
  let events = 0;
  for (const event of await listInbox(deps.kv)) {
    try {
      await handlePaymentEvent(deps, event);
      events++;
    } catch (err) {
      // Its job is still there and retries it.
      deps.logger({ msg: "payment event left to its job", level: "warn", error: String(err) });
    }
  }
  return events;
}

/** Finishes what was left unfinished; answers what it did, for the start-up log. */
export async function recoverOrders(
  deps: OrderDeps,
): Promise<{ events: number; expired: number; scheduled: number; refunds: number }> {
  const events = await handleWaitingEvents(deps);
  const holds = await sweepHolds(deps);
  let refunds = 0;
  const now = deps.clock.now();
  const owed = new Set(
    (await jobsOfType<RefundJob>(deps.kv, "refund")).map((job) => job.orderNumber),
  );
  for (const order of await listOrders(deps.kv)) {
    const refund = order.refund;
    if (refund?.state !== "pending" && refund?.state !== "requested") continue;
    if (owed.has(order.orderNumber)) continue;
    // Its next try, when one is set.
    const op = deps.kv.atomic();
    queueRefundInto(op, order.orderNumber, Math.max(now, refund.nextTryAt ?? now));
    await op.commit();
    refunds++;
  }
  return { events, expired: holds.expired.length, scheduled: holds.scheduled.length, refunds };
}
