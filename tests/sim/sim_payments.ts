/**
 * The simulated payment provider: the demo provider (its payments live in the store, so the
 * invariants can read every charge), in one of two shapes, and with faults the history turns on:
 * - "inline": as the shop runs it by default; a checkout creates its payment in the reservation's
 *   own write and replacing a checkout stops the old payment in the same write;
 * - "remote": as a provider elsewhere (Stripe) is used; payments are created after the
 *   reservation, a replaced checkout's payment is stopped by a call that can fail.
 * Faults: the provider refuses to create payments, to stop them, or to refund (until the history
 * says it accepts again). Every refund and stop attempt is logged at the simulated time.
 */
import type { Clock } from "../../server/clock.ts";
import { demoPayments } from "../../server/payments/demo/provider.ts";
import type { PaymentProvider } from "../../server/payments/provider.ts";
import type { SimKv } from "./sim_kv.ts";

/** Which calls the provider refuses right now. */
export interface ProviderFaults {
  create: boolean;
  stop: boolean;
  refund: boolean;
}

/** One call the shop made to the provider that can fail. */
export interface ProviderAttempt {
  at: number;
  call: "stop" | "refund";
  /** The payment, and for a refund the idempotency key (which names the order). */
  paymentId: string;
  key: string | null;
  ok: boolean;
}

/** The provider's log, shared by every instance. */
export interface ProviderLog {
  attempts: ProviderAttempt[];
}

/** How the shop reaches the provider in a history. */
export type ProviderMode = "inline" | "remote";

class Refused extends Error {
  constructor(call: string) {
    super(`The payment provider refused to ${call} (simulated outage)`);
  }
}

/** The provider one instance uses (over its own KV wrapper; a dead process calls nothing). */
export function simPayments(
  kv: SimKv,
  clock: Clock,
  mode: ProviderMode,
  faults: ProviderFaults,
  log: ProviderLog,
): PaymentProvider {
  const demo = demoPayments(kv);
  const provider: PaymentProvider = {
    name: demo.name,
    label: demo.label,
    publishableKey: demo.publishableKey,
    createHostedPayment(input) {
      kv.alive();
      if (faults.create) return Promise.reject(new Refused("create a payment"));
      return demo.createHostedPayment(input);
    },
    createEmbeddedPayment(input) {
      kv.alive();
      if (faults.create) return Promise.reject(new Refused("create a payment"));
      return demo.createEmbeddedPayment(input);
    },
    async stop(ref, orderNumber) {
      kv.alive();
      const ok = !faults.stop;
      log.attempts.push({ at: clock.now(), call: "stop", paymentId: ref.id, key: null, ok });
      if (!ok) throw new Refused("stop a payment");
      return await demo.stop(ref, orderNumber);
    },
    extend(ref, expiresAt) {
      kv.alive();
      // Refused with the stops: a provider that cannot be reached cannot keep a payment open.
      if (faults.stop) return Promise.reject(new Refused("extend a payment"));
      return demo.extend(ref, expiresAt);
    },
    async refund(ref, amountCents, idempotencyKey, orderNumber) {
      kv.alive();
      const ok = !faults.refund;
      log.attempts.push({
        at: clock.now(),
        call: "refund",
        paymentId: ref.id,
        key: idempotencyKey,
        ok,
      });
      if (!ok) throw new Refused("refund");
      return await demo.refund(ref, amountCents, idempotencyKey, orderNumber);
    },
    refundStatus: (refundId) => demo.refundStatus(refundId),
    poll: (ref, orderNumber) => demo.poll(ref, orderNumber),
    parseWebhook: (body, headers) => demo.parseWebhook(body, headers),
  };
  if (mode === "inline") return { ...provider, inline: demo.inline };
  return provider;
}
