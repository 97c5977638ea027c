import { useAdding } from "./use_adding.ts";
import { useAddedLink } from "./use_added_link.tsx";

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
  const added = useAddedLink();
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
        if (!off) added.track(() => run(onAdd));
      }}
      aria-busy={adding}
    >
      {outOfStock ? "Out of Stock" : adding ? "Adding..." : label}
    </button>
  );
  return <>{button}{added.link}</>;
}
