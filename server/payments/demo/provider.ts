/**
 * The built-in provider used when no other provider's keys are set: it behaves like a card
 * provider's test mode, with
 * its pages and card checks inside the shop (the demo provider contract:
 * docs/operations.md#demo-payment-provider). Its payments live in the shop's KV, so it joins the
 * shop's atomic writes (`inline`), and a successful charge records its payment event in the same
 * write that takes the money, as a webhook delivery would: a crash right after the charge leaves
 * the event to be handled.
 */
import { computeTotals, type Region } from "../../../shared/policy.ts";
import type { z } from "zod";
import type { demoPaySchema } from "../../../shared/schemas.ts";
import { fitsCountry, US_ZIP } from "../../../shared/countries.ts";
import type { Clock } from "../../clock.ts";
import { Conflict, InvalidInput, NotFound, PaymentDeclined } from "../../errors.ts";
import { recordEventInto } from "../inbox.ts";
import { type JobPlan, runStockJob } from "../../stock/batch.ts";
import {
  normalizePromoCode,
  readUsage,
  type UsageRead,
  type UsageWant,
} from "../../promos/store.ts";
import {
  discountOf,
  holdUse,
  ledgerOf,
  ledgerSize,
  usageClaims,
  usageWant,
  writeLedgerInto,
} from "../../promos/rules.ts";
import { randomId } from "../../crypto.ts";
import type {
  EmbeddedPaymentInput,
  HostedPaymentInput,
  InlinePayments,
  PaidDetails,
  PaymentEvent,
  PaymentKind,
  PaymentProvider,
  PaymentRef,
  PaymentTarget,
} from "../provider.ts";

/**
 * A demo payment as the demo provider keeps it: a hosted checkout session or an embedded payment
 * intent, named as the demo pages' routes name them (the demo provider contract).
 */
export interface DemoPayment {
  id: string;
  kind: "checkout_session" | "payment_intent";
  orderNumber: string;
  status: "open" | "succeeded" | "canceled" | "refunded";
  region: Region;
  subtotalCents: number;
  amountCents: number;
  expiresAt: number | null;
  clientSecret: string | null;
  refundedCents: number;
  /** What the page collected when the payment was taken; every event of it carries them. */
  details?: PaidDetails | null;
}

/** Demo payments are kept this long (like a provider's dashboard history, bounded). */
const KEEP_MS = 180 * 86400_000;

function key(ref: { id: string }) {
  // The demo provider's own records, by kind and id; an id's prefix says its kind.
  return ["demo", ref.id.startsWith("cs_") ? "session" : "intent", ref.id];
}

/** The shop's name of a demo payment's kind. */
function kindOf(payment: DemoPayment): PaymentKind {
  return payment.kind === "checkout_session" ? "hosted" : "embedded";
}

/** The KV key of a demo payment id, or null for an id that is not one. */
function keyOfId(id: string): Deno.KvKey | null {
  if (!/^(cs|pi)_demo_[A-Za-z0-9_-]{8,64}$/.test(id)) return null;
  return key({ id });
}

/** Reads a demo payment by id; the id's prefix says which kind it is. */
export async function getDemoPayment(kv: Deno.Kv, id: string): Promise<DemoPayment | null> {
  const k = keyOfId(id);
  return k ? (await kv.get<DemoPayment>(k)).value : null;
}

/** The id of a demo payment's refund. */
function demoRefundId(paymentId: string): string {
  return `re_${paymentId}`;
}

/** The id of the event a demo payment's success produces; the same however often it is seen. */
export function demoEventId(paymentId: string): string {
  return `evt_${paymentId}_succeeded`;
}

/**
 * The event of a taken payment, the same however it is learned (the charge, a poll, a stop that
 * found it taken), details included: a retry must never record a bare copy of it.
 */
function paidEvent(payment: DemoPayment, details = payment.details): PaymentEvent {
  return {
    id: demoEventId(payment.id),
    type: "paid",
    orderNumber: payment.orderNumber,
    paymentId: payment.id,
    paymentKind: kindOf(payment),
    ...(details ? { details } : {}),
  };
}

