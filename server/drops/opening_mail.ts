/**
 * "Email me when it opens": one sign-up per drop and address, mailed at the opening once its
 * address confirmed (anyone can type anyone's address), as back-in-stock sign-ups are; a signed-in
 * shopper's own address needs no confirmation. Confirmations are bounded like theirs: one per
 * sign-up, a few a day per mailbox however it is spelled. The job queued when the drop was
 * scheduled sends the opening emails through the outbox, each once (its dedupe key and the
 * sign-up's mark in the same write).
 */
import { escapeHtml } from "../../shared/html.ts";
import { SHOP_NAME } from "../../shared/policy.ts";
import type { Clock } from "../clock.ts";
import { randomId } from "../crypto.ts";
import { Conflict, NotFound } from "../errors.ts";
import { keys } from "../kv/keys.ts";
import { jobInto, jobsOfType, type JobTiming, putJob } from "../kv/jobs.ts";
import { mailboxOf } from "../email/mailbox.ts";
import type { Email } from "../email/mailer.ts";
import { queueEmailInto } from "../email/outbox.ts";
import { getProductEntries } from "../catalog/store.ts";
import {
  CONFIRM_LINK_MS,
  CONFIRMATIONS_PER_MAILBOX,
  MAILBOX_WINDOW_MS,
  recentSends,
} from "../stock/back_in_stock/confirmation_rules.ts";
import { type DropRecord, isOver } from "./record.ts";
import { getDrop, ledgerOf, readLedger } from "./store.ts";

/** The job queued with a drop: mail its confirmed sign-ups at the opening. */
export interface DropOpeningJob {
  type: "drop-opening";
  dropId: string;
}

/** The opening job of a drop. */
export function openingJob(dropId: string): DropOpeningJob {
  return { type: "drop-opening", dropId };
}

/** When a drop's opening job is due, with a fixed id: stored again, it stays one entry. */
export function openingJobTiming(drop: DropRecord): JobTiming {
  return { at: drop.opensAt, id: `drop-opening:${drop.id}` };
}

/** One address waiting for a drop's opening. */
export interface DropSignUp {
  email: string;
  /** The address showed it is theirs (the link), or it is the signed-in shopper's own. */
  confirmed: boolean;
  createdAt: number;
  /** When the opening email was queued (null: not yet). */
  mailedAt: number | null;
  /** The shop's address the sign-up came from, for the email's link. */
  origin: string;
}

/** What a confirmation link stands for. */
interface ConfirmLink {
  dropId: string;
  email: string;
  expiresAt: number;
}

interface Deps {
  kv: Deno.Kv;
  clock: Clock;
  config: { publicUrl: string | undefined };
}

/** The confirmation page of an opening-mail sign-up (server/routes/drops.ts). */
export function dropConfirmUrl(origin: string, token: string): string {
  return `${origin}/drop-alerts/confirm?token=${token}`;
}

