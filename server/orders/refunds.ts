/**
 * Money owed back. Whatever makes an order owe a refund (a cancellation after payment, a payment
 * that arrived for an order that could no longer be filled or was replaced, a promo code that ran
 * out) marks the order `refund: pending` and queues this job in the same write, so a crash never
 * forgets a refund. The job asks the provider (with the order's idempotency key, so a retry never
 * pays back twice) and records its answer:
 * - accepted and done: refunded;
 * - accepted, not final yet (some card refunds take days): requested, and asked again later; its webhook
 *   may tell first;
 * - refused or unreachable: tried again on a widening schedule, for as long as it takes; once it
 *   has failed for an hour, the owner is emailed, once;
 * - failed at the provider (a closed card): failed, and the owner is emailed.
 */
import { findOrder, updateOrder } from "./store.ts";
import { queueEmailInto } from "../email/outbox.ts";
import { orderCancelledEmail, ownerCancelledEmail, refundTroubleEmail } from "./emails.ts";
import type { RefundOutcome } from "../payments/provider.ts";
import type { Order, RefundState } from "./order.ts";
import { originFor } from "./origin.ts";
import type { OrderDeps } from "./steps.ts";
import { count, inSpan, ORDER_NUMBER } from "../telemetry.ts";
import { jobInto } from "../kv/jobs.ts";

/** The queue job that moves one order's refund on. */
export interface RefundJob {
  type: "refund";
  orderNumber: string;
}

/** Waits after the 1st, 2nd, ... refused try; every later try waits the last of them. */
const RETRY_DELAYS_MS = [
  60_000,
  5 * 60_000,
  15 * 60_000,
  60 * 60_000,
  3 * 3_600_000,
  6 * 3_600_000,
];

/** How much before its time a queued try still counts as due (isolates' clocks differ). */
const EARLY_MS = 10_000;

/** A refund accepted but not final is asked about again after this long. */
export const REFUND_CHECK_MS = 15 * 60_000;

/** A refund failing this long is the owner's to see to. */
export const REFUND_TELL_OWNER_AFTER_MS = 60 * 60_000;

/** The wait before the next try after `failures` refused ones. */
export function refundRetryDelay(failures: number): number {
  return RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length) - 1];
}

/**
 * The idempotency key of an order's refund at the provider: the same for every try, so a retry
 * never pays back twice. (Not "refund-N": tries made before refunds carried the order number used
 * that key with other parameters, which a provider may refuse to reuse for a day.)
 */
export function refundKey(orderNumber: string): string {
  return `order-refund-${orderNumber}`;
}

/** The order owing its total back (write it with `queueRefundInto` in the same operation). */
export function owingRefund(order: Order, reason: string): Order {
  const refund: RefundState = { state: "pending", amountCents: order.totalCents, reason };
  return { ...order, refund };
}

/** Adds the job that pays an owed refund back to `op`, due at `at`. */
export function queueRefundInto(op: Deno.AtomicOperation, orderNumber: string, at: number): void {
  jobInto(op, { type: "refund", orderNumber } satisfies RefundJob, { at });
}

/** Mutations `cancelWithRefundInto` adds besides the order's own write. */
export const CANCEL_WITH_REFUND_MUTATIONS = 7;

/**
 * Adds what every cancellation that gives money back writes with the order, whoever or whatever
 * cancelled it (the owner, the shopper, or the shop itself when a payment cannot stand): the
 * refund's job, and the shopper's and the owner's emails, each once per order.
 */
export function cancelWithRefundInto(
  deps: Pick<OrderDeps, "config">,
  op: Deno.AtomicOperation,
  order: Order,
  now: number,
): void {
  queueRefundInto(op, order.orderNumber, now);
  const origin = originFor(deps, order);
  if (order.email) {
    queueEmailInto(
      op,
      orderCancelledEmail(order, origin),
      now,
      `order-cancelled:${order.orderNumber}`,
    );
  }
  queueEmailInto(
    op,
    ownerCancelledEmail(order, origin, deps.config.shopEmail),
    now,
    `owner-cancelled:${order.orderNumber}`,
  );
}

/**
 * Moves a refund on: asks the provider to pay it back (or, once it accepted, whether it is done)
 * and records the answer. A refusal is recorded with the next try queued; nothing is thrown for
 * the provider's sake. `queued` is true for a queue job: one that comes before the refund's next
 * try (a retry already queued) does nothing.
 */
export async function settleRefund(
  deps: OrderDeps,
  orderNumber: string,
  options: { queued?: boolean } = {},
): Promise<void> {
  // Its own span: run from the queue, a refund has no request around it.
  await inSpan(
    "refund: settle",
    { [ORDER_NUMBER]: orderNumber },
    () => settle(deps, orderNumber, options),
  );
}

async function settle(
  deps: OrderDeps,
  orderNumber: string,
  options: { queued?: boolean },
): Promise<void> {
  const order = await findOrder(deps.kv, orderNumber);
  const refund = order?.refund;
  if (!order || !refund || refund.state === "refunded" || refund.state === "failed") return;
  // A job may arrive a little before its time (isolates' clocks differ): still due.
  if (options.queued && (refund.nextTryAt ?? 0) > deps.clock.now() + EARLY_MS) return;
  let outcome: RefundOutcome;
  try {
    outcome = !order.payment
      ? { id: null, status: "succeeded" }
      : refund.state === "requested" && refund.providerId
      ? await deps.payments.refundStatus(refund.providerId)
      : await deps.payments.refund(
        order.payment,
        refund.amountCents,
        refundKey(orderNumber),
        orderNumber,
      );
  } catch (err) {
    await recordRefundTrouble(deps, orderNumber, String((err as Error)?.message ?? err));
    return;
  }
  await recordRefundOutcome(deps, orderNumber, outcome);
}

