/**
 * The Stripe payment form of /checkout. This module is only ever imported lazily, so Stripe's
 * libraries land in their own chunk and shoppers on the demo provider never download them; the
 * `pure` entry fetches Stripe.js only when the form first needs it (the payment exists), not as
 * soon as the page learns the shop uses Stripe.
 */
import { type FormEvent, useId, useState } from "react";
import { loadStripe } from "@stripe/stripe-js/pure";
import type { Stripe } from "@stripe/stripe-js";
import type { PaymentFormProps } from "../payment_form_props.ts";
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";

// loadStripe injects Stripe.js once; calling it on every render would re-inject it.
const stripes = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

/**
 * Stripe's form on /checkout: its Payment Element for the PaymentIntent, with the 'Pay now'
 * button and inline errors; until the intent exists, the locked button and what is missing.
 */
export default function StripePaymentForm(
  { publishableKey, payment, disabled, note }: PaymentFormProps,
) {
  if (!payment || !publishableKey) {
    return (
      <div>
        <button
          type="button"
          className="button pay-button"
          aria-disabled="true"
          aria-describedby="pay-note"
        >
          Pay now
        </button>
        <p id="pay-note" className="muted small pay-note">{note}</p>
      </div>
    );
  }
  const { clientSecret } = payment;
  const dark = document.documentElement.dataset.theme === "dark";
  return (
    <Elements
      // A new client secret needs a fresh Elements instance: Stripe binds it at creation.
      key={clientSecret}
      stripe={stripeFor(publishableKey)}
      options={{ clientSecret, appearance: { theme: dark ? "night" : "stripe" } }}
    >
      <StripeForm disabled={disabled} note={note} />
    </Elements>
  );
}

function StripeForm({ disabled, note }: { disabled: boolean; note?: string | null }) {
  const id = useId();
  const stripe = useStripe();
  const elements = useElements();
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements || disabled || processing) return;
    setProcessing(true);
    setError(null);
    const result = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: `${location.origin}/completion` },
    });
    // confirmPayment only returns when it could not redirect: the card failed or input is wrong.
    setError(result.error?.message ?? "An unknown error occurred");
    setProcessing(false);
  }

  return (
    <form className="stripe-form" onSubmit={submit}>
      <PaymentElement />
      {error && <p id={`${id}-error`} className="error-text payment-error" role="alert">{error}</p>}
      <button
        type="submit"
        className="button pay-button"
        disabled={!stripe || !elements || disabled}
        // Focusable while it works, so a refused card leaves the focus on it.
        aria-disabled={processing || undefined}
        aria-describedby={[error ? `${id}-error` : null, `${id}-note`].filter(Boolean).join(" ")}
      >
        {processing ? "Processing..." : "Pay now"}
      </button>
      <p id={`${id}-note`} className="muted small pay-note" aria-live="polite">{note}</p>
    </form>
  );
}