function newPayment(target: PaymentTarget): DemoPayment {
  const intent = target.kind === "embedded";
  const id = `${intent ? "pi" : "cs"}_demo_${randomId(18)}`;
  return {
    id,
    kind: intent ? "payment_intent" : "checkout_session",
    orderNumber: target.orderNumber,
    status: "open",
    region: target.region,
    subtotalCents: target.subtotalCents,
    amountCents: target.totalCents,
    expiresAt: target.expiresAt,
    clientSecret: intent ? `${id}_secret_${randomId(12)}` : null,
    refundedCents: 0,
  };
}

function refOf(payment: DemoPayment): PaymentRef {
  const ref = { provider: "demo", kind: kindOf(payment), id: payment.id };
  return payment.kind === "checkout_session"
    ? { ...ref, url: `/demo-checkout/${payment.id}` }
    : { ...ref, clientSecret: payment.clientSecret! };
}

/** Cancels an open payment; answers the paid event when it was taken already. */
async function stopDemoPayment(kv: Deno.Kv, ref: PaymentRef): Promise<PaymentEvent | null> {
  for (;;) {
    const entry = await kv.get<DemoPayment>(key(ref));
    const payment = entry.value;
    if (!payment) return null;
    if (payment.status === "succeeded" || payment.status === "refunded") return paidEvent(payment);
    if (payment.status !== "open") return null;
    const ok = await kv.atomic().check(entry)
      .set(key(ref), { ...payment, status: "canceled" }, { expireIn: KEEP_MS }).commit();
    if (ok.ok) return null;
  }
}

/**
 * Keeps an open payment payable until `expiresAt` (never shortening it: an embedded one has no
 * end); true when it is open or taken already, false when it was stopped.
 */
async function extendDemoPayment(
  kv: Deno.Kv,
  ref: PaymentRef,
  expiresAt: number,
): Promise<boolean> {
  for (;;) {
    const entry = await kv.get<DemoPayment>(key(ref));
    const payment = entry.value;
    if (payment?.status === "succeeded" || payment?.status === "refunded") return true;
    if (payment?.status !== "open") return false;
    if ((payment.expiresAt ?? Infinity) >= expiresAt) return true;
    const ok = await kv.atomic().check(entry)
      .set(key(ref), { ...payment, expiresAt }, { expireIn: KEEP_MS }).commit();
    if (ok.ok) return true;
  }
}

