import { useEffect, useState } from "react";
import { secondsUntil } from "./drop_clock.ts";

/**
 * Whole seconds until `deadline` on the server's clock (the device's plus `offsetMs`), kept
 * current. Until the offset is measured (on the server, and at hydration) it is `initial` (what
 * the server computed from its own time), so the server's HTML and the first render agree.
 */
export function useSecondsUntil(
  deadline: string | null,
  offsetMs: number | null,
  initial: number,
): number {
  const [seconds, setSeconds] = useState(initial);
  useEffect(() => {
    if (deadline === null || offsetMs === null) return;
    const update = () => {
      const left = secondsUntil(deadline, offsetMs, Date.now());
      setSeconds(left);
      return left;
    };
    if (update() === 0) return;
    // More often than once a second, so a late timer never makes the clock skip a second.
    const timer = setInterval(() => {
      if (update() === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [deadline, offsetMs]);
  // Until the offset is known the server's own figure stands (it may change as an answer arrives).
  return offsetMs === null || deadline === null ? initial : seconds;
}
