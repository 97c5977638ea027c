import { useState } from "react";
import { Link } from "react-router-dom";
import { toast } from "react-hot-toast";
import { formatCents } from "../../../shared/pricing.ts";
import { ApiError } from "../../app/api.ts";
import { removeCartItem, updateCartQuantity } from "../../app/cart/cart_service.ts";
import { moveFocusWhenLost } from "../../app/move_focus.ts";
import { CartLine } from "./cart_line.tsx";
import { lineAfterRemoving } from "./line_after_removing.ts";
import { blockedCheckoutReason } from "./blocked_reason.ts";
import { CheckoutButtons } from "./checkout_buttons.tsx";
import { useCart } from "../../app/cart/use_cart.ts";
import { useSpokenChange } from "../../app/announcer/use_spoken_change.ts";

/** The cart page: loading, empty or populated, with quantity controls and the checkout buttons. */
export function CartPage() {
  const { cartId, cart, setCart, loading } = useCart();
  const [busyLine, setBusyLine] = useState<string | null>(null);

  async function change(lineId: string, quantity: number) {
    setBusyLine(lineId);
    try {
      if (quantity > 0) {
        setCart(await updateCartQuantity(lineId, quantity));
        return;
      }
      const next = lineAfterRemoving(items.map(({ item }) => item.id), lineId);
      setCart(await removeCartItem(lineId));
      // The pressed Remove goes with its line: the focus moves to the same control of the line
      // that takes its place (or the one before), or to the heading once the cart is empty.
      moveFocusWhenLost(() => [
        next === null
          ? document.querySelector<HTMLElement>(".cart-page h1")
          : document.querySelector<HTMLElement>(
            `[data-line-id="${CSS.escape(next)}"] .quantity button`,
          ),
      ]);
    } catch (err) {
      console.error(err);
      // Stock limits are worth telling; other update errors are only logged, as the spec says.
      if (err instanceof ApiError) toast.error(err.message);
    } finally {
      setBusyLine(null);
    }
  }

  // A quantity changed or a line removed changes the subtotal: said, as a sighted shopper sees it.
  useSpokenChange(cart ? `Subtotal ${formatCents(cart.subtotalCents)}` : null);
  const items = cart?.items ?? [];
  const blockedReason = blockedCheckoutReason(
    items.filter(({ item }) => item.unavailableReason).map(({ item }) => item.name),
  );
  return (
    <section className="page cart-page">
      <h1>Cart</h1>
      {/* The layout stands while the cart loads (the server renders it so), so nothing moves. */}
      <div className="cart-layout">
        {/* Continue Shopping sits under the lines, not below the taller summary. */}
        <div className="cart-main">
          {loading
            ? <p className="loading">Loading cart...</p>
            : items.length === 0
            ? (
              <p className="empty-cart">
                Nothing here yet! <Link to="/shop">(fix it)</Link>
              </p>
            )
            : (
              <ul className="cart-lines">
                {items.map(({ item, quantity }) => (
                  <CartLine
                    key={item.id}
                    item={item}
                    quantity={quantity}
                    busy={busyLine === item.id}
                    onChange={(q) => change(item.id, q)}
                  />
                ))}
              </ul>
            )}
          <p className="cart-continue">
            <Link to="/shop" className="button secondary">Continue Shopping</Link>
          </p>
        </div>
        <aside className="card cart-summary" aria-label="Summary">
          <p className="row spread">
            <span>Subtotal</span>
            {/* Held in place while loading, at an empty cart's width, so nothing moves. */}
            <strong
              data-testid="cart-subtotal"
              style={loading ? { visibility: "hidden" } : undefined}
            >
              {formatCents(cart?.subtotalCents ?? 0)}
            </strong>
          </p>
          <p className="muted">Shipping: Calculated at checkout</p>
          <CheckoutButtons
            cartId={cartId}
            empty={loading || items.length === 0}
            blockedReason={blockedReason}
          />
          {items.length > 0 && !blockedReason && (
            <p className="muted small">
              Prefer to enter your address here? <Link to="/checkout">Pay on this site</Link>
            </p>
          )}
        </aside>
      </div>
    </section>
  );
}
