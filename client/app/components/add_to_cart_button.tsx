import { useState } from "react";
import { Link } from "react-router-dom";
import { useStore } from "../store/store.ts";
import { useAdding } from "./use_adding.ts";

/**
 * The add-to-cart button of every product: 'Adding...' while the request runs, locked for about a
 * second after it ends (so a double click cannot add twice), and 'Out of Stock' when unavailable.
 * It stays focusable throughout, so a keyboard user keeps their place.
 */
export function AddToCartButton(
  { available, onAdd, label = "Add to Cart", disabled = false, className }: {
    /** null while availability is still being checked. */
    available: boolean | null;
    onAdd: () => Promise<void>;
    label?: string;
    disabled?: boolean;
    className?: string;
  },
) {
  const { adding, busy, run } = useAdding();
  // Once something was added here, the way to the cart is offered here too, not only in a toast
  // that is gone before a keyboard user reaches it.
  const [added, setAdded] = useState(false);
  const outOfStock = available === false;
  // aria-disabled rather than disabled: a pressed button keeps the focus while it works or turns
  // to Out of Stock (a natively disabled one drops it to the page), and presses are ignored.
  const off = outOfStock || disabled || busy || available === null;
  const button = (
    <button
      type="button"
      className={`button add-to-cart ${className ?? ""}`}
      aria-disabled={off}
      onClick={() => {
        if (off) return;
        const before = useStore.getState().badgeCount;
        run(onAdd).then(() => {
          if (useStore.getState().badgeCount > before) setAdded(true);
        });
      }}
      aria-busy={adding}
    >
      {outOfStock ? "Out of Stock" : adding ? "Adding..." : label}
    </button>
  );
  return added
    ? (
      <>
        {button}
        <Link to="/cart" className="see-cart-link">See your cart</Link>
      </>
    )
    : button;
}
