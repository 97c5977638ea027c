/**
 * Redeeming promo codes: the rules a code must pass, each refusal saying which, and its limited
 * uses. A limited use is held by the write that fixes a discounted price (the checkout's
 * reservation, or the demo page's charge), like stock; the write that pays the order turns it
 * into a counted use, and a checkout that ends unpaid gives it back. The paid write checks the
 * counts again, so an order that reaches it without a hold only gets a use that is still free
 * (docs/decisions.md#promo-code-uses). The discount maths is shared/policy.ts's.
 */
import type { PromoDiscount } from "../../shared/policy.ts";
import { formatCents } from "../../shared/pricing.ts";
import { InvalidInput, Unavailable } from "../errors.ts";
import { mailboxOf } from "../email/mailbox.ts";
import {
  type CodeUsage,
  type EmailUsage,
  type PromoRecord,
  USAGE_WRITE_CHECKS,
  USAGE_WRITE_MUTATIONS,
  type UsageRead,
  type UsageWant,
  usesOf,
  writeUsageInto,
} from "./store.ts";

/**
 * Most checkouts that may hold one code's uses at once: their order numbers are one KV value,
 * which must stay under KV's 64 KB (a limit of thousands of uses, in a rush).
 */
const MAX_HELD = 2000;

/** What a code is checked against. */
export interface RedeemContext {
  now: number;
  /** The goods' subtotal in cents; null when unknown (no cart given): the minimum is not checked. */
  subtotalCents: number | null;
  /** The code as the shopper typed it, for the "not valid" message. */
  typed: string;
  /**
   * A preview (the validate call) may not know the email yet: its per-email limit is then left
   * to the checkout. Anything that holds a use needs the email when the code limits per email.
   */
  emailLater?: boolean;
}

/** The discount a code gives, for shared/policy.ts's maths. */
export function discountOf(promo: PromoRecord): PromoDiscount {
  return { percentOff: promo.percentOff, amountOffCents: promo.amountOffCents };
}

/** Whether a code counts its uses against a limit (in total or per email). */
export function isLimited(promo: PromoRecord | null): boolean {
  return promo !== null && (promo.maxUses !== null || promo.maxUsesPerEmail !== null);
}

/**
 * The code and mailbox a write's usage is read for (one person however they spell their email,
 * or null when unknown).
 */
export function usageWant(code: string, email: string | null | undefined): UsageWant {
  return { code, email: email ? mailboxOf(email) : null };
}

/** A day (and its time when not midnight) as messages say it, in UTC like the API's dates. */
export function dateText(ms: number): string {
  const date = new Date(ms);
  const day = date.toLocaleDateString("en-US", {
    timeZone: "UTC",
    year: "numeric",
    month: "long",
    day: "numeric",
  });
  return ms % 86_400_000 === 0 ? day : `${day} at ${date.toISOString().slice(11, 16)} UTC`;
}

/** Checks the rules that need no counts: active, dates, minimum subtotal. */
export function checkTerms(promo: PromoRecord | null, ctx: RedeemContext): PromoRecord {
  if (!promo?.active) throw new InvalidInput(`The promo code ${ctx.typed.trim()} is not valid`);
  if (promo.startsAt !== null && ctx.now < promo.startsAt) {
    throw new InvalidInput(`The promo code ${promo.code} starts on ${dateText(promo.startsAt)}`);
  }
  if (promo.endsAt !== null && ctx.now >= promo.endsAt) {
    throw new InvalidInput(`The promo code ${promo.code} ended on ${dateText(promo.endsAt)}`);
  }
  if (
    promo.minSubtotalCents !== null && ctx.subtotalCents !== null &&
    ctx.subtotalCents < promo.minSubtotalCents
  ) {
    throw new InvalidInput(
      `The promo code ${promo.code} needs a subtotal of at least ${
        formatCents(promo.minSubtotalCents)
      }`,
    );
  }
  return promo;
}

interface CodeLine {
  usage: CodeUsage;
  holds: string[];
  changed: boolean;
  count: boolean;
  /** The record's terms decided: the write checks it was not edited meanwhile. */
  checked: boolean;
  /** A limit was decided on the counts read: the write checks they still stand. */
  decided: boolean;
}

