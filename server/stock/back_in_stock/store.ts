/**
 * Back-in-stock sign-ups in KV, by what they wait for and by their unsubscribe token; each
 * address's confirmation state (./confirmation_rules.ts), its links, and the confirmations each
 * mailbox got.
 */
import { keys } from "../../kv/keys.ts";
import { randomId } from "../../crypto.ts";
import { mailboxOf } from "../../email/mailbox.ts";
import type { Email } from "../../email/mailer.ts";
import { queueEmailInto } from "../../email/outbox.ts";
import { stockAlertsJobInto } from "../store.ts";
import {
  type AlertAddress,
  CONFIRM_LINK_MS,
  confirmedAddress,
  currentRound,
  inForce,
  MAILBOX_WINDOW_MS,
  recentSends,
  sendsConfirmation,
  unconfirmedTooLong,
} from "./confirmation_rules.ts";

/** One shopper waiting for one switch or product. */
export interface StockAlert {
  /** "switch:12" or "product:384". */
  subject: string;
  email: string;
  /** The unsubscribe link's secret. */
  token: string;
  /** The shop's address the sign-up came from, for the links in its email. */
  origin: string;
  createdAt: number;
  /** Emailed since it last became available: no second email until it sells out and returns. */
  notified: boolean;
  /** Emails sent to it so far (absent: none, or sent before this was counted). */
  emails?: number;
  /**
   * Made by someone who has not shown the address is theirs: the address's round it waits in
   * (`AlertAddress`); nothing is sent to it until a confirmation of the address closes that
   * round. Absent: in force (a signed-in shopper's own, one confirmed since, or a sign-up made
   * before confirmations existed).
   */
  pending?: number;
}

/** What a confirmation link stands for (stored under its token, expiring with it). */
interface ConfirmLink {
  email: string;
  expiresAt: number;
}

/** How a sign-up was stored. */
export interface SignUpStored {
  /** A confirmation email was queued with it. */
  confirmationSent: boolean;
}

/**
 * Stores a sign-up (the same email and subject twice is one), in force at once when `own` (a
 * signed-in shopper's own address), else pending in the address's current round, even when the
 * address confirmed other sign-ups before: a confirmation vouches for what was waiting when it was
 * pressed, not for what anyone asks later. A pending one queues a confirmation email
 * (`confirmation(token)`) in the same write when the rules allow (./confirmation_rules.ts: not
 * while a live link will do, one an hour, three a day per mailbox), replacing the address's
 * previous link and counting it against the mailbox in that write, so parallel sign-ups of one
 * mailbox cannot pass the daily cap together.
 */
export async function storeSignUp(
  kv: Deno.Kv,
  alert: StockAlert,
  options: { own: boolean; now: number; confirmation: (token: string) => Email },
): Promise<SignUpStored> {
  const { own, now } = options;
  const alertKey = keys.stockAlert(alert.subject, alert.email);
  const addressKey = keys.stockAlertAddress(alert.email);
  const mailboxKey = keys.stockAlertMailbox(mailboxOf(alert.email));
  for (;;) {
    const [existing, address, mailbox] = await kv.getMany<[StockAlert, AlertAddress, number[]]>([
      alertKey,
      addressKey,
      mailboxKey,
    ]);
    const op = kv.atomic().check(existing, address, mailbox);
    let writes = false;
    if (!existing.value) {
      op.set(alertKey, own ? alert : { ...alert, pending: currentRound(address.value) })
        .set(keys.stockAlertToken(alert.token), { subject: alert.subject, email: alert.email });
      writes = true;
    } else if (own && existing.value.pending !== undefined) {
      op.set(alertKey, inForceOf(existing.value));
      writes = true;
    }
    const waits = !own &&
      (!existing.value || !inForce(existing.value.pending, address.value));
    const send = waits && sendsConfirmation(address.value, mailbox.value ?? [], now);
    if (send) {
      const token = randomId(24);
      const link: ConfirmLink = { email: alert.email, expiresAt: now + CONFIRM_LINK_MS };
      // One live link per address: the one it replaces (a day or less left) stops working.
      if (address.value?.link) op.delete(keys.stockAlertConfirm(address.value.link.token));
      const next: AlertAddress = {
        ...address.value,
        round: currentRound(address.value),
        link: { token, expiresAt: link.expiresAt },
        lastSentAt: now,
      };
      op.set(keys.stockAlertConfirm(token), link, { expireIn: CONFIRM_LINK_MS })
        .set(addressKey, next, { expireIn: CONFIRM_LINK_MS })
        .set(mailboxKey, [...recentSends(mailbox.value ?? [], now), now], {
          expireIn: MAILBOX_WINDOW_MS,
        });
      queueEmailInto(op, options.confirmation(token), now, `stock-alert-confirm:${token}`);
      writes = true;
    }
    if (!writes || (await op.commit()).ok) return { confirmationSent: send };
  }
}

/** A pending sign-up once in force. */
export function inForceOf(alert: StockAlert): StockAlert {
  const { pending: _, ...rest } = alert;
  return rest;
}

