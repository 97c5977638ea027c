import { useState } from "react";
import type { PublicOrderView } from "../../../shared/api_types.ts";
import { formatCents } from "../../../shared/pricing.ts";
import { configurationText, keycapName } from "../../app/order_line_text.ts";

type OrderItem = PublicOrderView["items"][number];

/** The order's items, with one Show details / Hide details toggle for their configuration. */
export function OrderItems({ items }: { items: PublicOrderView["items"] }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="card order-items" aria-labelledby="order-items-title">
      <div className="row spread">
        <h2 id="order-items-title">Items</h2>
        <button
          type="button"
          className="link-button"
          aria-expanded={open}
          aria-controls="order-item-list"
          onClick={() => setOpen((o) => !o)}
        >
          {open ? "Hide details" : "Show details"}
        </button>
      </div>
      <ul id="order-item-list" className="order-item-list">
        {items.map((item, i) => (
          <li key={i} className="order-item" data-testid="order-item">
            <img src={item.imageUrl} alt="" width="64" height="64" />
            <div className="order-item-body">
              <p className="order-item-name">
                {item.name} <span className="muted">× {item.quantity}</span>
              </p>
              {open && <ItemDetails item={item} />}
            </div>
            <p className="order-item-price">{formatCents(item.priceCents * item.quantity)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ItemDetails({ item }: { item: OrderItem }) {
  // A pack names its keycaps here ('Transparent keycaps'), where the cart's line reads 'With
  // transparent keycaps'; a configured item reads as everywhere else.
  const config = item.size !== null
    ? configurationText(item)
    : item.keycaps && item.keycaps !== "none"
    ? keycapName(item.keycaps)
    : null;
  const facts = config ? [config] : [];
  facts.push(`${formatCents(item.priceCents)} each`);
  return (
    <div className="order-item-details" data-testid="order-item-details">
      <p className="muted small">{facts.join(" · ")}</p>
      {item.switches.length > 0 && (
        <ul className="order-switches" aria-label={`Switches in ${item.name}`}>
          {item.switches.map((s) => (
            <li key={s.id}>
              <img src={s.imageUrl} alt="" width="20" height="20" />
              {s.brand}: {s.name}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