interface EmailLine {
  usage: EmailUsage;
  holds: string[];
  changed: boolean;
  count: boolean;
  decided: boolean;
}

/** The usage changes one write makes, decided on the counts it read. */
export interface PromoLedger {
  codes: Map<string, CodeLine>;
  emails: Map<string, EmailLine>;
}

/** A ledger over what a write read; every plan of the write starts a fresh one. */
export function ledgerOf(read: UsageRead): PromoLedger {
  return {
    codes: new Map(read.codes.map((usage) => [usage.code, {
      usage,
      holds: [...(usage.holds.value ?? [])],
      changed: false,
      count: false,
      checked: false,
      decided: false,
    }])),
    emails: new Map(read.emails.map((usage) => [`${usage.code} ${usage.email}`, {
      usage,
      holds: [...(usage.holds.value ?? [])],
      changed: false,
      count: false,
      decided: false,
    }])),
  };
}

function linesOf(ledger: PromoLedger, want: UsageWant): [CodeLine, EmailLine | null] {
  const code = ledger.codes.get(want.code);
  if (!code) throw new Error(`promo usage of ${want.code} was not read`);
  const email = want.email ? ledger.emails.get(`${want.code} ${want.email}`) : null;
  if (want.email && !email) throw new Error(`promo usage of ${want.code} by email was not read`);
  return [code, email ?? null];
}

/**
 * Checks every rule for a checkout, counts included; with an order number, holds one use for it
 * when the code is limited. Answers the code; throws InvalidInput saying which rule failed.
 */
export function holdUse(
  ledger: PromoLedger,
  want: UsageWant,
  orderNumber: string | null,
  ctx: RedeemContext,
): PromoRecord {
  const [code, email] = linesOf(ledger, want);
  const promo = checkTerms(code.usage.promo.value, ctx);
  code.checked = true;
  if (promo.maxUses !== null) {
    code.decided = true;
    const used = usesOf(code.usage.uses);
    const held = code.holds.filter((o) => o !== orderNumber).length;
    if (used >= promo.maxUses) {
      throw new InvalidInput(`The promo code ${promo.code} has no uses left`);
    }
    if (used + held >= promo.maxUses) {
      throw new InvalidInput(
        `The promo code ${promo.code} has no uses left right now: checkouts waiting for payment hold the last ones. Try again later, or check out without it.`,
      );
    }
  }
  if (promo.maxUsesPerEmail !== null && (want.email || !ctx.emailLater)) {
    if (!want.email) {
      throw new InvalidInput(
        `Enter your email address to use the promo code ${promo.code}: it can be used ${
          timesText(promo.maxUsesPerEmail)
        } per email address`,
      );
    }
    const mine = email!;
    mine.decided = true;
    const used = usesOf(mine.usage.uses);
    const held = mine.holds.filter((o) => o !== orderNumber).length;
    if (used + held >= promo.maxUsesPerEmail) {
      throw new InvalidInput(
        `The promo code ${promo.code} can be used ${
          timesText(promo.maxUsesPerEmail)
        } per email address, and ${want.email} ${
          used >= promo.maxUsesPerEmail
            ? "has used it already"
            : "has a checkout waiting for payment with it"
        }`,
      );
    }
  }
  if (orderNumber) {
    if (code.holds.length >= MAX_HELD) {
      throw new Unavailable(
        `So many checkouts are waiting for payment with the promo code ${promo.code} that it cannot take another right now. Please try again in a few minutes.`,
        60,
      );
    }
    if (promo.maxUses !== null) addHold(code, orderNumber);
    if (promo.maxUsesPerEmail !== null && email) addHold(email, orderNumber);
  }
  return promo;
}

function timesText(n: number): string {
  return n === 1 ? "once" : n === 2 ? "twice" : `${n} times`;
}

function addHold(line: CodeLine | EmailLine, orderNumber: string): void {
  if (line.holds.includes(orderNumber)) return;
  line.holds.push(orderNumber);
  line.changed = true;
}

