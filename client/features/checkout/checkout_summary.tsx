import { type FormEvent, useState } from "react";
import { Link } from "react-router-dom";
import type { CartView } from "../../../shared/api_types.ts";
import { FREE_SHIPPING_THRESHOLD_CENTS, POLICY, type Totals } from "../../../shared/policy.ts";
import { formatCents } from "../../../shared/pricing.ts";
import { configurationText, type LineConfiguration } from "../../app/order_line_text.ts";
import { useSpokenChange } from "../../app/announcer/use_spoken_change.ts";
import { moveFocusWhenLost } from "../../app/move_focus.ts";

/** A promo code the server accepted: a percentage off the subtotal, or an amount off it. */
export interface AppliedPromo {
  code: string;
  percentOff: number | null;
  amountOffCents: number | null;
}

/** What a code takes off, as the summary says it: "16% off" or "$5.00 off". */
export function promoOffText(promo: AppliedPromo): string {
  return promo.amountOffCents
    ? `${formatCents(promo.amountOffCents)} off`
    : `${promo.percentOff ?? 0}% off`;
}

/**
 * The order summary of /checkout: the cart's lines, the promo code, the 'Order Details' box and
 * the terms checkbox (docs/product.md#checkout-page).
 */
export function CheckoutSummary({
  cart,
  totals,
  shippingKnown,
  promo,
  onApplyPromo,
  onRemovePromo,
  termsAccepted,
  onTermsChange,
}: {
  cart: CartView;
  totals: Totals;
  /** Whether a full ZIP code was entered long enough ago to show the shipping estimate. */
  shippingKnown: boolean;
  promo: AppliedPromo | null;
  /** Validates a code; resolves to an error message, or null when it was applied. */
  onApplyPromo: (code: string) => Promise<string | null>;
  onRemovePromo: () => void;
  termsAccepted: boolean;
  onTermsChange: (accepted: boolean) => void;
}) {
  return (
    <aside className="card checkout-summary" aria-labelledby="summary-title">
      <h2 id="summary-title">Order summary</h2>
      <ul className="summary-lines">
        {cart.items.map(({ item, quantity }) => (
          <SummaryLine key={item.id} item={item} quantity={quantity} testId="summary-line" />
        ))}
      </ul>
      <p className="small">
        <Link to="/cart">Edit cart</Link>
      </p>
      <PromoCodeForm promo={promo} onApply={onApplyPromo} onRemove={onRemovePromo} />
      <OrderDetails totals={totals} shippingKnown={shippingKnown} promo={promo} />
      <label className="checkbox terms-checkbox">
        <input
          type="checkbox"
          checked={termsAccepted}
          onChange={(e) => onTermsChange(e.target.checked)}
        />
        <span>
          I agree to the{" "}
          {/* A new tab, so reading the terms does not throw away the filled-in form. */}
          <a href="/tos" target="_blank" rel="noopener">terms of service</a>
        </span>
      </label>
      <p className="muted small policy-note">{POLICY.returns}</p>
    </aside>
  );
}

/**
 * One line of an order summary: image, name, configuration, quantity and the line's price. The
 * demo payment page lists its session's order with it too, under its own test id.
 */
export function SummaryLine({ item, quantity, testId }: {
  item: LineConfiguration & { name: string; imageUrl: string; priceCents: number };
  quantity: number;
  testId: string;
}) {
  const config = configurationText(item);
  return (
    <li className="summary-line" data-testid={testId}>
      <img src={item.imageUrl} alt="" width="56" height="56" />
      <div>
        <p className="summary-line-name">{item.name}</p>
        {config && <p className="muted small">{config}</p>}
        <p className="muted small">Qty {quantity}</p>
      </div>
      <p className="summary-line-price">{formatCents(item.priceCents * quantity)}</p>
    </li>
  );
}

/**
 * The promo code field and its Apply button, or the applied code with a way to remove it. The
 * demo payment page uses it too.
 */
