import { useEffect, useState } from "react";
import { formatCents } from "../../../shared/pricing.ts";

/** Whether the element with this id is at least partly on screen. */
function useOnScreen(id: string): boolean {
  const [onScreen, setOnScreen] = useState(true);
  useEffect(() => {
    const target = document.getElementById(id);
    if (!target || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(([entry]) => setOnScreen(entry.isIntersecting));
    observer.observe(target);
    return () => observer.disconnect();
  }, [id]);
  return onScreen;
}

/**
 * A slim bar stuck to the bottom of a phone screen while the shopper scrolls the grid: how many
 * are picked, the total, and a jump back to the summary with the Add to Cart button. It hides
 * while the summary itself is on screen (so it never covers the button) and on desktop (CSS),
 * where the summary stays in view.
 */
export function SelectionBar({ count, limit, totalCents, summaryId }: {
  count: number;
  limit: number;
  totalCents: number;
  summaryId: string;
}) {
  const summaryVisible = useOnScreen(summaryId);
  function review() {
    const summary = document.getElementById(summaryId);
    summary?.scrollIntoView({ block: "center" });
    summary?.querySelector<HTMLElement>(".configurator-add")?.focus({ preventScroll: true });
  }
  return (
    <div
      className="selection-bar"
      data-over={count > limit || undefined}
      hidden={summaryVisible}
    >
      <span>
        <strong>{count}/{limit}</strong> picked · {formatCents(totalCents)}
      </span>
      <button type="button" className="button" onClick={review}>Review</button>
    </div>
  );
}