function dropHold(line: CodeLine | EmailLine | null, orderNumber: string): boolean {
  const i = line ? line.holds.indexOf(orderNumber) : -1;
  if (i < 0) return false;
  line!.holds.splice(i, 1);
  line!.changed = true;
  return true;
}

/** Gives back the uses an order held (none held: nothing changes). */
export function giveBackUse(ledger: PromoLedger, want: UsageWant, orderNumber: string): void {
  const [code, email] = linesOf(ledger, want);
  dropHold(code, orderNumber);
  dropHold(email, orderNumber);
}

/**
 * Counts the use of a paid order: its held use becomes a counted one, or, without a hold, a
 * use that is still free is taken. Answers false (and changes nothing) when the code has no use
 * left for it. The terms (dates, active, minimum) are not checked again: the shopper agreed the
 * price while they held, and only the count can run out between checkout and payment.
 */
export function countUse(ledger: PromoLedger, want: UsageWant, orderNumber: string): boolean {
  const [code, email] = linesOf(ledger, want);
  const promo = code.usage.promo.value;
  // A code the shop does not know (a provider's own promotion code) has nothing to count.
  if (!promo) return true;
  // A use this order held fits while the paid uses are under the limit (a limit the owner
  // lowered below what was held lets only as many holders pay as it allows); one it did not hold
  // must also leave room for the checkouts that hold one.
  const fits = (line: CodeLine | EmailLine, max: number | null) => {
    if (max === null) return true;
    const used = usesOf(line.usage.uses);
    return line.holds.includes(orderNumber) ? used < max : used + line.holds.length < max;
  };
  code.checked = true;
  if (!fits(code, promo.maxUses)) return false;
  if (email && !fits(email, promo.maxUsesPerEmail)) return false;
  for (const [line, max] of [[code, promo.maxUses], [email, promo.maxUsesPerEmail]] as const) {
    if (!line) continue;
    dropHold(line, orderNumber);
    line.count = true;
    if (max !== null) line.decided = true;
  }
  return true;
}

/**
 * The keys besides stock a write of these usages may change, for the stock batch: a limited
 * code's (or email's) jobs take turns, an unlimited code's only add to its sum.
 */
export function usageClaims(read: UsageRead): string[] {
  const byCode = new Map(read.codes.map((c) => [c.code, c.promo.value]));
  return [
    ...read.codes
      .filter((c) => c.promo.value?.maxUses != null || (c.holds.value?.length ?? 0) > 0)
      .map((c) => `promo:${c.code}`),
    ...read.emails
      .filter((e) =>
        byCode.get(e.code)?.maxUsesPerEmail != null || (e.holds.value?.length ?? 0) > 0
      )
      .map((e) => `promo:${e.code}:${e.email}`),
  ];
}

/** Upper bounds of the checks and mutations a ledger's write adds (for the batch's limits). */
export function ledgerSize(ledger: PromoLedger): { checks: number; mutations: number } {
  const codes = ledger.codes.size;
  const emails = ledger.emails.size;
  return {
    checks: codes * (1 + USAGE_WRITE_CHECKS) + emails * USAGE_WRITE_CHECKS,
    mutations: (codes + emails) * USAGE_WRITE_MUTATIONS,
  };
}

/** Adds the ledger's changes to the write that makes the order's move. */
export function writeLedgerInto(op: Deno.AtomicOperation, ledger: PromoLedger): void {
  for (const line of ledger.codes.values()) {
    // The record's limits and dates decided: an edit meanwhile means deciding again.
    if (line.checked) op.check(line.usage.promo);
    writeLine(op, line);
  }
  for (const line of ledger.emails.values()) writeLine(op, line);
}

function writeLine(op: Deno.AtomicOperation, line: CodeLine | EmailLine): void {
  if (!line.changed && !line.count && !line.decided) return;
  writeUsageInto(op, {
    uses: line.usage.uses,
    holds: line.usage.holds,
    nextHolds: line.changed ? line.holds : null,
    count: line.count,
    limited: line.decided,
  });
}
