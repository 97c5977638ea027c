import { type KeyboardEvent, type ReactNode, useEffect, useState } from "react";
import { Link, useParams } from "react-router-dom";
import type { Address } from "../../../shared/api_types.ts";
import type { PublicOrderView } from "../../../shared/order_view.ts";
import { computeTotals, SHOP_NAME, type Totals } from "../../../shared/policy.ts";
import { formatCents } from "../../../shared/pricing.ts";
import { api, ApiError, errorMessage } from "../../app/api.ts";
import { TextField } from "../../app/components/text_field.tsx";
import {
  COUNTRIES,
  type DemoPaid,
  type PayAddress,
  PayInputError,
  type PromoResult,
} from "./checkout_text.ts";
import { SummaryLine } from "./checkout_summary.tsx";
import { DemoCardForm } from "./demo_card_form.tsx";
import { HoldCountdown, type HoldEnd, holdEndOf, useHoldSecondsLeft } from "./hold_countdown.tsx";

/** GET /api/demo/checkout-sessions/{id}. */
interface DemoSession {
  id: string;
  status: "open" | "succeeded" | "canceled" | "refunded";
  expiresAt: string | null;
  order: PublicOrderView;
}

type Load =
  | { kind: "loading" }
  | { kind: "missing" }
  | { kind: "failed" }
  | { kind: "loaded"; session: DemoSession; hold: HoldEnd | null };

interface Fields extends Address {
  email: string;
  name: string;
  business: boolean;
  taxId: string;
}

const EMPTY: Fields = {
  email: "",
  name: "",
  street: "",
  apartment: "",
  city: "",
  state: "",
  zipCode: "",
  country: "",
  business: false,
  taxId: "",
};

/**
 * The demo provider's hosted checkout page (/demo-checkout/{sessionId}), standing in for Stripe
 * Checkout when no keys are set (docs/operations.md#demo-payment-provider: order summary, a
 * 'Card number' field, 'Pay now' and a link back to the cart). Like Stripe's page it collects the
 * contact and shipping details; they are optional because the contract's pay call needs only the
 * card.
 */
export function DemoCheckoutPage() {
  const { sessionId = "" } = useParams();
  const [load, setLoad] = useState<Load>({ kind: "loading" });

  useEffect(() => {
    let live = true;
    setLoad({ kind: "loading" });
    api<DemoSession>(`/api/demo/checkout-sessions/${encodeURIComponent(sessionId)}`).then(
      (session) => live && setLoad({ kind: "loaded", session, hold: holdEndOf(session.order) }),
      (err) => {
        if (!live) return;
        if (err instanceof ApiError && err.status === 404) setLoad({ kind: "missing" });
        else {
          console.error("Checkout session could not be loaded", err);
          setLoad({ kind: "failed" });
        }
      },
    );
    return () => {
      live = false;
    };
  }, [sessionId]);

  if (load.kind === "loading") {
    return (
      <DemoFrame>
        <p className="loading">Loading checkout...</p>
      </DemoFrame>
    );
  }
  if (load.kind !== "loaded") {
    return (
      <DemoFrame>
        <div className="card demo-closed" role="alert">
          <h2>
            {load.kind === "missing"
              ? "This checkout link is not valid"
              : "This checkout could not be loaded"}
          </h2>
          <p>
            {load.kind === "missing"
              ? "It may have been replaced by a newer checkout. Return to your cart to check out again."
              : "Please check your connection and reload the page, or return to your cart."}
          </p>
          <BackToCart />
        </div>
      </DemoFrame>
    );
  }
  const { session } = load;
  const closed = closedReason(session);
  if (closed) {
    return (
      <DemoFrame>
        <div className="card demo-closed" role="alert">
          <h2>{closed.title}</h2>
          <p>{closed.text}</p>
          {session.status === "succeeded"
            ? (
              <Link to={`/order/track/${session.order.orderNumber}`} className="button">
                View your order
              </Link>
            )
            : <BackToCart />}
        </div>
      </DemoFrame>
    );
  }
  return <DemoCheckoutForm session={session} hold={load.hold} />;
}

function DemoFrame({ children }: { children: ReactNode }) {
  return (
    <section className="page demo-checkout-page">
      <h1>Checkout</h1>
      <p className="demo-notice">
        Demo payment page: it stands in for the card provider, and no real money is charged.
      </p>
      {children}
    </section>
  );
}

function BackToCart() {
  return <Link to="/cart" className="back-to-cart">Back to cart</Link>;
}

