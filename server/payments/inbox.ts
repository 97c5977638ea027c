/**
 * Payment events are recorded before they are handled, as providers deliver webhooks: an event in
 * the inbox is handled from the queue until the write that handles it also removes it, so a
 * process that dies at any moment after a payment leaves it to be handled, never lost.
 */
import type { PaymentEvent } from "./provider.ts";
import { keys } from "../kv/keys.ts";
import { jobInto } from "../kv/jobs.ts";
import { listValues } from "../kv/kv_util.ts";

/** The queue job that handles one recorded event. */
export interface PaymentEventJob {
  type: "payment-event";
  eventId: string;
}

/** An event waiting to be handled. */
export interface InboxEntry {
  event: PaymentEvent;
  recordedAt: number;
}

/**
 * When the queue job of a recorded event runs: every recording is followed by an attempt to
 * handle it at once, so the job is the safety net for a process that died first, and a short
 * delay keeps it from racing that attempt.
 */
export const INBOX_JOB_DELAY_MS = 2_000;

/** How long an event id is remembered as handled, so a late redelivery does nothing. */
const HANDLED_MS = 90 * 86400_000;

/**
 * Adds the recording of an event to `op`, with its queue job. An event handled already is not
 * recorded again (the check makes the whole write fail, which the caller treats as done).
 */
export function recordEventInto(op: Deno.AtomicOperation, event: PaymentEvent, now: number): void {
  op.check({ key: keys.paymentEvent(event.id), versionstamp: null })
    .set(keys.paymentInbox(event.id), { event, recordedAt: now } satisfies InboxEntry);
  jobInto(op, { type: "payment-event", eventId: event.id } satisfies PaymentEventJob, {
    at: now + INBOX_JOB_DELAY_MS,
  });
}

/**
 * Adds "this event is handled" to `op`, checked that it was not handled before: remembered as
 * handled, gone from the inbox.
 */
export function finishEventInto(op: Deno.AtomicOperation, eventId: string, now: number): void {
  markHandledInto(op.check({ key: keys.paymentEvent(eventId), versionstamp: null }), eventId, now);
}

/** Adds "remembered as handled, gone from the inbox" to `op`, without a check. */
export function markHandledInto(
  op: Deno.AtomicOperation,
  eventId: string,
  now: number,
): Deno.AtomicOperation {
  return op.set(keys.paymentEvent(eventId), { at: now }, { expireIn: HANDLED_MS })
    .delete(keys.paymentInbox(eventId));
}

/** A recorded event still waiting, or null. */
export async function inboxEvent(kv: Deno.Kv, eventId: string): Promise<PaymentEvent | null> {
  return (await kv.get<InboxEntry>(keys.paymentInbox(eventId))).value?.event ?? null;
}

/** Every event still waiting (the start-up sweep). */
export async function listInbox(kv: Deno.Kv): Promise<PaymentEvent[]> {
  return (await listValues<InboxEntry>(kv, keys.paymentInboxAll())).map((e) => e.event);
}
