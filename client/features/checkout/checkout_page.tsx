import {
  type ComponentType,
  lazy,
  type LazyExoticComponent,
  Suspense,
  useEffect,
  useState,
} from "react";
import type { PaymentFormProps } from "./payment_form_props.ts";
import { Link } from "react-router-dom";
import { computeTotals, TIMINGS, type Totals } from "../../../shared/policy.ts";
import { api, errorMessage } from "../../app/api.ts";
import type { PaymentsConfigView, PromoValidation } from "../../../shared/api_types.ts";
import { type AppliedPromo, CheckoutSummary } from "./checkout_summary.tsx";
import { HoldCountdown, useExtendableHold } from "./hold_countdown.tsx";
import { ShippingForm } from "./shipping_form.tsx";
import {
  checkShipping,
  isValidZip,
  type ShippingErrors,
  type ShippingFields,
} from "./shipping_check.ts";
import {
  type OrderCreateRequest,
  type PaymentState,
  usePaymentCreation,
} from "./use_payment_creation.ts";
import { useCart } from "../../app/cart/use_cart.ts";
import { moveFocusWhenLost } from "../../app/move_focus.ts";
import type { PromoValidateInput } from "../../../shared/schemas.ts";

/**
 * The form of the provider the shop uses, `payment_forms/{provider}.tsx`, fetched on use: a
 * provider's libraries (a card form's SDK) are large, and only its own are ever loaded.
 */
const PAYMENT_FORMS = new Map<string, LazyExoticComponent<ComponentType<PaymentFormProps>>>();
function paymentFormOf(provider: string) {
  // A chunk the network lost (or a provider with no form here) says so rather than break the page.
  let form = PAYMENT_FORMS.get(provider);
  if (!form) {
    form = lazy(() =>
      import(`./payment_forms/${provider}.tsx`).catch(() => ({ default: PaymentFormUnavailable }))
    );
    PAYMENT_FORMS.set(provider, form);
  }
  return form;
}

const EMPTY_FIELDS: ShippingFields = {
  email: "",
  firstName: "",
  lastName: "",
  address: "",
  apartment: "",
  city: "",
  state: "",
  zipCode: "",
};

/**
 * /checkout: contact, shipping and payment on this site (the embedded payment), beside the order
 * summary. The order and its payment are created once the details are complete and the terms
 * accepted, and re-created whenever they or the promo change (docs/product.md#checkout-page).
 */
export function CheckoutPage() {
  const { cart, loading } = useCart();
  const [config, setConfig] = useState<PaymentsConfigView | null>(null);
  const [configFailed, setConfigFailed] = useState(false);
  const [fields, setFields] = useState<ShippingFields>(EMPTY_FIELDS);
  const [terms, setTerms] = useState(false);
  // Fields the shopper has left: only those show their error, not a form full of them at once.
  const [left, setLeft] = useState<ReadonlySet<keyof ShippingFields>>(new Set());
  const [promo, setPromo] = useState<AppliedPromo | null>(null);
  const shippingKnown = useZipEstimate(fields.zipCode);

  useEffect(() => {
    api<PaymentsConfigView>("/api/payments/config").then(setConfig, (err) => {
      console.error("Payment configuration could not be loaded", err);
      setConfigFailed(true);
    });
  }, []);

  const hasItems = (cart?.items.length ?? 0) > 0;
  const { details, errors } = checkShipping(fields);
  const missing = missingForPayment(errors, terms);
  const request: OrderCreateRequest | null = cart && hasItems && details && terms
    ? { cartId: cart.id, ...details, promoCode: promo?.code ?? null }
    : null;
  const { state: payment, retry } = usePaymentCreation(request);
  const ready = payment.kind === "ready" ? payment : null;
  const { seconds: holdSeconds, extension, extendedBy } = useExtendableHold(
    ready?.hold ?? null,
    ready
      ? {
        orderNumber: ready.created.orderNumber,
        paymentId: ready.created.paymentIntentId,
        minutes: ready.created.totals.holdExtendMinutes,
      }
      : null,
  );

  if (loading) {
    return (
      <section className="page checkout-page">
        <h1>Checkout</h1>
        <p className="loading">Loading cart...</p>
      </section>
    );
  }
  if (!cart || !hasItems) {
    return (
      <section className="page checkout-page">
        <h1>Checkout</h1>
        <p className="checkout-empty" role="alert">
          {cart ? "Your cart is empty." : "No cart found"}
        </p>
        <p>
          <Link to="/shop" className="button">Browse the shop</Link>
        </p>
      </section>
    );
  }

  // The server's totals are what will be charged; until they arrive the same shared rule
  // computes them here, so both always agree.
  const totals: Totals = payment.kind === "ready"
    ? payment.created.totals
    : computeTotals(cart.subtotalCents, "us", promo ?? 0);

  async function applyPromo(code: string): Promise<string | null> {
    try {
      const result = await api<PromoValidation>("/api/promo/validate", {
        method: "POST",
        body: { code, cartId: cart?.id ?? null } satisfies PromoValidateInput,
      });
      setPromo({
        code: result.code,
        percentOff: result.percentOff,
        amountOffCents: result.amountOffCents,
      });
      return null;
    } catch (err) {
      return errorMessage(err, "The promo code could not be checked. Please try again.");
    }
  }

  const note = paymentNote(
    payment,
    missing,
    config?.reservationMinutes ?? null,
    holdSeconds !== null,
  );
  const holdEnded = holdSeconds === 0;
  const canPay = terms && payment.kind === "ready" && !holdEnded;
  const PaymentForm = config ? paymentFormOf(config.provider) : null;
  return (
    <section className="page checkout-page">
      <h1>Checkout</h1>
      <div className="checkout-layout">
        <ShippingForm
          fields={fields}
          errors={shownErrors(errors, left)}
          onChange={(name, value) => setFields((f) => ({ ...f, [name]: value }))}
          onLeave={(name) => setLeft((s) => s.has(name) ? s : new Set(s).add(name))}
        />
        <CheckoutSummary
          cart={cart}
          totals={totals}
          shippingKnown={shippingKnown}
          promo={promo}
          onApplyPromo={applyPromo}
          onRemovePromo={() => setPromo(null)}
          termsAccepted={terms}
          onTermsChange={setTerms}
        />
        <section className="card checkout-section checkout-payment" aria-labelledby="pay-title">
          <h2 id="pay-title">Payment</h2>
          {payment.kind === "failed" && (
            <div className="payment-failure" role="alert">
              <p className="error-text">{payment.message}</p>
              <button
                type="button"
                className="button secondary"
                onClick={() => {
                  retry();
                  // The failure and its button go while the payment is prepared again.
                  moveFocusWhenLost(() => [document.getElementById("pay-title")]);
                }}
              >
                Try again
              </button>
            </div>
          )}
          {configFailed && (
            <p className="error-text" role="alert">
              Payments cannot be loaded right now. Please reload the page.
            </p>
          )}
          {!config && !configFailed && <p className="loading">Loading payment form...</p>}
          {payment.kind === "ready" && (
            <HoldCountdown
              key={payment.created.paymentIntentId}
              seconds={holdSeconds}
              extension={extension}
              extendedBy={extendedBy}
            />
          )}
          {PaymentForm && (
            <Suspense fallback={<p className="loading">Loading payment form...</p>}>
              <PaymentForm
                publishableKey={config?.publishableKey ?? null}
                payment={payment.kind === "ready"
                  ? {
                    id: payment.created.paymentIntentId,
                    clientSecret: payment.created.clientSecret,
                  }
                  : null}
                request={request}
                disabled={!canPay}
                note={note}
              />
            </Suspense>
          )}
        </section>
      </div>
    </section>
  );
}