export function PromoCodeForm({ promo, onApply, onRemove }: {
  promo: AppliedPromo | null;
  onApply: (code: string) => Promise<string | null>;
  onRemove: () => void;
}) {
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function apply(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) {
      setError("Enter a promo code");
      return;
    }
    setBusy(true);
    const failed = await onApply(code.trim());
    setError(failed);
    setBusy(false);
    // Applied, the form gives way to the code and its Remove button: the focus goes there once
    // the render has taken the form away (a frame's wait was not enough on a busy machine).
    if (!failed) moveFocusWhenLost(() => [document.getElementById("promo-remove")]);
    else document.getElementById("promo-code")?.focus();
  }

  if (promo) {
    return (
      <div className="promo-applied" role="status">
        <span>
          <strong>{promo.code}</strong> applied: {promoOffText(promo)}
        </span>
        <button
          id="promo-remove"
          type="button"
          className="link-button"
          onClick={() => {
            setCode("");
            onRemove();
            // Removed, the code's field comes back: the focus goes to it.
            moveFocusWhenLost(() => [document.getElementById("promo-code")]);
          }}
        >
          Remove<span className="visually-hidden">{` promo code ${promo.code}`}</span>
        </button>
      </div>
    );
  }
  return (
    <form className="promo-form" onSubmit={apply} noValidate>
      <label htmlFor="promo-code">Promo code</label>
      <div className="promo-row">
        <input
          id="promo-code"
          name="promo"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          value={code}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "promo-error" : undefined}
          onChange={(e) => {
            setCode(e.target.value);
            setError(null);
          }}
        />
        <button type="submit" className="button secondary" aria-disabled={busy}>
          {busy ? "Applying..." : "Apply"}
        </button>
      </div>
      {error && <p id="promo-error" className="error-text small" role="alert">{error}</p>}
    </form>
  );
}

/**
 * The totals box: subtotal, discount, shipping, tax and total. The demo payment page shows its
 * order's totals with it too, under its own test ids and with the shipping region named.
 */
export function OrderDetails({
  totals,
  shippingKnown,
  promo,
  discountLabel = promo
    ? `Discount (${promo.code}${promo.amountOffCents ? "" : `, ${promo.percentOff}%`})`
    : "Discount",
  shippingLabel = "Shipping",
  testIdPrefix = "summary",
  freeShippingNote = true,
}: {
  totals: Totals;
  shippingKnown: boolean;
  promo: AppliedPromo | null;
  discountLabel?: string;
  shippingLabel?: string;
  testIdPrefix?: string;
  /** Whether to mention the free US shipping threshold (not abroad, where it does not apply). */
  freeShippingNote?: boolean;
}) {
  const testId = (name: string) => `${testIdPrefix}-${name}`;
  // Before the ZIP is known the total leaves shipping out, and says so.
  const total = shippingKnown ? totals.totalCents : totals.totalCents - totals.shippingCents;
  const totalLabel = shippingKnown ? "Total" : "Total before shipping";
  // A promo, the ZIP's shipping or the server's totals change what will be charged: said.
  useSpokenChange(`${totalLabel} ${formatCents(total)}`);
  return (
    <section className="order-details" aria-labelledby="order-details-title">
      <h3 id="order-details-title">Order Details</h3>
      <dl>
        <div>
          <dt>Subtotal</dt>
          <dd data-testid={testId("subtotal")}>{formatCents(totals.subtotalCents)}</dd>
        </div>
        {totals.discountCents > 0 && (
          <div className="discount-row">
            <dt>{discountLabel}</dt>
            <dd data-testid={testId("discount")}>-{formatCents(totals.discountCents)}</dd>
          </div>
        )}
        <div>
          <dt>{shippingLabel}</dt>
          <dd data-testid={testId("shipping")} aria-live="polite">
            {!shippingKnown
              ? "Enter your ZIP code"
              : totals.shippingCents === 0
              ? "Free"
              : formatCents(totals.shippingCents)}
          </dd>
        </div>
        <div>
          <dt>Estimated tax</dt>
          <dd data-testid={testId("tax")}>{formatCents(totals.taxCents)}</dd>
        </div>
        <div className="total-row">
          <dt>{totalLabel}</dt>
          <dd data-testid={testId("total")}>{formatCents(total)}</dd>
        </div>
      </dl>
      {freeShippingNote && totals.shippingCents > 0 && (
        <p className="muted small">
          Free US shipping on orders of {formatCents(FREE_SHIPPING_THRESHOLD_CENTS)}{" "}
          or more after discounts.
        </p>
      )}
    </section>
  );
}
