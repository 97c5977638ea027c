/**
 * What a crash, an outage or a restore may have left unfinished, finished at start: recorded
 * payment events not yet handled, holds that lapsed while no process ran their expiry (and the
 * expiry of the others, queued again), refunds owed and not yet paid back (their next try
 * queued again). Every step is
 * idempotent, so running it while the queue also works is harmless.
 */
import { listInbox } from "../payments/inbox.ts";
import { listOrders } from "./store.ts";
import { sweepHolds } from "./expiry.ts";
import { handlePaymentEvent } from "./payment.ts";
import { queueRefundInto } from "./refunds.ts";
import type { OrderDeps } from "./steps.ts";

/** Finishes what was left unfinished; answers what it did, for the start-up log. */
export async function recoverOrders(
  deps: OrderDeps,
): Promise<{ events: number; expired: number; scheduled: number; refunds: number }> {
  let events = 0;
  for (const event of await listInbox(deps.kv)) {
    try {
      await handlePaymentEvent(deps, event);
      events++;
    } catch (err) {
      // Its queue job is still there and retries it.
      deps.logger({ msg: "payment event left to the queue", level: "warn", error: String(err) });
    }
  }
  const holds = await sweepHolds(deps);
  let refunds = 0;
  const now = deps.clock.now();
  for (const order of await listOrders(deps.kv)) {
    const refund = order.refund;
    if (refund?.state !== "pending" && refund?.state !== "requested") continue;
    // Its next try, when one is set (a job queued before it does nothing, and a restored store's
    // queue lost the one that was).
    const op = deps.kv.atomic();
    queueRefundInto(op, order.orderNumber, Math.max(0, (refund.nextTryAt ?? now) - now));
    await op.commit();
    refunds++;
  }
  return { events, expired: holds.expired.length, scheduled: holds.scheduled.length, refunds };
}