/**
 * Confirms the address of a confirmation link, once: every sign-up of the address pending at this
 * moment is in force (its round is closed), later ones wait for the next confirmation. The link
 * (and any other of the address) is spent in the same write, and a check of every sign-up is
 * queued with it, so something that came back while the address was unconfirmed is told now.
 * Answers false for a link unknown, used or expired.
 */
export async function confirmAlertAddress(
  kv: Deno.Kv,
  token: string,
  now: number,
): Promise<boolean> {
  for (;;) {
    const link = await kv.get<ConfirmLink>(keys.stockAlertConfirm(token));
    if (!link.value || link.value.expiresAt <= now) return false;
    const address = await kv.get<AlertAddress>(keys.stockAlertAddress(link.value.email));
    const op = kv.atomic().check(link, address).delete(link.key);
    const other = address.value?.link?.token;
    if (other && other !== token) op.delete(keys.stockAlertConfirm(other));
    // Kept as long as a link would be: the check queued here puts the confirmed sign-ups in
    // force for good long before, and after that the record only holds the hourly cap.
    op.set(address.key, confirmedAddress(address.value), { expireIn: CONFIRM_LINK_MS });
    const done = await stockAlertsJobInto(op, now).commit();
    if (done.ok) return true;
  }
}

/** Whether a confirmation link is one the shop sent that still works. */
export async function confirmLinkWorks(kv: Deno.Kv, token: string, now: number): Promise<boolean> {
  const link = await kv.get<ConfirmLink>(keys.stockAlertConfirm(token));
  return link.value !== null && link.value.expiresAt > now;
}

/** The addresses read during one pass over the sign-ups, each read once. */
export type AddressReads = Map<string, Deno.KvEntryMaybe<AlertAddress>>;

async function addressOf(
  kv: Deno.Kv,
  email: string,
  reads: AddressReads,
): Promise<Deno.KvEntryMaybe<AlertAddress>> {
  let entry = reads.get(email);
  if (!entry) {
    entry = await kv.get<AlertAddress>(keys.stockAlertAddress(email));
    reads.set(email, entry);
  }
  return entry;
}

/** Whether a sign-up may be emailed: in force, or pending in a round its address confirmed. */
export async function mayEmail(
  kv: Deno.Kv,
  alert: StockAlert,
  reads: AddressReads,
): Promise<boolean> {
  if (alert.pending === undefined) return true;
  return inForce(alert.pending, (await addressOf(kv, alert.email, reads)).value);
}

/**
 * Deletes a sign-up never confirmed within a link's life, unless its address has a live link
 * that could still confirm it; checked against the sign-up and the address as read, so a link
 * sent or a confirmation made meanwhile keeps it.
 */
export async function dropIfUnconfirmed(
  kv: Deno.Kv,
  entry: Deno.KvEntry<StockAlert>,
  reads: AddressReads,
  now: number,
): Promise<void> {
  const address = await addressOf(kv, entry.value.email, reads);
  const { createdAt, pending } = entry.value;
  if (!unconfirmedTooLong(createdAt, pending, address.value, now)) return;
  await kv.atomic().check(entry, address)
    .delete(entry.key)
    .delete(keys.stockAlertToken(entry.value.token))
    .commit();
}

/** Removes the sign-up of an unsubscribe token; answers what it was for, or null. */
export async function removeStockAlert(
  kv: Deno.Kv,
  token: string,
): Promise<{ subject: string; email: string } | null> {
  const ref = await kv.get<{ subject: string; email: string }>(keys.stockAlertToken(token));
  if (!ref.value) return null;
  await kv.atomic()
    .delete(keys.stockAlert(ref.value.subject, ref.value.email))
    .delete(ref.key)
    .commit();
  return ref.value;
}

/** How many shoppers wait for each subject: sign-ups that will be emailed, not pending ones. */
export async function countStockAlerts(kv: Deno.Kv): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const reads: AddressReads = new Map();
  for await (const { value } of kv.list<StockAlert>({ prefix: keys.stockAlerts() })) {
    if (!await mayEmail(kv, value, reads)) continue;
    counts.set(value.subject, (counts.get(value.subject) ?? 0) + 1);
  }
  return counts;
}

/**
 * Forgets the back-in-stock sign-ups of `email` (its account is deleted): each sign-up with its
 * unsubscribe token, and the address's round. The mailbox's count of confirmations sent stays
 * until it expires (within a day): it protects the mailbox, whoever asks next.
 */
export async function forgetAlertAddress(kv: Deno.Kv, email: string): Promise<void> {
  const address = email.toLowerCase();
  for await (const entry of kv.list<StockAlert>({ prefix: keys.stockAlerts() })) {
    if (entry.value.email.toLowerCase() !== address) continue;
    await kv.atomic()
      .check(entry)
      .delete(entry.key)
      .delete(keys.stockAlertToken(entry.value.token))
      .commit();
  }
  await kv.delete(keys.stockAlertAddress(email));
}
