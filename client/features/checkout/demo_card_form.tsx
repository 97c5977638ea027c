import { type FormEvent, useId, useState } from "react";
import { ApiError } from "../../app/api.ts";
import { DEMO_DECLINED_CARD, DEMO_TEST_CARD, PayInputError } from "./checkout_text.ts";

/** Digits grouped by four as people read card numbers; at most 19 digits, as cards have. */
function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, "").slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/**
 * The demo provider's card form (docs/operations.md#demo-payment-provider): a text field labelled
 * exactly 'Card number' and a 'Pay now' button. `onPay` throws to report a failed payment; on
 * success it navigates away, so the form stays locked ('Processing...') to prevent a second charge.
 */
export function DemoCardForm({ disabled, note, onPay }: {
  /** Paying is not possible yet (terms, details or the payment are missing). */
  disabled: boolean;
  /** Why paying is disabled, or what happens next. */
  note?: string | null;
  onPay: (cardNumber: string) => Promise<void>;
}) {
  const id = useId();
  const [cardNumber, setCardNumber] = useState("");
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (disabled || processing) return;
    setProcessing(true);
    setError(null);
    try {
      await onPay(cardNumber);
    } catch (err) {
      // The server words its declines for the shopper; anything unexpected gets the spec's text.
      const known = err instanceof PayInputError ||
        (err instanceof ApiError && err.status !== 500);
      setError(known ? (err as Error).message : "An unknown error occurred");
      setProcessing(false);
      // Back to the card field, which now says what went wrong (the button was busy).
      document.getElementById(`${id}-card`)?.focus();
    }
  }

  const describedBy = [`${id}-hint`, error ? `${id}-error` : null, note ? `${id}-note` : null]
    .filter(Boolean).join(" ");
  return (
    <form className="demo-card-form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-card`}>Card number</label>
        <input
          id={`${id}-card`}
          name="cardnumber"
          type="text"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder={DEMO_TEST_CARD}
          maxLength={23}
          value={cardNumber}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => setCardNumber(formatCardNumber(e.target.value))}
        />
        <span id={`${id}-hint`} className="muted small">
          Demo payments: no money moves. Test cards: {DEMO_TEST_CARD} succeeds, {DEMO_DECLINED_CARD}
          {" "}
          is declined.
        </span>
      </div>
      {error && (
        <p id={`${id}-error`} className="error-text payment-error" role="alert">
          {error}
        </p>
      )}
      <button
        type="submit"
        className="button pay-button"
        // Focusable while it works, so the keyboard user's place is kept.
        aria-disabled={disabled || processing}
        aria-describedby={note ? `${id}-note` : undefined}
      >
        {processing ? "Processing..." : "Pay now"}
      </button>
      {/* Read with Pay now (aria-describedby); not live, so each change is not read out whole. */}
      <p id={`${id}-note`} className="muted small pay-note">{note}</p>
      {/* Only the change that matters is announced: paying became possible. */}
      <p className="visually-hidden" aria-live="polite">
        {note === undefined || disabled ? "" : "Everything needed is filled in: Pay now is ready."}
      </p>
    </form>
  );
}
