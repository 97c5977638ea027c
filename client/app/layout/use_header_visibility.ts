import { useEffect, useState } from "react";
import { TIMINGS } from "../../../shared/policy.ts";

/**
 * The top bar hides when the page scrolls down past the threshold and shows again on any upward
 * scroll or near the top.
 */
export function useHeaderVisibility(): boolean {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    let lastY = globalThis.scrollY;
    function onScroll() {
      const y = globalThis.scrollY;
      if (y <= TIMINGS.headerHideThresholdPx) setVisible(true);
      else if (y > lastY) setVisible(false);
      else if (y < lastY) setVisible(true);
      lastY = y;
    }
    globalThis.addEventListener("scroll", onScroll, { passive: true });
    return () => globalThis.removeEventListener("scroll", onScroll);
  }, []);
  return visible;
}
