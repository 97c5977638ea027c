import { useEffect, useRef, useState } from "react";
import { TIMINGS } from "../../../shared/policy.ts";
import { useStore } from "../store/store.ts";

/** Cart icon with the sum of quantities; the badge pulses briefly whenever that sum changes. */
export function CartIcon({ badgeTestId = "cart-badge" }: { badgeTestId?: string }) {
  const count = useStore((s) => s.badgeCount);
  const [pulsing, setPulsing] = useState(false);
  const previous = useRef(count);
  useEffect(() => {
    if (count === previous.current) return;
    previous.current = count;
    if (count <= 0) return;
    setPulsing(true);
    const timer = setTimeout(() => setPulsing(false), TIMINGS.badgePulseMs);
    return () => clearTimeout(timer);
  }, [count]);
  return (
    <span className="cart-icon">
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <path
          fill="currentColor"
          d="M7 18a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm10 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4zM7.2 14h9.9a2 2 0 0 0 1.8-1.1L22 6H5.2L4.3 4H1v2h2l3.6 7.6L5.2 16A2 2 0 0 0 7 19h12v-2H7.4z"
        />
      </svg>
      {count > 0 && (
        <span className={pulsing ? "badge pulse" : "badge"} data-testid={badgeTestId}>
          {count}
        </span>
      )}
    </span>
  );
}