/** The demo provider over the shop's KV. */
export function demoPayments(kv: Deno.Kv): PaymentProvider {
  const inline: InlinePayments = {
    create(target) {
      const payment = newPayment(target);
      return {
        ref: refOf(payment),
        write: (op) => op.set(key(payment), payment, { expireIn: KEEP_MS }),
      };
    },
    key,
    stopper(entry) {
      const payment = entry.value as DemoPayment | null;
      if (payment?.status === "succeeded" || payment?.status === "refunded") return null;
      return (op) => {
        op.check(entry);
        if (payment?.status === "open") {
          op.set(entry.key, { ...payment, status: "canceled" }, { expireIn: KEEP_MS });
        }
      };
    },
  };

  async function create(target: PaymentTarget): Promise<PaymentRef> {
    const { ref, write } = inline.create(target);
    const op = kv.atomic();
    write(op);
    await op.commit();
    return ref;
  }

  return {
    name: "demo",
    label: "the demo provider",
    publishableKey: null,
    inline,
    createHostedPayment: (input: HostedPaymentInput) =>
      create({
        kind: "hosted",
        orderNumber: input.orderNumber,
        region: input.region,
        subtotalCents: input.lines.reduce((n, l) => n + l.unitAmountCents * l.quantity, 0),
        totalCents: input.totalCents,
        expiresAt: input.expiresAt,
      }),
    createEmbeddedPayment: (input: EmbeddedPaymentInput) =>
      create({
        kind: "embedded",
        orderNumber: input.orderNumber,
        region: "us",
        subtotalCents: input.amountCents,
        totalCents: input.amountCents,
        expiresAt: Number.MAX_SAFE_INTEGER,
      }),
    stop: (ref) => stopDemoPayment(kv, ref),
    extend: (ref, expiresAt) => extendDemoPayment(kv, ref, expiresAt),
    async refund(ref, amountCents) {
      for (;;) {
        const entry = await kv.get<DemoPayment>(key(ref));
        const payment = entry.value;
        // Refunded before (the same refund asked again), or never taken: nothing more goes back.
        if (payment?.status === "refunded") {
          return { id: demoRefundId(ref.id), status: "succeeded" };
        }
        if (payment?.status !== "succeeded") return { id: null, status: "succeeded" };
        const ok = await kv.atomic().check(entry)
          .set(key(ref), { ...payment, status: "refunded", refundedCents: amountCents }, {
            expireIn: KEEP_MS,
          }).commit();
        if (ok.ok) return { id: demoRefundId(ref.id), status: "succeeded" };
      }
    },
    // Demo refunds are final at once.
    refundStatus: (refundId) => Promise.resolve({ id: refundId, status: "succeeded" }),
    async poll(ref): Promise<PaymentEvent | null> {
      const payment = (await kv.get<DemoPayment>(key(ref))).value;
      return payment?.status === "succeeded" || payment?.status === "refunded"
        ? paidEvent(payment)
        : null;
    },
    parseWebhook() {
      return Promise.reject(new NotFound("The demo payment provider sends no webhooks"));
    },
  };
}

/** What the demo payment pages send. */
export type DemoPayInput = z.infer<typeof demoPaySchema>;

/**
 * Takes a demo payment, as a hosted payment page would: checks the card, the address against the
 * session's region and a promotion code, then in one write marks the payment taken, records its
 * event and holds the code's use when it is limited (the paid write counts it). Answers the event
 * to handle (also for a payment taken before: paying twice is harmless). Declines throw
 * PaymentDeclined; a replaced or lapsed payment is a Conflict; a code's refusal says which rule.
 */
