/**
 * Expiry: an unpaid order whose hold lapsed gives its stock back, but only once the provider has
 * been asked. The payment is stopped first (after that it cannot be taken); if it was taken
 * already, its paid event is recorded instead, so nothing expires with money in.
 */
import type { Order } from "./order.ts";
import { findOrder } from "./store.ts";
import { keys } from "../kv/keys.ts";
import { getManyBatched } from "../kv/kv_util.ts";
import { jobsOfType, putJob } from "../kv/jobs.ts";
import { type ExpiryJob, expiryJobId } from "./expiry_job.ts";
import { receivePaymentEvent } from "./payment.ts";
import { releaseOrder } from "./release.ts";
import { type OrderDeps, step } from "./steps.ts";

/** How long an expiry waits before asking an unreachable provider again. */
export const EXPIRY_RETRY_MS = 60_000;

/**
 * Expires one order if its hold has lapsed (the delayed queue job, and the start-up sweep).
 * Idempotent. Throws when the provider cannot be asked; the caller tries again later.
 */
export async function expireIfLapsed(deps: OrderDeps, orderNumber: string): Promise<Order | null> {
  const order = await findOrder(deps.kv, orderNumber);
  if (!order || order.status !== "STARTED" || order.reservation.state !== "held") return null;
  // The stored expiry decides: a job that came early (isolates' clocks differ, a hold was
  // extended) looks again when the hold lapses, rather than leave it to the next start.
  const expiresAt = order.reservation.expiresAt;
  if (expiresAt > deps.clock.now()) {
    await putJob(deps.kv, { type: "reservation-expiry", orderNumber } satisfies ExpiryJob, {
      at: expiresAt,
      id: expiryJobId(orderNumber),
    });
    return null;
  }
  if (order.payment) {
    const payment = order.payment;
    const taken = await step(
      deps,
      "stop payment",
      () => deps.payments.stop(payment, order.orderNumber),
      orderNumber,
    );
    if (taken) return await receivePaymentEvent(deps, taken);
  }
  return await step(
    deps,
    "expire order",
    () => releaseOrder(deps, orderNumber, "EXPIRED", "The reservation lapsed"),
    orderNumber,
  );
}

/** What the start-up sweep did with the holds it found. */
export interface HoldSweep {
  /** Orders whose hold had lapsed, now expired (or paid, when the provider had the money). */
  expired: string[];
  /** Orders still holding, whose expiry was queued for when their hold lapses. */
  scheduled: string[];
}

/**
 * Goes over every order holding stock (at start): one whose hold lapsed while no process ran its
 * expiry is expired now; one whose hold runs on gets its expiry stored for when it lapses if none
 * is (a store restored from a backup made before jobs were stored has none). Expiry jobs are
 * idempotent, so one stored twice ends the hold once. An order whose provider cannot be asked now
 * gets a job to try again, unless one is stored for it already.
 */
export async function sweepHolds(deps: OrderDeps): Promise<HoldSweep> {
  const sweep: HoldSweep = { expired: [], scheduled: [] };
  const owed = new Set(
    (await jobsOfType<ExpiryJob>(deps.kv, "reservation-expiry")).map((job) => job.orderNumber),
  );
  for await (const entry of deps.kv.list<Order>({ prefix: keys.orders() })) {
    const order = entry.value;
    if (order.status !== "STARTED" || order.reservation.state !== "held") continue;
    const job: ExpiryJob = { type: "reservation-expiry", orderNumber: order.orderNumber };
    const expiresAt = order.reservation.expiresAt;
    if (expiresAt > deps.clock.now()) {
      if (!owed.has(order.orderNumber)) {
        await putJob(deps.kv, job, { at: expiresAt, id: expiryJobId(order.orderNumber) });
        sweep.scheduled.push(order.orderNumber);
      }
      continue;
    }
    const ended = await expireOrPostpone(deps, order.orderNumber);
    if (ended) sweep.expired.push(order.orderNumber);
    if (ended === null) {
      // Its own job, when it has one, is trying again already: another would ask the provider
      // once more every minute, and one more would come with each start.
      if (!owed.has(order.orderNumber)) {
        await putJob(deps.kv, job, { at: deps.clock.now() + EXPIRY_RETRY_MS });
      }
    }
  }
  return sweep;
}

/**
 * Expires the holds that lapsed, found through the carts' pending checkouts (one entry per order
 * holding stock) rather than every order: what every start does, cheaply, so a process that died
 * holding an expiry job (claimed until its lease ends) leaves no hold running long. A provider that
 * cannot be asked now is left to the order's own expiry job. Answers the orders expired.
 */
export async function expireLapsedHolds(deps: OrderDeps): Promise<string[]> {
  const numbers: string[] = [];
  for await (const entry of deps.kv.list<string>({ prefix: keys.pendingCheckouts() })) {
    numbers.push(entry.value);
  }
  const expired: string[] = [];
  const orders = await getManyBatched<Order>(deps.kv, numbers.map((n) => keys.order(n)));
  for (const { value: order } of orders) {
    if (!order || order.status !== "STARTED" || order.reservation.state !== "held") continue;
    if (order.reservation.expiresAt > deps.clock.now()) continue;
    if (await expireOrPostpone(deps, order.orderNumber)) expired.push(order.orderNumber);
  }
  return expired;
}

/** Expires one lapsed hold: true when it ended now, null when the provider could not be asked. */
async function expireOrPostpone(deps: OrderDeps, orderNumber: string): Promise<boolean | null> {
  try {
    return (await expireIfLapsed(deps, orderNumber)) !== null;
  } catch (err) {
    deps.logger({ msg: "expiry postponed", level: "warn", order: orderNumber, error: String(err) });
    return null;
  }
}
