import { type ReactNode, useState } from "react";
import { Link, useParams } from "react-router-dom";
import type { DemoSessionView } from "../../../shared/api_types.ts";
import { computeTotals, SHOP_NAME, type Totals } from "../../../shared/policy.ts";
import { formatCents } from "../../../shared/pricing.ts";
import { api, ApiError, errorMessage } from "../../app/api.ts";
import { TextField } from "../../app/components/text_field.tsx";
import { useRequest } from "../../app/use_request.ts";
import { COUNTRIES, type PayAddress, PayInputError } from "./checkout_text.ts";
import { AddressFields, type AddressInput } from "./address_fields.tsx";
import {
  type AppliedPromo,
  OrderDetails,
  PromoCodeForm,
  SummaryLine,
} from "./checkout_summary.tsx";
import { DemoCardForm } from "./demo_card_form.tsx";
import { HoldCountdown, type HoldEnd, holdEndOf, useExtendableHold } from "./hold_countdown.tsx";
import type { DemoPayAnswer, PromoValidation } from "../../../shared/api_types.ts";
import type { DemoPayInput, PromoValidateInput } from "../../../shared/schemas.ts";

/** A session as loaded, with its hold pinned when the answer arrived. */
interface Loaded {
  session: DemoSessionView;
  hold: HoldEnd | null;
}

interface Fields extends AddressInput {
  email: string;
  name: string;
  country: string;
  business: boolean;
  taxId: string;
}

const EMPTY: Fields = {
  email: "",
  name: "",
  address: "",
  apartment: "",
  city: "",
  state: "",
  zipCode: "",
  country: "",
  business: false,
  taxId: "",
};

/**
 * The demo provider's hosted checkout page (/demo-checkout/{sessionId}), standing in for a
 * provider's own page when no provider's keys are set (docs/operations.md#demo-payment-provider:
 * order summary, a 'Card number' field, 'Pay now' and a link back to the cart). Like such a page
 * it collects the contact and shipping details; they are optional because the contract's pay call
 * needs only the card.
 */
export function DemoCheckoutPage() {
  const { sessionId = "" } = useParams();
  const load = useRequest(sessionId, async (signal): Promise<Loaded> => {
    try {
      const session = await api<DemoSessionView>(
        `/api/demo/checkout-sessions/${encodeURIComponent(sessionId)}`,
        { signal },
      );
      return { session, hold: holdEndOf(session.order) };
    } catch (err) {
      if (!signal.aborted && !isMissing(err)) {
        console.error("Checkout session could not be loaded", err);
      }
      throw err;
    }
  });

  if (load.state === "idle" || load.state === "loading") {
    return (
      <DemoFrame>
        <p className="loading">Loading checkout...</p>
      </DemoFrame>
    );
  }
  if (load.state === "failed") {
    const missing = isMissing(load.error);
    return (
      <DemoFrame>
        <div className="card demo-closed" role="alert">
          <h2>
            {missing ? "This checkout link is not valid" : "This checkout could not be loaded"}
          </h2>
          <p>
            {missing
              ? "It may have been replaced by a newer checkout. Return to your cart to check out again."
              : "Please check your connection and reload the page, or return to your cart."}
          </p>
          <BackToCart />
        </div>
      </DemoFrame>
    );
  }
  const { session, hold } = load.data;
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
  return <DemoCheckoutForm session={session} hold={hold} />;
}

function isMissing(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
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
function closedReason(session: DemoSessionView): { title: string; text: string } | null {
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

function DemoCheckoutForm({ session, hold }: { session: DemoSessionView; hold: HoldEnd | null }) {
  const { order } = session;
  const { seconds: holdSeconds, extension, extendedBy } = useExtendableHold(hold, {
    orderNumber: order.orderNumber,
    paymentId: session.id,
    minutes: order.holdExtendMinutes,
  });
  const international = order.region === "international";
  const [fields, setFields] = useState<Fields>({ ...EMPTY, country: international ? "" : "US" });
  // A code applied here; without one the order keeps the code it was created with.
  const [promo, setPromo] = useState<AppliedPromo | null>(null);

  function set<K extends keyof Fields>(name: K, value: Fields[K]) {
    setFields((f) => ({ ...f, [name]: value }));
  }

  // The order's own totals, or a preview of them with a code the shopper just applied (the
  // server applies it for real when paying, with the same shared rule).
  const totals: Totals = promo && promo.code !== order.promoCode
    ? computeTotals(order.subtotalCents, order.region, promo)
    : order;
  const appliedCode = promo?.code ?? order.promoCode;

  async function applyPromo(code: string): Promise<string | null> {
    try {
      const result = await api<PromoValidation>("/api/promo/validate", {
        method: "POST",
        body: { code } satisfies PromoValidateInput,
      });
      setPromo({
        code: result.code,
        percentOff: result.percentOff,
        amountOffCents: result.amountOffCents,
      });
      return null;
    } catch (err) {
      return errorMessage(err, "The promo code could not be checked.");
    }
  }

  async function pay(cardNumber: string): Promise<void> {
    const address = addressOf(fields);
    if (fields.business && !fields.taxId.trim()) {
      missingField("demo-tax-id", "Enter your VAT or Tax ID to purchase as a business");
    }
    const paid = await api<DemoPayAnswer>(
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
          promoCode: appliedCode,
        } satisfies DemoPayInput,
      },
    );
    location.assign(paid.redirectUrl);
  }

  return (
    <DemoFrame>
      <div className="demo-layout">
        <section className="card demo-summary" aria-labelledby="demo-summary-title">
          <h2 id="demo-summary-title">
            Pay {SHOP_NAME} <span className="demo-total">{formatCents(totals.totalCents)}</span>
          </h2>
          <ul className="summary-lines">
            {order.items.map((item, i) => (
              <SummaryLine key={i} item={item} quantity={item.quantity} testId="demo-line" />
            ))}
          </ul>
          <PromoCodeForm promo={promo} onApply={applyPromo} onRemove={() => setPromo(null)} />
          <OrderDetails
            totals={totals}
            shippingKnown
            promo={promo}
            discountLabel={appliedCode ? `Discount (${appliedCode})` : "Discount"}
            shippingLabel={`Shipping (${international ? "international" : "United States"})`}
            testIdPrefix="demo"
            freeShippingNote={!international}
          />
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
            {/* Optional here: the provider's pay call needs only the card. */}
            <AddressFields
              idPrefix="demo"
              values={fields}
              onChange={set}
              region={international ? "international" : "us"}
              marked={false}
            />
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
            <HoldCountdown seconds={holdSeconds} extension={extension} extendedBy={extendedBy} />
            <DemoCardForm disabled={holdSeconds === 0} onPay={pay} />
          </section>
        </div>
      </div>
    </DemoFrame>
  );
}

/** The address to send: none when nothing was typed, so a card-only payment stays possible. */
function addressOf(fields: Fields): PayAddress | null {
  const typed = [fields.address, fields.apartment, fields.city, fields.state, fields.zipCode]
    .some((v) => v.trim() !== "");
  if (!typed) return null;
  if (!fields.country) missingField("demo-country", "Choose the country to ship to");
  if (!fields.address.trim()) missingField("demo-address", "Enter your address");
  if (!fields.city.trim()) missingField("demo-city", "Enter your city");
  return {
    street: fields.address.trim(),
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