/** Tries a refund now (right after the write that owes it); its queued job is the safety net. */
export async function refundSoon(deps: OrderDeps, orderNumber: string): Promise<void> {
  await settleRefund(deps, orderNumber);
}

/**
 * Records what the provider said of an order's refund (its answer to the shop, or its event):
 * done, not final yet (asked again later), or failed (the owner told).
 */
export async function recordRefundOutcome(
  deps: OrderDeps,
  orderNumber: string,
  outcome: RefundOutcome,
): Promise<Order> {
  const now = deps.clock.now();
  // What the committed write made of the refund (the last run of the change is the one written).
  let became: "refunded" | "failed" | null = null;
  const order = await updateOrder(deps.kv, orderNumber, (order, op) => {
    became = null;
    const refund = order.refund;
    if (!refund || refund.state === "failed") return order;
    // An event about another refund of this payment (made in the provider's dashboard) is not ours.
    if (refund.providerId && outcome.id && outcome.id !== refund.providerId) return order;
    // A refund that went through stays so, unless the provider says it failed after all (rare:
    // the card's bank returned it).
    if (refund.state === "refunded" && outcome.status !== "failed") return order;
    // The provider answered: refusals before this are over, so a later refused check starts its
    // own count and its own hour (else a pending refund's one failed check could tell the owner
    // at once that a refund the provider accepted "needs you", and wait hours for the next look).
    const base = {
      ...refund,
      providerId: outcome.id ?? refund.providerId ?? null,
      lastError: null,
      failures: 0,
      failingSince: null,
    };
    if (outcome.status === "succeeded") {
      became = "refunded";
      return { ...order, refund: { ...base, state: "refunded", nextTryAt: null }, updatedAt: now };
    }
    if (outcome.status === "pending") {
      if (refund.state === "requested" && (refund.nextTryAt ?? 0) > now) return order;
      const nextTryAt = now + REFUND_CHECK_MS;
      queueRefundInto(op, orderNumber, nextTryAt);
      return { ...order, refund: { ...base, state: "requested", nextTryAt }, updatedAt: now };
    }
    became = "failed";
    const failed: Order = {
      ...order,
      refund: {
        ...base,
        state: "failed",
        nextTryAt: null,
        lastError: outcome.failureReason ?? "the provider failed the refund",
      },
      updatedAt: now,
    };
    tellOwner(
      deps,
      op,
      failed,
      "failed",
      `The payment provider accepted it, then failed it: ${
        outcome.failureReason ?? "no reason given"
      }. The money did not go back; refund the customer another way.`,
    );
    return failed;
  });
  if (became === "refunded") count("refundsIssued");
  if (became === "failed") count("refundsFailed");
  if (order.refund?.state === "refunded") {
    deps.logger({ msg: "refunded", order: orderNumber, amountCents: order.refund.amountCents });
  }
  return order;
}

/**
 * Records a refused try: counted, with the next one queued in the same write, and the owner told
 * once the refund has been failing for an hour.
 */
async function recordRefundTrouble(
  deps: OrderDeps,
  orderNumber: string,
  error: string,
): Promise<void> {
  const now = deps.clock.now();
  deps.logger({
    msg: "refund refused; tried again later",
    level: "warn",
    order: orderNumber,
    error,
  });
  count("refundsRefused");
  await updateOrder(deps.kv, orderNumber, (order, op) => {
    const refund = order.refund;
    if (!refund || refund.state === "refunded" || refund.state === "failed") return order;
    const failures = (refund.failures ?? 0) + 1;
    const failingSince = refund.failingSince ?? now;
    // Another try recorded a refusal at this moment and queued the next one already.
    const queued = (refund.nextTryAt ?? 0) > now;
    const nextTryAt = queued ? refund.nextTryAt! : now + refundRetryDelay(failures);
    if (!queued) queueRefundInto(op, orderNumber, nextTryAt);
    const tell = !refund.ownerTold && now - failingSince >= REFUND_TELL_OWNER_AFTER_MS;
    const next: Order = {
      ...order,
      refund: {
        ...refund,
        failures,
        failingSince,
        lastError: error,
        nextTryAt,
        ownerTold: refund.ownerTold || tell,
      },
      updatedAt: now,
    };
    if (tell) {
      tellOwner(
        deps,
        op,
        next,
        "refused",
        `The payment provider has refused it since ${
          new Date(failingSince).toISOString().replace("T", " ").slice(0, 16)
        } UTC (${failures} tries; the last answer: ${error}). The shop keeps trying, every few hours.`,
      );
    }
    return next;
  });
}

/** Emails the owner about a refund: once refused for long, and once failed (each once, ever). */
function tellOwner(
  deps: OrderDeps,
  op: Deno.AtomicOperation,
  order: Order,
  trouble: "refused" | "failed",
  problem: string,
) {
  const customer = `${order.customerName ?? "the customer"} <${order.email ?? "no email"}>`;
  queueEmailInto(
    op,
    refundTroubleEmail(
      { orderNumber: order.orderNumber, amountCents: order.refund!.amountCents, customer, problem },
      originFor(deps, order),
      deps.config.shopEmail,
    ),
    deps.clock.now(),
    `refund-${trouble}:${order.orderNumber}`,
  );
}
