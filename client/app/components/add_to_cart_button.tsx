import { useAdding } from "./use_adding.ts";

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
  const { adding, busy, run } = useAdding();
  const outOfStock = available === false;
  return (
    <button
      type="button"
      className={`button add-to-cart ${className ?? ""}`}
      disabled={outOfStock || disabled || busy || available === null}
      onClick={() => run(onAdd)}
      aria-busy={adding}
    >
      {outOfStock ? "Out of Stock" : adding ? "Adding..." : label}
    </button>
  );
}
