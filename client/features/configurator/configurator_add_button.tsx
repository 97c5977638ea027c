import { useEffect, useRef, useState } from "react";
import { TIMINGS } from "../../../shared/policy.ts";

/**
 * Add to Cart for a configured product. It behaves like the shop's AddToCartButton ('Adding...',
 * locked about a second after the request) but has a third state the shared button lacks: with
 * too few switches it looks disabled (aria-disabled) yet stays clickable, so the click can say
 * how many are missing (SPEC.md section 5). With too many it is truly disabled.
 */
export function ConfiguratorAddButton({ state, onShort, onAdd }: {
  state: "ready" | "short" | "over";
  onShort: () => void;
  onAdd: () => Promise<void>;
}) {
  const [adding, setAdding] = useState(false);
  const [locked, setLocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function click() {
    if (adding || locked) return;
    if (state === "short") {
      onShort();
      return;
    }
    setAdding(true);
    setLocked(true);
    try {
      await onAdd();
    } finally {
      setAdding(false);
      timer.current = setTimeout(() => setLocked(false), TIMINGS.addButtonLockMs);
    }
  }

  return (
    <button
      type="button"
      className="button add-to-cart configurator-add"
      disabled={state === "over" || adding || locked}
      aria-disabled={state === "short" || undefined}
      aria-busy={adding}
      onClick={click}
    >
      {adding ? "Adding..." : "Add to Cart"}
    </button>
  );
}
