/**
 * Back-in-stock sign-ups in KV, by what they wait for and by their unsubscribe token; the
 * addresses that confirmed, their confirmation links, and the confirmations each mailbox got.
 */
import { keys } from "../../kv/keys.ts";
import { randomId } from "../../crypto.ts";
import { mailboxOf } from "../../email/mailbox.ts";
import type { Email } from "../../email/mailer.ts";
import { queueEmailInto } from "../../email/outbox.ts";
import type { StockAlertsJob } from "../store.ts";
import {
  type AlertAddress,
  CONFIRM_LINK_MS,
  MAILBOX_WINDOW_MS,
  recentSends,
  sendsConfirmation,
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
   * Made by someone who has not shown the address is theirs: nothing is sent to it until the
   * address confirms. Absent: in force (a confirmed address, a signed-in shopper's own, or a
   * sign-up made before confirmations existed).
   */
  pending?: boolean;
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
 * signed-in shopper's own address) or when the address has confirmed, else pending; a pending one
 * queues a confirmation email (`confirmation(token)`) in the same write when the rules allow
 * (./confirmation_rules.ts), counting it against the mailbox in that write, so parallel sign-ups
 * of one mailbox cannot pass the daily cap together.
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
    const inForce = own || address.value?.confirmedAt != null;
    const op = kv.atomic().check(existing, address, mailbox);
    let writes = false;
    if (!existing.value) {
      op.set(alertKey, inForce ? alert : { ...alert, pending: true })
        .set(keys.stockAlertToken(alert.token), { subject: alert.subject, email: alert.email });
      writes = true;
    } else if (existing.value.pending && inForce) {
      op.set(alertKey, inForceOf(existing.value));
      writes = true;
    }
    const send = !inForce && sendsConfirmation(address.value, mailbox.value ?? [], now);
    if (send) {
      const token = randomId(24);
      const link: ConfirmLink = { email: alert.email, expiresAt: now + CONFIRM_LINK_MS };
      op.set(keys.stockAlertConfirm(token), link, { expireIn: CONFIRM_LINK_MS })
        .set(addressKey, { confirmedAt: null, lastSentAt: now } satisfies AlertAddress, {
          expireIn: CONFIRM_LINK_MS,
        })
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
function inForceOf(alert: StockAlert): StockAlert {
  const { pending: _, ...rest } = alert;
  return rest;
}

/**
 * Confirms the address of a confirmation link, once: the link is spent in the same write, and a
 * check of every sign-up is queued with it, so something that came back while the address was
 * unconfirmed is told now. Answers false for a link unknown, used or expired.
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
    const confirmed: AlertAddress = {
      confirmedAt: address.value?.confirmedAt ?? now,
      lastSentAt: address.value?.lastSentAt ?? null,
    };
    const done = await kv.atomic().check(link, address)
      .delete(link.key)
      .set(address.key, confirmed)
      .enqueue({ type: "stock-alerts" } satisfies StockAlertsJob)
      .commit();
    if (done.ok) return true;
  }
}

/** Whether a confirmation link is one the shop sent that still works. */
export async function confirmLinkWorks(kv: Deno.Kv, token: string, now: number): Promise<boolean> {
  const link = await kv.get<ConfirmLink>(keys.stockAlertConfirm(token));
  return link.value !== null && link.value.expiresAt > now;
}

/**
 * Whether a sign-up may be emailed: in force, or pending for an address that has confirmed since.
 * `confirmed` keeps what was read per address for one pass over the sign-ups.
 */
export async function mayEmail(
  kv: Deno.Kv,
  alert: StockAlert,
  confirmed: Map<string, boolean>,
): Promise<boolean> {
  if (!alert.pending) return true;
  let known = confirmed.get(alert.email);
  if (known === undefined) {
    const address = await kv.get<AlertAddress>(keys.stockAlertAddress(alert.email));
    known = address.value?.confirmedAt != null;
    confirmed.set(alert.email, known);
  }
  return known;
}

/** Deletes a sign-up never confirmed within a link's life (unless it changed since read). */
export async function dropUnconfirmed(kv: Deno.Kv, entry: Deno.KvEntry<StockAlert>): Promise<void> {
  await kv.atomic().check(entry)
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
  const confirmed = new Map<string, boolean>();
  for await (const { value } of kv.list<StockAlert>({ prefix: keys.stockAlerts() })) {
    if (!await mayEmail(kv, value, confirmed)) continue;
    counts.set(value.subject, (counts.get(value.subject) ?? 0) + 1);
  }
  return counts;
}
