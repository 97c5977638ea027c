import type { Logger } from "../log.ts";
import type { Clock } from "../clock.ts";
import { keys } from "../kv/keys.ts";
import { jobInto, putJob } from "../kv/jobs.ts";
import { randomId } from "../crypto.ts";
import { listValues } from "../kv/kv_util.ts";
import { Conflict, NotFound } from "../errors.ts";
import { type Email, type Mailer, PermanentMailError } from "./mailer.ts";
import {
  GIVE_UP_AFTER_MS,
  nextAttemptAt,
  ownerToBeTold,
  RETRY_AT_START_MS,
} from "./delivery_schedule.ts";
import { mailFailingEmail } from "./owner_alerts.ts";
import { count, inSpan } from "../telemetry.ts";
import type { Actor } from "../audit/actor.ts";
import { type AuditEntry, auditEntry, auditInto } from "../audit/log.ts";

/** An email waiting in, or delivered from, the outbox. */
export interface OutboxEntry {
  id: string;
  email: Email;
  /**
   * "pending": waiting for its next try; "sending": one delivery has claimed it until
   * `leaseUntil`; "failed": it gave up (server/email/delivery_schedule.ts).
   */
  status: "pending" | "sending" | "sent" | "failed";
  attempts: number;
  /** Until when the claiming delivery may send it; after that another may (it died mid-send). */
  leaseUntil?: number | null;
  /** When a failed try is tried again (its queue job is due then). */
  nextAttemptAt?: number | null;
  createdAt: number;
  sentAt: number | null;
  lastError: string | null;
  /** At most one email per dedupe key, ever (e.g. one confirmation per order). */
  dedupeKey: string | null;
  /** A failed email the owner resent: the copy's id (the original is not tried again). */
  resentAs?: string;
  /** The server refused this email for good (an address it will not deliver to). */
  refused?: boolean;
  /** Its text was erased with the account it was about (see forgetEmails): never resent. */
  erased?: boolean;
  /** Why the owner may not resend it (a link that is its recipient's alone); absent: they may. */
  noResend?: string;
}

/** The stored job that delivers one outbox entry. */
export interface EmailJob {
  type: "email";
  id: string;
}

/** Whether the mail server has been failing, as the deliveries found it. */
export interface MailHealth {
  /** When deliveries began failing (null: the last one went out). */
  failingSince: number | null;
  lastError: string | null;
  /** The owner was told of this outage. */
  told: boolean;
}

/** What a delivery needs: the store, the mail server, and the shop's own address. */
export interface MailDeps {
  kv: Deno.Kv;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  /** Where the owner's alerts go, and the shop's address for links in them. */
  config: { shopEmail: string; publicUrl: string | undefined };
}

/**
 * How long a claimed delivery may take before another may try: far above an SMTP send, which the
 * SMTP mailer's timeouts end well within.
 */
export const SEND_LEASE_MS = 5 * 60_000;

/**
 * A queue job may arrive this much before the time it was queued for (isolates' clocks differ):
 * it still counts as due.
 */
const EARLY_MS = 10_000;

/** Commits a delivery's outcome may lose to other deliveries' health writes before giving up. */
const HEALTH_TRIES = 10;

/**
 * Adds an email to the outbox in an atomic operation that can join a larger one (so an order and
 * its confirmation are written together), with the job that delivers it.
 */
export function queueEmailInto(
  op: Deno.AtomicOperation,
  email: Email,
  now: number,
  dedupeKey: string | null = null,
  options: { noResend?: string } = {},
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
    ...(options.noResend ? { noResend: options.noResend } : {}),
  };
  if (dedupeKey) {
    op.check({ key: keys.emailSent(dedupeKey), versionstamp: null })
      .set(keys.emailSent(dedupeKey), entry.id);
  }
  op.set(keys.outbox(entry.id), entry);
  jobInto(op, { type: "email", id: entry.id } satisfies EmailJob, { at: now });
  return entry;
}

/** Queues one email on its own; false when its dedupe key was used already. */
export async function queueEmail(
  kv: Deno.Kv,
  clock: Clock,
  email: Email,
  dedupeKey: string | null = null,
  /** An admin's request for it (the Test tab's email), recorded in the same write. */
  audit?: AuditEntry,
): Promise<boolean> {
  const op = kv.atomic();
  queueEmailInto(op, email, clock.now(), dedupeKey);
  if (audit) auditInto(op, audit);
  return (await op.commit()).ok;
}