/** Why a session can no longer be paid, in the shopper's words; null when it can. */
function closedReason(session: DemoSession): { title: string; text: string } | null {
  const { order } = session;
  const paid = order.status !== "STARTED" && order.status !== "EXPIRED" &&
    order.status !== "CANCELLED";
  if (session.status === "succeeded" || paid) {
    return { title: "This order is already paid", text: "Thank you! Nothing more to pay here." };
  }
  if (session.status !== "open" || order.status === "CANCELLED") {
    return {
      title: "This checkout was cancelled",
      text:
        "It was replaced by a newer checkout or cancelled. Return to your cart to check out again.",
    };
  }
  if (!order.awaitingPayment) {
    return {
      title: "This checkout has expired",
      text:
        "Its items were released back to stock. Return to your cart to check out again; nothing was charged.",
    };
  }
  return null;
}

function DemoCheckoutForm({ session, hold }: { session: DemoSession; hold: HoldEnd | null }) {
  const { order } = session;
  const holdSeconds = useHoldSecondsLeft(hold);
  const international = order.region === "international";
  const [fields, setFields] = useState<Fields>({ ...EMPTY, country: international ? "" : "US" });
  const [promoCode, setPromoCode] = useState(order.promoCode ?? "");
  const [promo, setPromo] = useState<{ code: string; percentOff: number } | null>(null);
  const [promoError, setPromoError] = useState<string | null>(null);
  const [promoBusy, setPromoBusy] = useState(false);

  function set<K extends keyof Fields>(name: K, value: Fields[K]) {
    setFields((f) => ({ ...f, [name]: value }));
  }

  // The order's own totals, or a preview of them with a code the shopper just applied (the
  // server applies it for real when paying, with the same shared rule).
  const totals: Totals = promo && promo.code !== order.promoCode
    ? computeTotals(order.subtotalCents, order.region, promo.percentOff)
    : order;
  const appliedCode = promo?.code ?? order.promoCode;

  async function applyPromo() {
    const code = promoCode.trim();
    if (!code) {
      setPromoError("Enter a promo code");
      return;
    }
    setPromoBusy(true);
    try {
      const result = await api<PromoResult>("/api/promo/validate", {
        method: "POST",
        body: { code },
      });
      setPromo({ code: result.code, percentOff: result.percentOff });
      setPromoCode(result.code);
      setPromoError(null);
    } catch (err) {
      setPromo(null);
      setPromoError(errorMessage(err, "The promo code could not be checked."));
    }
    setPromoBusy(false);
  }

  function promoKey(event: KeyboardEvent<HTMLInputElement>) {
    // Enter applies the code instead of submitting anything else.
    if (event.key === "Enter") {
      event.preventDefault();
      applyPromo();
    }
  }

  async function pay(cardNumber: string): Promise<void> {
    const address = addressOf(fields);
    if (fields.business && !fields.taxId.trim()) {
      missingField("demo-tax-id", "Enter your VAT or Tax ID to purchase as a business");
    }
    const paid = await api<DemoPaid>(
      `/api/demo/checkout-sessions/${encodeURIComponent(session.id)}/pay`,
      {
        method: "POST",
        body: {
          cardNumber,
          email: fields.email.trim() || null,
          name: fields.name.trim() || null,
          address,
          businessPurchase: international && fields.business,
          taxId: international && fields.business ? fields.taxId.trim() : null,
          promoCode: promoCode.trim() || null,
        },
      },
    );
    location.assign(paid.redirectUrl);
  }

  return (
    <DemoFrame>
      <div className="demo-layout">
        <section className="card demo-summary" aria-labelledby="demo-summary-title">
          <h2 id="demo-summary-title">
            Pay {SHOP_NAME}{" "}
            <span className="demo-total" data-testid="demo-total">
              {formatCents(totals.totalCents)}
            </span>
          </h2>
          <ul className="summary-lines">
            {order.items.map((item, i) => (
              <SummaryLine key={i} item={item} quantity={item.quantity} testId="demo-line" />
            ))}
          </ul>
          <dl className="totals-list">
            <div>
              <dt>Subtotal</dt>
              <dd data-testid="demo-subtotal">{formatCents(totals.subtotalCents)}</dd>
            </div>
            {totals.discountCents > 0 && (
              <div>
                <dt>Discount{appliedCode ? ` (${appliedCode})` : ""}</dt>
                <dd data-testid="demo-discount">-{formatCents(totals.discountCents)}</dd>
              </div>
            )}
            <div>
              <dt>Shipping ({international ? "international" : "United States"})</dt>
              <dd data-testid="demo-shipping">
                {totals.shippingCents === 0 ? "Free" : formatCents(totals.shippingCents)}
              </dd>
            </div>
            <div>
              <dt>Estimated tax</dt>
              <dd data-testid="demo-tax">{formatCents(totals.taxCents)}</dd>
            </div>
            <div className="total-row">
              <dt>Total</dt>
              <dd>{formatCents(totals.totalCents)}</dd>
            </div>
          </dl>
          <div className="field promo-field">
            <label htmlFor="demo-promo">Promo code</label>
            <div className="promo-row">
              <input
                id="demo-promo"
                name="promo"
                autoComplete="off"
                spellCheck={false}
                maxLength={40}
                value={promoCode}
                aria-invalid={promoError ? true : undefined}
                aria-describedby={promoError ? "demo-promo-error" : undefined}
                onKeyDown={promoKey}
                onChange={(e) => {
                  setPromoCode(e.target.value);
                  setPromoError(null);
                }}
              />
              <button
                type="button"
                className="button secondary"
                disabled={promoBusy}
                onClick={applyPromo}
              >
                {promoBusy ? "Applying..." : "Apply"}
              </button>
            </div>
            {promoError && (
              <p id="demo-promo-error" className="error-text small" role="alert">{promoError}</p>
            )}
            {promo && !promoError && (
              <p className="ok-text small" role="status">
                {promo.code} applied: {promo.percentOff}% off
              </p>
            )}
          </div>
          <BackToCart />
        </section>

        <div className="demo-form">
          <form
            className="card checkout-section"
            aria-labelledby="demo-contact-title"
            noValidate
            onSubmit={(e) => e.preventDefault()}
          >
            <h2 id="demo-contact-title">Contact and shipping</h2>
            <TextField
              id="demo-email"
              label="Email"
              autoComplete="email"
              type="email"
              value={fields.email}
              onChange={(v) => set("email", v)}
            />
            <TextField
              id="demo-name"
              label="Full name"
              autoComplete="shipping name"
              value={fields.name}
              onChange={(v) => set("name", v)}
            />
            <div className="field">
              <label htmlFor="demo-country">Country</label>
              <select
                id="demo-country"
                name="country"
                autoComplete="shipping country"
                value={fields.country}
                onChange={(e) => set("country", e.target.value)}
              >
                {international
                  ? (
                    <>
                      <option value="">Choose a country</option>
                      {COUNTRIES.map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}
                    </>
                  )
                  // The US checkout ships to the United States only.
                  : <option value="US">United States</option>}
              </select>
            </div>
            <TextField
              id="demo-street"
              label="Address"
              autoComplete="shipping address-line1"
              value={fields.street}
              onChange={(v) => set("street", v)}
            />
            <TextField
              id="demo-apartment"
              label="Apartment, suite, etc."
              autoComplete="shipping address-line2"
              value={fields.apartment}
              onChange={(v) => set("apartment", v)}
            />
            <div className="field-trio">
              <TextField
                id="demo-city"
                label="City"
                autoComplete="shipping address-level2"
                value={fields.city}
                onChange={(v) => set("city", v)}
              />
              <TextField
                id="demo-state"
                label={international ? "State / region" : "State"}
                autoComplete="shipping address-level1"
                value={fields.state}
                onChange={(v) => set("state", v)}
              />
              <TextField
                id="demo-zip"
                label={international ? "Postal code" : "ZIP code"}
                autoComplete="shipping postal-code"
                value={fields.zipCode}
                onChange={(v) => set("zipCode", v)}
              />
            </div>
            {international && (
              <>
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={fields.business}
                    aria-controls="demo-tax-id-field"
                    aria-expanded={fields.business}
                    onChange={(e) => set("business", e.target.checked)}
                  />
                  I'm purchasing as a business
                </label>
                {fields.business && (
                  <div id="demo-tax-id-field">
                    <TextField
                      id="demo-tax-id"
                      label="VAT or Tax ID"
                      autoComplete="off"
                      hint="Needed for business purchases from the EU, Brazil and similar countries."
                      value={fields.taxId}
                      onChange={(v) => set("taxId", v)}
                    />
                  </div>
                )}
              </>
            )}
          </form>
          <section className="card checkout-section" aria-labelledby="demo-pay-title">
            <h2 id="demo-pay-title">Payment</h2>
            <HoldCountdown seconds={holdSeconds} />
            <DemoCardForm disabled={holdSeconds === 0} onPay={pay} />
          </section>
        </div>
      </div>
    </DemoFrame>
  );
}

/** The address to send: none when nothing was typed, so a card-only payment stays possible. */
function addressOf(fields: Fields): PayAddress | null {
  const typed = [fields.street, fields.apartment, fields.city, fields.state, fields.zipCode]
    .some((v) => v.trim() !== "");
  if (!typed) return null;
  if (!fields.country) missingField("demo-country", "Choose the country to ship to");
  if (!fields.street.trim()) missingField("demo-street", "Enter your address");
  if (!fields.city.trim()) missingField("demo-city", "Enter your city");
  return {
    street: fields.street.trim(),
    apartment: fields.apartment.trim(),
    city: fields.city.trim(),
    state: fields.state.trim(),
    zipCode: fields.zipCode.trim(),
    country: fields.country,
  };
}

/** Moves focus to the field that needs input, then reports it beside 'Pay now'. */
function missingField(id: string, message: string): never {
  document.getElementById(id)?.focus();
  throw new PayInputError(message);
}
