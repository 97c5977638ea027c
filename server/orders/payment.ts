/**
 * Payments arriving for orders: every provider signal (a webhook, a demo charge, a redirect's
 * poll, the expiry's question to the provider) becomes a payment event, which is
 *   1. recorded (inbox + queue job, in one write), then
 *   2. handled: a paid order, a refund, a failure note or an expiry, in one write that also
 *      marks the event handled and removes it from the inbox.
 * An event id is handled once. A crash between the two steps leaves the queue (and the start-up
 * sweep) to handle it, so a charge always ends as a paid order or a refund.
 */
import { NotFound } from "../errors.ts";
import { findOrderByPaymentId, findOrderEntry, updateOrder } from "./store.ts";
import { inboxEvent, markHandledInto, recordEventInto } from "../payments/inbox.ts";
import type { PaymentEvent } from "../payments/provider.ts";
import { type Order } from "./order.ts";
import { recordRefundOutcome, refundSoon } from "./refunds.ts";
import { releaseOrder } from "./release.ts";
import { type OrderDeps, step } from "./steps.ts";
import { recordPayment } from "./paid_write.ts";

/**
 * Records an event (step 1) and handles it at once (step 2), answering the order as it ends.
 * For events a provider delivers over HTTP: the answer to the provider can be given as soon as
 * the event is recorded.
 */
export async function receivePaymentEvent(
  deps: OrderDeps,
  event: PaymentEvent,
): Promise<Order | null> {
  await recordPaymentEvent(deps, event);
  return await handlePaymentEvent(deps, event);
}

/** Step 1 alone: the event is recorded with its queue job (a no-op for one handled before). */
export async function recordPaymentEvent(deps: OrderDeps, event: PaymentEvent): Promise<void> {
  await step(deps, "record payment event", async () => {
    const op = deps.kv.atomic();
    recordEventInto(op, event, deps.clock.now());
    // A failed check means the event was handled before: nothing to record.
    await op.commit();
  }, event.orderNumber);
}

/** The queue job of a recorded event: handles it if it is still waiting. */
export async function handleRecordedEvent(deps: OrderDeps, eventId: string): Promise<void> {
  const event = await inboxEvent(deps.kv, eventId);
  if (event) await handlePaymentEvent(deps, event);
}

/**
 * Handles one event, once per event id; answers the order (null for an unknown order, whose
 * event is logged and set aside).
 */
export async function handlePaymentEvent(
  deps: OrderDeps,
  event: PaymentEvent,
  /** The order, when the caller started reading it already (the payment's own read). */
  orderRead?: Promise<Deno.KvEntry<Order> | null>,
): Promise<Order | null> {
  const { kv, clock, logger } = deps;
  if (event.type === "refund") {
    // About a refund the shop asked for (found by its order number): its final state.
    const order = event.refund && await findOrderEntry(kv, event.orderNumber)
      ? await recordRefundOutcome(deps, event.orderNumber, event.refund)
      : null;
    await finishEvent(kv, event.id, clock.now());
    return order;
  }
  const read = await orderRead?.catch(() => null);
  const entry = read?.value.orderNumber === event.orderNumber
    ? read
    : await findOrderEntry(kv, event.orderNumber);
  if (!entry || (entry.value.payment && entry.value.payment.id !== event.paymentId)) {
    logger({ msg: "payment event for an unknown order", level: "warn", event });
    await finishEvent(kv, event.id, clock.now());
    return entry?.value ?? null;
  }
  switch (event.type) {
    case "paid": {
      const order = await step(
        deps,
        "record payment",
        () => recordPayment(deps, event, entry),
        event.orderNumber,
      );
      if (order.refund?.state === "pending") {
        await step(deps, "refund", () => refundSoon(deps, order.orderNumber), order.orderNumber);
      }
      return order;
    }
    case "failed": {
      const order = await notePaymentFailure(
        deps,
        event.orderNumber,
        event.failureMessage ?? "The payment failed",
      );
      await finishEvent(kv, event.id, clock.now());
      return order;
    }
    case "expired": {
      const order = await releaseOrder(deps, event.orderNumber, "EXPIRED", "The payment expired");
      await finishEvent(kv, event.id, clock.now());
      return order;
    }
  }
}

/**
 * Notes a failed attempt on an unpaid order, for the shopper to read; the hold stands until it
 * lapses, so another card can be tried.
 */
export async function notePaymentFailure(
  deps: OrderDeps,
  orderNumber: string,
  message: string,
): Promise<Order> {
  return await updateOrder(
    deps.kv,
    orderNumber,
    (order) =>
      order.status === "STARTED"
        ? { ...order, paymentError: message, updatedAt: deps.clock.now() }
        : order,
  );
}

/**
 * Marks an event handled on its own (when handling it wrote nothing else). Unchecked: marking it
 * again only renews how long it is remembered.
 */
async function finishEvent(kv: Deno.Kv, eventId: string, now: number): Promise<void> {
  await markHandledInto(kv.atomic(), eventId, now).commit();
}

/**
 * The shopper is back from paying (the success page's or /completion's check): the redirect can
 * beat the webhook, so a payment still unrecorded is asked of the provider and recorded through
 * the same handler. NotFound when no order has this payment.
 */
export async function paymentReturned(deps: OrderDeps, paymentId: string): Promise<Order> {
  const order = await findOrderByPaymentId(deps.kv, paymentId);
  if (!order) throw new NotFound("No order found for this payment session");
  if (order.status !== "STARTED" || !order.payment) return order;
  const event = await deps.payments.poll(order.payment, order.orderNumber).catch(() => null);
  return (event && await receivePaymentEvent(deps, event)) ?? order;
}

/**
 * A provider's verified webhook event: recorded before the provider is answered (a failure here
 * is a 5xx, which the provider retries), then handled; one that fails to be handled now is
 * handled from the queue. Answers what became of it, for the log.
 */
export async function receiveWebhookEvent(deps: OrderDeps, event: PaymentEvent): Promise<string> {
  if (!event.orderNumber) {
    // Objects created outside this code path lack metadata; the payment id still finds them.
    const order = await findOrderByPaymentId(deps.kv, event.paymentId);
    if (order) event.orderNumber = order.orderNumber;
  }
  await recordPaymentEvent(deps, event);
  try {
    return (await handlePaymentEvent(deps, event))?.status ?? "unknown order";
  } catch (err) {
    deps.logger({ msg: "webhook event left to the queue", level: "warn", error: String(err) });
    return "recorded";
  }
}
