import { type ReactNode, useState } from "react";
import { Link } from "react-router-dom";
import { useStore } from "../store/store.ts";

/**
 * After an add from a button, the toast's way to the cart is offered beside the button too (a
 * toast is gone before a keyboard user reaches it): `track` runs an add and notes whether the
 * cart grew; `link` is then the "See your cart" link.
 */
export function useAddedLink(): {
  track: (add: () => Promise<void>) => void;
  link: ReactNode;
} {
  const [added, setAdded] = useState(false);
  return {
    track: (add) => {
      const before = useStore.getState().badgeCount;
      void add().then(() => {
        if (useStore.getState().badgeCount > before) setAdded(true);
      });
    },
    link: added ? <Link to="/cart" className="see-cart-link">See your cart</Link> : null,
  };
}
