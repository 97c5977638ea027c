import { keys } from "../db/keys.ts";
import { randomId } from "../crypto.ts";
import type {
  CheckoutSessionInput,
  PaymentEvent,
  PaymentIntentInput,
  PaymentProvider,
  PaymentRef,
} from "./provider.ts";

/** A demo payment (a hosted session or an embedded intent), as the demo provider keeps it. */
export interface DemoPayment {
  id: string;
  kind: "checkout_session" | "payment_intent";
  orderNumber: string;
  status: "open" | "succeeded" | "canceled" | "refunded";
  amountCents: number;
  expiresAt: number | null;
  clientSecret: string | null;
  refundedCents: number;
}

function key(ref: { kind: string; id: string }) {
  return ref.kind === "checkout_session" ? keys.demoSession(ref.id) : keys.demoIntent(ref.id);
}

/** Reads a demo payment by id; the id's prefix says which kind it is. */
export async function getDemoPayment(kv: Deno.Kv, id: string): Promise<DemoPayment | null> {
  if (!/^(cs|pi)_demo_[A-Za-z0-9_-]{8,64}$/.test(id)) return null;
  const kind = id.startsWith("cs_") ? "checkout_session" : "payment_intent";
  return (await kv.get<DemoPayment>(key({ kind, id }))).value;
}

/** Saves a demo payment's new state. */
export async function saveDemoPayment(kv: Deno.Kv, payment: DemoPayment): Promise<void> {
  await kv.set(key(payment), payment, { expireIn: 180 * 86400_000 });
}

/**
 * The built-in provider used when no Stripe keys are set: it behaves like Stripe test mode, with
 * its pages and card checks inside the shop (DESIGN.md section 4 'Demo provider contract').
 */
export function demoPayments(kv: Deno.Kv): PaymentProvider {
  return {
    name: "demo",
    publishableKey: null,
    async createCheckoutSession(input: CheckoutSessionInput): Promise<PaymentRef> {
      const id = `cs_demo_${randomId(18)}`;
      await saveDemoPayment(kv, {
        id,
        kind: "checkout_session",
        orderNumber: input.orderNumber,
        status: "open",
        amountCents: input.totalCents,
        expiresAt: input.expiresAt,
        clientSecret: null,
        refundedCents: 0,
      });
      return { provider: "demo", kind: "checkout_session", id, url: `/demo-checkout/${id}` };
    },
    async createPaymentIntent(input: PaymentIntentInput): Promise<PaymentRef> {
      const id = `pi_demo_${randomId(18)}`;
      const clientSecret = `${id}_secret_${randomId(12)}`;
      await saveDemoPayment(kv, {
        id,
        kind: "payment_intent",
        orderNumber: input.orderNumber,
        status: "open",
        amountCents: input.amountCents,
        expiresAt: null,
        clientSecret,
        refundedCents: 0,
      });
      return { provider: "demo", kind: "payment_intent", id, clientSecret };
    },
    async cancel(ref) {
      const payment = await getDemoPayment(kv, ref.id);
      if (payment?.status === "open") await saveDemoPayment(kv, { ...payment, status: "canceled" });
    },
    async refund(ref, amountCents) {
      const payment = await getDemoPayment(kv, ref.id);
      if (payment?.status === "succeeded") {
        await saveDemoPayment(kv, { ...payment, status: "refunded", refundedCents: amountCents });
      }
    },
    async poll(ref, orderNumber): Promise<PaymentEvent | null> {
      const payment = await getDemoPayment(kv, ref.id);
      if (payment?.status !== "succeeded") return null;
      return { id: demoEventId(ref.id), type: "paid", orderNumber, paymentId: ref.id };
    },
  };
}

/** The id of the event a demo payment's success produces; the same however often it is seen. */
export function demoEventId(paymentId: string): string {
  return `evt_${paymentId}_succeeded`;
}

/** Card checks of the demo provider, as Stripe test mode answers them. */
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