/** How a delivery of one entry ended. */
export type Delivery = "sent" | "retrying" | "failed" | "skipped";

/**
 * Delivers one outbox entry. Queue delivery is at least once and every isolate sweeps the outbox
 * when it starts, so deliveries of one entry overlap: each first claims the entry (a
 * version-checked write to "sending" with a lease), and only the one that claimed it sends. A
 * sent entry is not sent again; a delivery that died mid-send is taken over once its lease ran
 * out. A failed try is recorded with its next try, queued in the same write, on the schedule of
 * server/email/delivery_schedule.ts; past it, the entry is marked failed. Every outcome also
 * keeps the mail's health: when it has been failing for a while, the owner is emailed once.
 * `now` (the start-up sweep) tries an entry waiting for a later try at once, and a failed one.
 * Each delivery is a span, "email: deliver", with how it ended.
 */
export async function deliverEmail(
  deps: MailDeps,
  id: string,
  options: { now?: boolean } = {},
): Promise<Delivery> {
  return await inSpan(
    "email: deliver",
    { "shop.email.id": id },
    () => deliver(deps, id, options),
    (outcome) => ({ "shop.email.outcome": outcome }),
  );
}

async function deliver(
  deps: MailDeps,
  id: string,
  options: { now?: boolean },
): Promise<Delivery> {
  const { kv, mailer, clock, logger } = deps;
  const entry = await kv.get<OutboxEntry>(keys.outbox(id));
  if (!entry.value) return "skipped";
  const now = clock.now();
  const { status, leaseUntil, nextAttemptAt: next } = entry.value;
  if (status === "sent" || (status === "failed" && !options.now)) return "skipped";
  if (status === "sending" && (leaseUntil ?? 0) > now) {
    // Another delivery holds it: look again when its lease ends, in case that one died.
    await putJob(kv, { type: "email", id } satisfies EmailJob, { at: leaseUntil! });
    return "skipped";
  }
  // An earlier job of a retried entry: the job of its next try is queued.
  if (status === "pending" && (next ?? 0) > now + EARLY_MS && !options.now) return "skipped";
  const claimed: OutboxEntry = {
    ...entry.value,
    status: "sending",
    attempts: entry.value.attempts + 1,
    leaseUntil: now + SEND_LEASE_MS,
    nextAttemptAt: null,
  };
  const claim = await kv.atomic().check(entry).set(keys.outbox(id), claimed).commit();
  // Lost the claim: another delivery changed the entry first and sends (or sent) it.
  if (!claim.ok) return "skipped";
  const held: Claim = { entry: claimed, versionstamp: claim.versionstamp };
  try {
    await mailer.send(entry.value.email);
  } catch (err) {
    const error = String((err as Error)?.message ?? err);
    logger({ msg: "email delivery failed", level: "warn", id, attempts: claimed.attempts, error });
    return await recordFailure(deps, held, error, err instanceof PermanentMailError);
  }
  await recordSent(deps, held);
  return "sent";
}

/** An entry this delivery claimed, and the versionstamp of its claim. */
interface Claim {
  entry: OutboxEntry;
  versionstamp: string;
}

/**
 * Commits a delivery's outcome with the mail's health, both checked: the entry still as this
 * delivery claimed it (a delivery whose claim was taken over records nothing), the health as
 * read. Answers false when the claim was lost.
 */
async function commitOutcome(
  deps: MailDeps,
  claim: Claim,
  build: (op: Deno.AtomicOperation, health: Deno.KvEntryMaybe<MailHealth>) => void | Promise<void>,
): Promise<boolean> {
  const { kv } = deps;
  const key = keys.outbox(claim.entry.id);
  for (let i = 0; i < HEALTH_TRIES; i++) {
    const health = await kv.get<MailHealth>(keys.mailHealth());
    const op = kv.atomic().check({ key, versionstamp: claim.versionstamp });
    await build(op, health);
    if ((await op.commit()).ok) return true;
    if ((await kv.get(key)).versionstamp !== claim.versionstamp) return false;
  }
  // The health kept changing under us: the entry's own outcome must still be kept.
  const op = kv.atomic().check({ key, versionstamp: claim.versionstamp });
  await build(op, { key: keys.mailHealth(), value: null, versionstamp: null });
  return (await op.commit()).ok;
}