function PaymentFormUnavailable() {
  return (
    <p className="error-text" role="alert">
      Payments cannot be loaded right now. Please reload the page.
    </p>
  );
}

/** True once a valid ZIP has stood for TIMINGS.zipEstimateDelayMs, as the spec describes. */
function useZipEstimate(zipCode: string): boolean {
  const [known, setKnown] = useState(false);
  const complete = isValidZip(zipCode);
  useEffect(() => {
    setKnown(false);
    if (!complete) return;
    const timer = setTimeout(() => setKnown(true), TIMINGS.zipEstimateDelayMs);
    return () => clearTimeout(timer);
  }, [zipCode, complete]);
  return known;
}

/** How the payment note names a field that still needs the shopper, in form order. */
const MISSING_WORDS: Record<keyof ShippingFields, string> = {
  email: "a valid email",
  firstName: "first name",
  lastName: "last name",
  address: "address",
  apartment: "a valid apartment",
  city: "city",
  state: "a valid state",
  zipCode: "a valid ZIP code",
};

/** What still stands between the shopper and paying, in the words of the form. */
function missingForPayment(errors: ShippingErrors, terms: boolean): string[] {
  const missing = (Object.keys(MISSING_WORDS) as (keyof ShippingFields)[])
    .filter((name) => errors[name]).map((name) => MISSING_WORDS[name]);
  if (!terms) missing.push("agreement to the terms of service");
  return missing;
}

/** The errors of the fields the shopper has already left. */
function shownErrors(
  errors: ShippingErrors,
  left: ReadonlySet<keyof ShippingFields>,
): ShippingErrors {
  return Object.fromEntries(
    Object.entries(errors).filter(([name]) => left.has(name as keyof ShippingFields)),
  );
}

function paymentNote(
  payment: PaymentState,
  missing: string[],
  reservationMinutes: number | null,
  holdShown: boolean,
): string | null {
  if (missing.length > 0) return `To pay, add ${joinWords(missing)}.`;
  if (payment.kind === "preparing") return "Preparing your payment...";
  // The hold's countdown tells the time left itself; a fixed '30 minutes' would soon be wrong.
  if (payment.kind === "ready" && !holdShown) {
    const time = reservationMinutes ? ` for ${reservationMinutes} minutes` : "";
    return `Your items are reserved${time} while you pay.`;
  }
  return null;
}

function joinWords(words: string[]): string {
  return words.length <= 1
    ? words.join("")
    : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
