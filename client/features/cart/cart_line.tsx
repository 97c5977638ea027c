import { useState } from "react";
import type { PricedItem } from "../../../shared/api_types.ts";
import { formatCents } from "../../../shared/pricing.ts";
import { formatDollars } from "../../app/money.ts";
import { configurationText } from "../../app/order_line_text.ts";
import { shortStockText } from "./short_stock_text.ts";

/**
 * One cart line: image, name, configuration, price and the quantity control. A line the shop no
 * longer sells (a retired switch, a pack taken off sale) is marked unavailable with the server's
 * reason, and a price that changed since the line was added says from what to what.
 */
export function CartLine({ item, quantity, busy, onChange }: {
  item: PricedItem;
  quantity: number;
  busy: boolean;
  onChange: (quantity: number) => void;
}) {
  const [showSwitches, setShowSwitches] = useState(false);
  const configured = item.kind !== "product";
  // A pack sold with keycaps says so in its name already: the line below would repeat it.
  const config = item.kind === "product" && /keycaps/i.test(item.name)
    ? null
    : configurationText(item);
  const reason = item.unavailableReason;
  const noteId = `cart-line-note-${item.id}`;
  return (
    <li
      className={`cart-line card${reason ? " cart-line-unavailable" : ""}`}
      data-testid="cart-line"
      data-line-id={item.id}
      data-unavailable={reason ? "true" : undefined}
    >
      <img src={item.imageUrl} alt="" width="96" height="96" className="cart-line-image" />
      <div className="cart-line-body">
        <h2 className="cart-line-name">{item.name}</h2>
        {config && <p className="muted">{config}</p>}
        {configured && (
          <>
            <button
              type="button"
              className="link-button"
              aria-expanded={showSwitches}
              onClick={() => setShowSwitches((s) => !s)}
            >
              {showSwitches ? "Hide switches" : `Show ${item.switches.length} switches`}
            </button>
            {showSwitches && (
              <ul className="switch-chips">
                {item.switches.map((s) => <li key={s.id}>{s.brand} {s.name}</li>)}
              </ul>
            )}
          </>
        )}
        {reason && (
          <p id={noteId} className="error-text cart-line-note" data-testid="line-unavailable">
            <strong>Unavailable:</strong> {reason}
          </p>
        )}
        {!reason && !item.available && (
          <p className="warn-text" data-testid="line-short">{shortStockText(item.shortStock)}</p>
        )}
        {typeof item.priceChangedFrom === "number" && (
          <p className="warn-text cart-line-note" data-testid="line-price-changed">
            Price changed from {formatDollars(item.priceChangedFrom)} to{" "}
            {formatCents(item.priceCents)} since you added it.
          </p>
        )}
      </div>
      <div className="cart-line-side">
        <p className="price" aria-label={`Price ${formatCents(item.priceCents)} each`}>
          {formatCents(item.priceCents)}
        </p>
        <div className="quantity" role="group" aria-label={`Quantity of ${item.name}`}>
          <button
            type="button"
            className="qty-button"
            // Focusable while the change is saved, so a second press (ignored) keeps the place.
            aria-disabled={busy}
            onClick={() => {
              if (!busy) onChange(quantity - 1);
            }}
            aria-label={quantity === 1 ? `Remove ${item.name}` : `Decrease ${item.name}`}
          >
            {quantity === 1 ? "Remove" : "−"}
          </button>
          <span className="qty-value" data-testid="line-quantity" aria-live="polite">
            {quantity}
          </span>
          <button
            type="button"
            className="qty-button"
            aria-disabled={busy || !!reason}
            onClick={() => {
              if (!busy && !reason) onChange(quantity + 1);
            }}
            aria-label={`Increase ${item.name}`}
            aria-describedby={reason ? noteId : undefined}
          >
            +
          </button>
        </div>
      </div>
    </li>
  );
}