export async function chargeDemoPayment(
  kv: Deno.Kv,
  clock: Clock,
  id: string,
  kind: DemoPayment["kind"],
  body: DemoPayInput,
  /** Told the payment's order number as soon as it is read, to read the order meanwhile. */
  onOrderNumber?: (orderNumber: string) => void,
): Promise<PaymentEvent> {
  const k = keyOfId(id);
  let entry: Deno.KvEntryMaybe<DemoPayment>;
  let details: PaidDetails | null;
  let promo: { typed: string; want: UsageWant } | null;
  let usage: UsageRead | null;
  // The charge joins the shop's group commit (it writes no stock): one commit for many payments.
  return await runStockJob(kv, clock, {
    async prepare() {
      entry = k ? await kv.get<DemoPayment>(k) : { key: [], value: null, versionstamp: null };
      const payment = entry.value;
      if (payment) onOrderNumber?.(payment.orderNumber);
      details = payment?.kind === kind && payment.status === "open"
        ? detailsOf(payment, body)
        : null;
      // An intent's amount was fixed when it was made (its order took its code at checkout).
      const typed = kind === "checkout_session" ? body.promoCode?.trim() : null;
      promo = typed && details
        ? { typed, want: usageWant(normalizePromoCode(typed), body.email) }
        : null;
      usage = promo ? await readUsage(kv, [promo.want]) : null;
      return {
        stock: [],
        exclusive: [
          `payment:${id}`,
          `event:${demoEventId(id)}`,
          ...(usage ? usageClaims(usage) : []),
        ],
      };
    },
    plan(_stock, now): JobPlan<PaymentEvent> {
      const payment = entry.value;
      if (!payment || payment.kind !== kind) {
        throw new NotFound(
          kind === "checkout_session" ? "Checkout session not found" : "Payment not found",
        );
      }
      const nothing = { stock: new Map(), checks: 0, mutations: 0 };
      if (payment.status === "succeeded" || payment.status === "refunded") {
        return { ...nothing, result: paidEvent(payment), write() {} };
      }
      if (payment.status === "canceled" && (payment.expiresAt ?? Infinity) > now) {
        throw new Conflict(
          "This checkout was replaced or cancelled. Return to your cart to check out again.",
        );
      }
      if (payment.status !== "open" || (payment.expiresAt ?? Infinity) <= now || !details) {
        throw new Conflict(
          "This checkout has expired and its items were released. Return to your cart to check out again.",
        );
      }
      const ledger = usage ? ledgerOf(usage) : null;
      let paid = details;
      if (promo && ledger) {
        const code = holdUse(ledger, promo.want, payment.orderNumber, {
          now,
          subtotalCents: payment.subtotalCents,
          typed: promo.typed,
        });
        const totals = computeTotals(payment.subtotalCents, payment.region, discountOf(code));
        paid = {
          ...details,
          promoCode: code.code,
          totals,
          amountTotalCents: totals.totalCents,
          amountDiscountCents: totals.discountCents,
        };
      }
      const card = checkDemoCard(body.cardNumber);
      if (!card.ok) throw new PaymentDeclined(card.message);
      const event = paidEvent(payment, paid);
      const amountCents = paid.totals?.totalCents ?? payment.amountCents;
      const promoSize = ledger ? ledgerSize(ledger) : { checks: 0, mutations: 0 };
      return {
        stock: new Map(),
        checks: 2 + promoSize.checks,
        mutations: 3 + promoSize.mutations,
        result: event,
        write(op) {
          op.check(entry).set(
            entry.key,
            { ...payment, status: "succeeded", amountCents, details: paid },
            { expireIn: KEEP_MS },
          );
          recordEventInto(op, event, now);
          if (ledger) writeLedgerInto(op, ledger);
        },
      };
    },
  });
}

/** What the page collected, checked as a hosted page checks it (the promo code apart). */
function detailsOf(payment: DemoPayment, body: DemoPayInput): PaidDetails {
  if (body.businessPurchase && !body.taxId) {
    throw new InvalidInput("Enter your VAT or Tax ID to purchase as a business");
  }
  const country = body.address?.country;
  if (country && payment.region === "us" && country !== "US") {
    throw new InvalidInput(
      "This checkout ships to the United States only. For another country, return to your cart and choose International checkout.",
    );
  }
  if (country && payment.region === "international" && country === "US") {
    throw new InvalidInput(
      "This checkout ships outside the United States. For a US address, return to your cart and choose US checkout.",
    );
  }
  // Only a postcode given is checked: the pay call needs nothing but the card number.
  const postcode = body.address?.zipCode ?? "";
  if (postcode !== "" && payment.region === "us" && !US_ZIP.test(postcode)) {
    throw new InvalidInput("ZIP code must be 5 digits (or ZIP+4) for a US address");
  }
  if (
    postcode !== "" && country && payment.region === "international" &&
    !fitsCountry(country, postcode)
  ) {
    throw new InvalidInput(
      `Postal code ${JSON.stringify(postcode.slice(0, 20))} is not a postal code of ${country}`,
    );
  }
  return {
    email: body.email ?? null,
    customerName: body.name ?? null,
    address: body.address ?? null,
    taxId: body.businessPurchase && body.taxId
      ? { type: "vat_or_tax_id", value: body.taxId }
      : null,
  };
}

/** Card checks of the demo provider, as a card provider's test mode answers them. */
export function checkDemoCard(cardNumber: string): { ok: true } | { ok: false; message: string } {
  const digits = cardNumber.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) {
    return { ok: false, message: "Your card number is invalid." };
  }
  if (digits === "4242424242424242") return { ok: true };
  if (digits === "4000000000000002") return { ok: false, message: "Your card was declined." };
  return {
    ok: false,
    message: "Your card was declined. In demo mode, pay with the test card 4242 4242 4242 4242.",
  };
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