/** The entry sent, and the mail healthy again if it was failing. */
async function recordSent(deps: MailDeps, claim: Claim): Promise<void> {
  const sent: OutboxEntry = {
    ...claim.entry,
    status: "sent",
    leaseUntil: null,
    sentAt: deps.clock.now(),
    lastError: null,
  };
  await commitOutcome(deps, claim, (op, health) => {
    op.set(keys.outbox(sent.id), sent);
    if (health.value?.failingSince != null) {
      op.check(health).set(
        keys.mailHealth(),
        { failingSince: null, lastError: null, told: false } satisfies MailHealth,
      );
    }
  });
}

/**
 * The failed try recorded: its next try queued, or the entry failed past the schedule (or at once,
 * for an email the server will never take); the mail's health noted, and the owner emailed once
 * when it has been failing for a while. A refusal of this one email says nothing of the server.
 */
async function recordFailure(
  deps: MailDeps,
  claim: Claim,
  error: string,
  permanent: boolean,
): Promise<Delivery> {
  const { kv, clock, config } = deps;
  const now = clock.now();
  const next = permanent ? null : nextAttemptAt(claim.entry.createdAt, claim.entry.attempts, now);
  const after: OutboxEntry = {
    ...claim.entry,
    status: next === null ? "failed" : "pending",
    leaseUntil: null,
    nextAttemptAt: next,
    lastError: error,
    ...(permanent ? { refused: true } : {}),
  };
  const recorded = commitOutcome(deps, claim, async (op, health) => {
    op.set(keys.outbox(after.id), after);
    if (next !== null) {
      jobInto(op, { type: "email", id: after.id } satisfies EmailJob, { at: next });
    }
    if (permanent) return;
    const since = health.value?.failingSince ?? now;
    const tell = ownerToBeTold(since, health.value?.told ?? false, now);
    op.check(health).set(
      keys.mailHealth(),
      {
        failingSince: since,
        lastError: error,
        told: (health.value?.told ?? false) || tell,
      } satisfies MailHealth,
    );
    if (tell) {
      const { waiting } = await outboxCounts(kv, now);
      queueEmailInto(
        op,
        mailFailingEmail(
          { since, lastError: error, waiting, giveUpHours: GIVE_UP_AFTER_MS / 3_600_000 },
          config.publicUrl ?? "",
          config.shopEmail,
        ),
        now,
        `mail-failing:${since}`,
      );
    }
  });
  // Counted only when this delivery's outcome was kept (a claim taken over records nothing).
  if (await recorded) count("emailsFailed", { "shop.email.final": after.status === "failed" });
  return after.status === "failed" ? "failed" : "retrying";
}

/**
 * The start-up sweep (and tests): tries every email not sent yet now, whatever its schedule, and
 * the emails that gave up on this schedule in the last week (not one the server refused for good,
 * nor one the owner resent). Answers how many went out.
 */
export async function deliverPending(deps: MailDeps): Promise<number> {
  const now = deps.clock.now();
  let delivered = 0;
  for await (const entry of recentOutbox(deps.kv, now)) {
    const { status, id } = entry.value;
    if (status === "sent" || (status === "failed" && !retriedAtStart(entry.value, now))) continue;
    if ((await deliverEmail(deps, id, { now: true })) === "sent") delivered++;
  }
  return delivered;
}

/** Whether a failed email is tried again when a process starts. */
function retriedAtStart(entry: OutboxEntry, now: number): boolean {
  // Emails that failed before this schedule existed (no `nextAttemptAt` at all) were resent by
  // hand or given up then: they are not sent again now.
  return entry.nextAttemptAt !== undefined && !entry.refused && !entry.resentAs &&
    now - entry.createdAt <= RETRY_AT_START_MS;
}

/**
 * The outbox written since `RETRY_AT_START_MS` plus a day ago, in time order (entry ids start with
 * their creation time in base 36): everything still waiting or worth trying at start, without
 * reading years of sent mail.
 */
function recentOutbox(kv: Deno.Kv, now: number): Deno.KvListIterator<OutboxEntry> {
  const since = Math.max(0, now - RETRY_AT_START_MS - GIVE_UP_AFTER_MS).toString(36);
  return kv.list<OutboxEntry>({ start: keys.outbox(since), end: [...keys.outboxAll(), "\uffff"] });
}

