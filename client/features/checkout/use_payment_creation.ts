import { useEffect, useRef, useState } from "react";
import type { EmbeddedCheckoutView } from "../../../shared/api_types.ts";
import { api, errorMessage } from "../../app/api.ts";
import { insufficientStockMessage, shortStockOf } from "../../app/stock_errors.ts";
import { type HoldEnd, holdEndOf } from "./hold_countdown.tsx";
import type { OrderCreateInput } from "../../../shared/schemas.ts";

/** The body of POST /api/orders/create (shared/schemas.ts orderCreateSchema). */
/** What POST /api/orders/create takes (the shared schema's input). */
export type OrderCreateRequest = OrderCreateInput;

/** Where the payment of the current details stands. */
export type PaymentState =
  | { kind: "idle" }
  | { kind: "preparing" }
  | { kind: "ready"; created: EmbeddedCheckoutView; hold: HoldEnd | null }
  | { kind: "failed"; message: string };

/** Typing pauses this long before the order is (re)created, so keystrokes do not each reserve. */
const DEBOUNCE_MS = 700;

interface Outcome {
  key: string;
  created?: EmbeddedCheckoutView;
  /** Pinned when the answer arrives, so showing the same outcome again keeps counting down. */
  hold?: HoldEnd | null;
  message?: string;
}

/**
 * Creates the order and its payment for the given request once it is complete (null while not),
 * and again whenever it changes: the server releases the cart's previous unpaid order, so the
 * latest details and promo are what gets paid. Calls run one at a time, because two creates
 * racing could leave the page holding an order that the other call released.
 */
export function usePaymentCreation(request: OrderCreateRequest | null): {
  state: PaymentState;
  retry: () => void;
} {
  const key = request ? JSON.stringify(request) : null;
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [attempt, setAttempt] = useState(0);
  const latest = useRef<string | null>(null);
  const queue = useRef<Promise<void>>(Promise.resolve());
  // The outcome for these very details is kept when the form goes incomplete and back (the
  // terms box unticked and ticked again), so nothing is re-created needlessly.
  const done = outcome !== null && outcome.key === key;

  useEffect(() => {
    latest.current = key;
    if (key === null || done) return;
    const timer = setTimeout(() => {
      queue.current = queue.current.then(async () => {
        // Superseded while waiting for the previous call: the newer details get their own turn.
        if (latest.current !== key) return;
        try {
          const created = await api<EmbeddedCheckoutView>("/api/orders/create", {
            method: "POST",
            body: JSON.parse(key),
          });
          setOutcome({ key, created, hold: holdEndOf(created.totals) });
        } catch (err) {
          const short = shortStockOf(err);
          setOutcome({
            key,
            message: short
              ? insufficientStockMessage(short)
              : errorMessage(err, "Failed to process order. Please try again."),
          });
        }
      });
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // `attempt` re-runs a failed create when the shopper asks to try again.
  }, [key, done, attempt]);

  function retry() {
    setOutcome(null);
    setAttempt((n) => n + 1);
  }

  let state: PaymentState;
  if (key === null) state = { kind: "idle" };
  else if (!done) state = { kind: "preparing" };
  else if (outcome.created) {
    state = { kind: "ready", created: outcome.created, hold: outcome.hold ?? null };
  } else state = { kind: "failed", message: outcome.message ?? "" };
  return { state, retry };
}
