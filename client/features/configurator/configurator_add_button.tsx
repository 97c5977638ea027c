import { useAdding } from "../../app/components/use_adding.ts";
import { useAddedLink } from "../../app/components/use_added_link.tsx";

/**
 * Add to Cart for a configured product. It behaves like the shop's AddToCartButton ('Adding...',
 * locked about a second after the request) but has a third state the shared button lacks: with
 * too few switches it looks disabled (aria-disabled) yet stays clickable, so the click can say
 * how many are missing (docs/decisions.md#configurator-add-button). With too many it is truly
 * disabled.
 */
export function ConfiguratorAddButton({ state, onShort, onAdd }: {
  state: "ready" | "short" | "over";
  onShort: () => void;
  onAdd: () => Promise<void>;
}) {
  const { adding, busy, run } = useAdding();
  const added = useAddedLink();

  function click() {
    if (busy) return;
    if (state === "short") onShort();
    else added.track(() => run(onAdd));
  }

  const button = (
    <button
      type="button"
      className="button add-to-cart configurator-add"
      disabled={state === "over"}
      // Short or busy, it stays focusable (presses are ignored or explained): after an add the
      // keyboard user is still on it.
      aria-disabled={state === "short" || busy || undefined}
      aria-busy={adding}
      onClick={click}
    >
      {adding ? "Adding..." : "Add to Cart"}
    </button>
  );
  return <>{button}{added.link}</>;
}