/** Emails waiting for a try, and failed ones the owner may want to resend (recent ones). */
export async function outboxCounts(
  kv: Deno.Kv,
  now: number,
): Promise<{ waiting: number; failed: number }> {
  let waiting = 0;
  let failed = 0;
  for await (const { value } of recentOutbox(kv, now)) {
    if (value.status === "pending" || value.status === "sending") waiting++;
    if (value.status === "failed" && !value.resentAs) failed++;
  }
  return { waiting, failed };
}

/** The mail's health as the deliveries last found it. */
export async function mailHealth(kv: Deno.Kv): Promise<MailHealth> {
  return (await kv.get<MailHealth>(keys.mailHealth())).value ??
    { failingSince: null, lastError: null, told: false };
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
export async function resendEmail(
  kv: Deno.Kv,
  clock: Clock,
  id: string,
  actor?: Actor,
): Promise<OutboxEntry> {
  for (;;) {
    const original = await kv.get<OutboxEntry>(keys.outbox(id));
    if (!original.value) throw new NotFound(`No email with id ${id}`);
    if (original.value.noResend) throw new Conflict(original.value.noResend);
    if (original.value.erased) {
      throw new Conflict(
        "This email was erased when its customer deleted their account, so it cannot be resent",
      );
    }
    const op = kv.atomic();
    const copy = queueEmailInto(op, original.value.email, clock.now());
    if (actor) {
      auditInto(
        op,
        auditEntry(clock, actor, {
          kind: "emails",
          action: "email.resent",
          target: id,
          label: `to ${original.value.email.to}`,
        }),
      );
    }
    // A failed original the copy replaces is not tried again at the next start.
    if (original.value.status === "failed") {
      op.check(original).set(original.key, { ...original.value, resentAs: copy.id });
    }
    if ((await op.commit()).ok) return copy;
  }
}

/** Every outbox entry, oldest first. */
export async function listOutbox(kv: Deno.Kv): Promise<OutboxEntry[]> {
  const all = await listValues<OutboxEntry>(kv, keys.outboxAll());
  return all.sort((a, b) => a.createdAt - b.createdAt);
}

/** What an email about a deleted account says instead of its text. */
export const ERASED_TEXT =
  "This email was erased: the customer it was about deleted their account.";

/** Outbox writes per atomic commit while forgetting (well under KV's mutation limit). */
const FORGET_BATCH = 100;

/**
 * Forgets what the outbox keeps of one person: emails sent to any of `to` (case-insensitive) are
 * deleted, so neither their text nor a resend is left; other emails whose subject names one of
 * `mentioning` (the owner's notes of that person's orders) keep their subject, which names no one,
 * and lose their text. Each entry is written only if unchanged since read, so an entry a delivery
 * is recording at the same moment is looked at again.
 */
export async function forgetEmails(
  kv: Deno.Kv,
  who: { to: string[]; mentioning: string[] },
): Promise<void> {
  const to = new Set(who.to.map((a) => a.trim().toLowerCase()));
  const names = who.mentioning.filter((m) => m !== "");
  const concerns = (e: OutboxEntry) =>
    to.has(e.email.to.trim().toLowerCase()) ||
    (!e.erased && names.some((n) => e.email.subject.includes(n)));
  for (;;) {
    const found: Deno.KvEntry<OutboxEntry>[] = [];
    for await (const entry of kv.list<OutboxEntry>({ prefix: keys.outboxAll() })) {
      if (concerns(entry.value)) found.push(entry);
    }
    if (found.length === 0) return;
    let raced = false;
    for (let i = 0; i < found.length; i += FORGET_BATCH) {
      const op = kv.atomic();
      for (const entry of found.slice(i, i + FORGET_BATCH)) {
        op.check(entry);
        if (to.has(entry.value.email.to.trim().toLowerCase())) op.delete(entry.key);
        else op.set(entry.key, erased(entry.value));
      }
      if (!(await op.commit()).ok) raced = true;
    }
    if (!raced) return;
  }
}

/** An entry with its text gone; a pending one still goes out, saying it was erased. */
function erased(entry: OutboxEntry): OutboxEntry {
  return {
    ...entry,
    email: { ...entry.email, text: ERASED_TEXT, html: `<p>${ERASED_TEXT}</p>` },
    erased: true,
  };
}
