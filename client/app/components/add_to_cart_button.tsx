import { useEffect, useRef, useState } from "react";
import { TIMINGS } from "../../../shared/policy.ts";

/**
 * The add-to-cart button of every product: 'Adding...' while the request runs, locked for about a
 * second after it ends (so a double click cannot add twice), and 'Out of Stock' when unavailable.
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
  const [adding, setAdding] = useState(false);
  const [locked, setLocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function click() {
    if (adding || locked) return;
    setAdding(true);
    setLocked(true);
    try {
      await onAdd();
    } finally {
      setAdding(false);
      timer.current = setTimeout(() => setLocked(false), TIMINGS.addButtonLockMs);
    }
  }

  const outOfStock = available === false;
  return (
    <button
      type="button"
      className={`button add-to-cart ${className ?? ""}`}
      disabled={outOfStock || disabled || adding || locked || available === null}
      onClick={click}
      aria-busy={adding}
    >
      {outOfStock ? "Out of Stock" : adding ? "Adding..." : label}
    </button>
  );
}