function paragraphs(lines: string[], link: { href: string; text: string }): string {
  return [
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>`,
  ].join("\n");
}

function confirmationEmail(to: string, drop: DropRecord, url: string): Email {
  const lines = [
    `Someone asked us to email this address when the drop of ${drop.name} opens (${
      new Date(drop.opensAt).toISOString().replace("T", " ").slice(0, 16)
    } UTC).`,
    "If it was you, confirm with the link below. If it was not, ignore this email: nothing more is sent unless the link is used.",
  ];
  return {
    to,
    subject: `${SHOP_NAME}: confirm the email for the ${drop.name} drop`,
    text: [...lines, "", `Confirm: ${url}`].join("\n"),
    html: paragraphs(lines, { href: url, text: "Confirm the opening email" }),
  };
}

function openingEmail(to: string, drop: DropRecord, url: string): Email {
  const lines = [
    `The drop of ${drop.name} is open now: ${drop.units} units, at most ${drop.perPersonLimit} per person.`,
    "Join the waiting room from the page below. Those who came in the first half minute are let in in a random order, so there was no need to hurry; later arrivals queue in arrival order. This is the only email about this drop you will get.",
  ];
  return {
    to,
    subject: `${SHOP_NAME}: the ${drop.name} drop is open`,
    text: [...lines, "", url].join("\n"),
    html: paragraphs(lines, { href: url, text: `Go to ${drop.name}` }),
  };
}

/** Where a drop's target is bought (the product page whose waiting room it joins). */
async function pageOf(kv: Deno.Kv, drop: DropRecord): Promise<string> {
  if (drop.target.kind === "switch") return "/testers/custom";
  const product = (await getProductEntries(kv, [drop.productIds[0]]))[0].value;
  return product?.path ?? "/shop";
}

/**
 * Signs `email` up for a drop's opening; the same address twice is one sign-up (no second
 * confirmation). `own`: the signed-in shopper's own address, confirmed at once. Answers whether
 * the address must still confirm.
 */
export async function signUpForOpening(
  { kv, clock, config }: Deps,
  dropId: string,
  email: string,
  origin: string,
  own: boolean,
): Promise<{ checkInbox: boolean }> {
  const drop = await getDrop(kv, dropId);
  if (!drop) throw new NotFound("No such drop");
  if (drop.cancelledAt !== null) throw new Conflict("This drop was called off");
  if (isOver(drop, ledgerOf(await readLedger(kv, dropId)))) {
    throw new Conflict("This drop has sold out");
  }
  const address = email.toLowerCase();
  const key = keys.dropSignUp(dropId, address);
  const mailboxKey = keys.dropSignUpMailbox(mailboxOf(address));
  const shopOrigin = config.publicUrl ?? origin;
  for (;;) {
    const now = clock.now();
    const [existing, mailbox] = await kv.getMany<[DropSignUp, number[]]>([key, mailboxKey]);
    const op = kv.atomic().check(existing, mailbox);
    if (existing.value) {
      // A stranger hears "check your inbox" whatever the address's state: the answer must not
      // tell whether someone signed this address up, or whether it confirmed.
      if (existing.value.confirmed || !own) return { checkInbox: !own };
      op.set(key, { ...existing.value, confirmed: true });
      if ((await op.commit()).ok) return { checkInbox: false };
      continue;
    }
    const signUp: DropSignUp = {
      email: address,
      confirmed: own,
      createdAt: now,
      mailedAt: null,
      origin: shopOrigin,
    };
    op.set(key, signUp);
    const sends = recentSends(mailbox.value ?? [], now);
    // A mailbox that had its confirmations for the day gets none: its sign-up waits unconfirmed
    // (asking again tomorrow does not send one either: one sign-up, one link).
    if (!own && sends.length < CONFIRMATIONS_PER_MAILBOX) {
      const token = randomId(24);
      const expiresAt = now + CONFIRM_LINK_MS;
      op.set(
        keys.dropSignUpConfirm(token),
        { dropId, email: address, expiresAt } satisfies ConfirmLink,
        {
          expireIn: CONFIRM_LINK_MS,
        },
      ).set(mailboxKey, [...sends, now], { expireIn: MAILBOX_WINDOW_MS });
      queueEmailInto(
        op,
        confirmationEmail(address, drop, dropConfirmUrl(shopOrigin, token)),
        now,
        `drop-confirm:${token}`,
      );
    }
    if ((await op.commit()).ok) return { checkInbox: !own };
  }
}

/** Whether a confirmation link is one the shop sent that still works. */
export async function dropConfirmLinkWorks(
  kv: Deno.Kv,
  token: string,
  now: number,
): Promise<boolean> {
  const link = await kv.get<ConfirmLink>(keys.dropSignUpConfirm(token));
  return link.value !== null && link.value.expiresAt > now;
}

/**
 * Confirms the sign-up of a link, once (the link is spent in the same write). Confirmed after the
 * opening, while the drop still sells, the opening email goes out now. False for a link unknown,
 * used or expired.
 */
export async function confirmOpeningSignUp(
  kv: Deno.Kv,
  token: string,
  now: number,
): Promise<boolean> {
  for (;;) {
    const link = await kv.get<ConfirmLink>(keys.dropSignUpConfirm(token));
    if (!link.value || link.value.expiresAt <= now) return false;
    const { dropId, email } = link.value;
    const signUp = await kv.get<DropSignUp>(keys.dropSignUp(dropId, email));
    const op = kv.atomic().check(link, signUp).delete(link.key);
    if (signUp.value) op.set(signUp.key, { ...signUp.value, confirmed: true });
    const drop = await getDrop(kv, dropId);
    if (drop && now >= drop.opensAt) {
      jobInto(op, openingJob(dropId), { at: now });
    }
    if ((await op.commit()).ok) return true;
  }
}

/**
 * The opening job: one email to each confirmed sign-up not mailed yet, each in a write that marks
 * it, so a job delivered twice (or on two instances) mails nobody twice. Early (a clock moved, a
 * restore) it waits again; a drop called off or over mails nobody. Answers the emails queued.
 */
export async function sendOpeningMail(
  { kv, clock }: Pick<Deps, "kv" | "clock">,
  dropId: string,
): Promise<number> {
  const drop = await getDrop(kv, dropId);
  if (!drop || isOver(drop, ledgerOf(await readLedger(kv, dropId)))) return 0;
  const now = clock.now();
  if (now < drop.opensAt) {
    await putJob(kv, openingJob(dropId), openingJobTiming(drop));
    return 0;
  }
  const path = await pageOf(kv, drop);
  let sent = 0;
  for await (const entry of kv.list<DropSignUp>({ prefix: keys.dropSignUps(dropId) })) {
    const signUp = entry.value;
    if (!signUp.confirmed || signUp.mailedAt !== null) continue;
    const op = kv.atomic().check(entry).set(entry.key, { ...signUp, mailedAt: now });
    queueEmailInto(
      op,
      openingEmail(signUp.email, drop, `${signUp.origin}${path}`),
      now,
      `drop-opening:${dropId}:${signUp.email}`,
    );
    if ((await op.commit()).ok) sent++;
  }
  // Whoever confirms from now on is mailed by a job of their own (confirmOpeningSignUp).
  await kv.set(keys.dropOpeningMailed(dropId), now);
  return sent;
}

/** How long after its opening a drop's opening email may still be sent late (a restore, an outage). */
export const LATE_OPENING_MAIL_MS = 24 * 60 * 60_000;

/**
 * Stores the opening job again for every drop still to open or opened within a day, neither called
 * off nor sold out, whose pass is not done and that has none: a store restored from a backup made
 * before jobs were stored has the drops but not their jobs. Run at every start; a job twice mails nobody twice. Answers how
 * many were stored.
 */
export async function queueOpeningMails(
  { kv, clock }: Pick<Deps, "kv" | "clock">,
): Promise<number> {
  const now = clock.now();
  const owed = new Set(
    (await jobsOfType<DropOpeningJob>(kv, "drop-opening")).map((job) => job.dropId),
  );
  let queued = 0;
  for await (const { value: drop } of kv.list<DropRecord>({ prefix: keys.drops() })) {
    if (drop.cancelledAt !== null || drop.soldOutAt !== null || owed.has(drop.id)) continue;
    if (drop.opensAt < now - LATE_OPENING_MAIL_MS) continue;
    // Its pass is done: storing it again would read every sign-up to mail nobody, at each start.
    if ((await kv.get(keys.dropOpeningMailed(drop.id))).value !== null) continue;
    await putJob(kv, openingJob(drop.id), openingJobTiming(drop));
    queued++;
  }
  return queued;
}

/** A drop's confirmed opening-mail sign-ups, for the owner's view of demand. */
export async function countOpeningSignUps(kv: Deno.Kv, dropId: string): Promise<number> {
  let count = 0;
  for await (const { value } of kv.list<DropSignUp>({ prefix: keys.dropSignUps(dropId) })) {
    if (value.confirmed) count++;
  }
  return count;
}
