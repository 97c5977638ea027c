import type { Clock, Logger } from "../deps.ts";
import { keys } from "../db/keys.ts";
import { randomId } from "../crypto.ts";
import { listValues } from "../db/kv_util.ts";
import { NotFound } from "../errors.ts";
import type { Email, Mailer } from "./mailer.ts";

/** An email waiting in, or delivered from, the outbox. */
export interface OutboxEntry {
  id: string;
  email: Email;
  /** "sending": one delivery has claimed it until `leaseUntil`. */
  status: "pending" | "sending" | "sent" | "failed";
  attempts: number;
  /** Until when the claiming delivery may send it; after that another may (it died mid-send). */
  leaseUntil?: number | null;
  createdAt: number;
  sentAt: number | null;
  lastError: string | null;
  /** At most one email per dedupe key, ever (e.g. one confirmation per order). */
  dedupeKey: string | null;
}

/** Message put on the KV queue to deliver one outbox entry. */
export interface EmailJob {
  type: "email";
  id: string;
}

const MAX_ATTEMPTS = 6;

/** How long a claimed delivery may take before another may try: far above an SMTP send. */
export const SEND_LEASE_MS = 60_000;

/**
 * Adds an email to the outbox in an atomic operation that can join a larger one (so an order and
 * its confirmation are written together), and enqueues its delivery.
 */
export function queueEmailInto(
  op: Deno.AtomicOperation,
  email: Email,
  now: number,
  dedupeKey: string | null = null,
): OutboxEntry {
  const entry: OutboxEntry = {
    id: `${now.toString(36)}-${randomId(8)}`,
    email,
    status: "pending",
    attempts: 0,
    createdAt: now,
    sentAt: null,
    lastError: null,
    dedupeKey,
  };
  if (dedupeKey) {
    op.check({ key: keys.emailSent(dedupeKey), versionstamp: null })
      .set(keys.emailSent(dedupeKey), entry.id);
  }
  op.set(keys.outbox(entry.id), entry);
  op.enqueue({ type: "email", id: entry.id } satisfies EmailJob);
  return entry;
}

/** Queues one email on its own; false when its dedupe key was used already. */
export async function queueEmail(
  kv: Deno.Kv,
  clock: Clock,
  email: Email,
  dedupeKey: string | null = null,
): Promise<boolean> {
  const op = kv.atomic();
  queueEmailInto(op, email, clock.now(), dedupeKey);
  return (await op.commit()).ok;
}

/**
 * Delivers one outbox entry. Queue delivery is at least once and every isolate sweeps the outbox
 * when it starts, so deliveries of one entry overlap: each first claims the entry (a
 * version-checked write to "sending" with a lease), and only the one that claimed it sends. A
 * sent entry is not sent again. A failure is recorded and thrown so the queue retries it; a
 * delivery that died mid-send is taken over once its lease has run out.
 */
export async function deliverEmail(
  kv: Deno.Kv,
  mailer: Mailer,
  clock: Clock,
  logger: Logger,
  id: string,
): Promise<void> {
  const entry = await kv.get<OutboxEntry>(keys.outbox(id));
  if (!entry.value) return;
  const now = clock.now();
  const { status, leaseUntil } = entry.value;
  if (status === "sent" || status === "failed") return;
  if (status === "sending" && (leaseUntil ?? 0) > now) {
    // Another delivery holds it: look again when its lease ends, in case that one died.
    await kv.enqueue({ type: "email", id } satisfies EmailJob, { delay: leaseUntil! - now });
    return;
  }
  const attempts = entry.value.attempts + 1;
  const claimed: OutboxEntry = {
    ...entry.value,
    status: "sending",
    attempts,
    leaseUntil: now + SEND_LEASE_MS,
  };
  const claim = await kv.atomic().check(entry).set(keys.outbox(id), claimed).commit();
  // Lost the claim: another delivery changed the entry first and sends (or sent) it.
  if (!claim.ok) return;
  try {
    await mailer.send(entry.value.email);
    await kv.set(keys.outbox(id), {
      ...claimed,
      status: "sent",
      leaseUntil: null,
      sentAt: clock.now(),
      lastError: null,
    });
  } catch (err) {
    const failed = attempts >= MAX_ATTEMPTS;
    await kv.set(keys.outbox(id), {
      ...claimed,
      status: failed ? "failed" : "pending",
      leaseUntil: null,
      lastError: String((err as Error)?.message ?? err),
    });
    logger({ msg: "email delivery failed", level: "warn", id, attempts, error: String(err) });
    if (!failed) throw err;
  }
}

/** Delivers every pending email now (tests, and a start-up sweep after a crash). */
export async function deliverPending(
  kv: Deno.Kv,
  mailer: Mailer,
  clock: Clock,
  logger: Logger,
): Promise<number> {
  let delivered = 0;
  for await (const entry of kv.list<OutboxEntry>({ prefix: keys.outboxAll() })) {
    if (entry.value.status === "sent" || entry.value.status === "failed") continue;
    try {
      await deliverEmail(kv, mailer, clock, logger, entry.value.id);
      delivered++;
    } catch { /* recorded on the entry; the queue or the next sweep retries */ }
  }
  return delivered;
}

/**
 * The newest entries first, optionally only those to one address (case-insensitive), at most
 * `limit`. Entry ids start with their creation time in base 36, so the key order is time order.
 */
export async function listRecentOutbox(
  kv: Deno.Kv,
  options: { to?: string; limit: number },
): Promise<OutboxEntry[]> {
  const to = options.to?.toLowerCase();
  const found: OutboxEntry[] = [];
  for await (const entry of kv.list<OutboxEntry>({ prefix: keys.outboxAll() }, { reverse: true })) {
    if (to && entry.value.email.to.toLowerCase() !== to) continue;
    found.push(entry.value);
    if (found.length >= options.limit) break;
  }
  return found;
}

/** Queues a fresh copy of an entry's email (no dedupe key: the owner asked for it again). */
export async function resendEmail(kv: Deno.Kv, clock: Clock, id: string): Promise<OutboxEntry> {
  const original = await kv.get<OutboxEntry>(keys.outbox(id));
  if (!original.value) throw new NotFound(`No email with id ${id}`);
  const op = kv.atomic();
  const copy = queueEmailInto(op, original.value.email, clock.now());
  await op.commit();
  return copy;
}

/** Every outbox entry, oldest first. */
export async function listOutbox(kv: Deno.Kv): Promise<OutboxEntry[]> {
  const all = await listValues<OutboxEntry>(kv, keys.outboxAll());
  return all.sort((a, b) => a.createdAt - b.createdAt);
}
