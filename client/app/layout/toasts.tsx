import { useEffect } from "react";
import { toast, Toaster, useToaster, useToasterStore } from "react-hot-toast";
import { TIMINGS } from "../../../shared/policy.ts";

/**
 * The toast area: 2 s by default, never more than three on screen, at the bottom where the page
 * keeps room for them (scroll-padding-bottom), so a toast never covers what has the focus.
 */
export function Toasts() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    toasts.filter((t) => t.visible)
      .slice(TIMINGS.toastMaxVisible)
      .forEach((t) => toast.dismiss(t.id));
  }, [toasts]);
  const { handlers } = useToaster();
  return (
    // A toast's link reached with the keyboard keeps the toast: timers pause while focus is in.
    <div onFocus={handlers.startPause} onBlur={handlers.endPause}>
      <Toaster
        position="bottom-center"
        toastOptions={{
          duration: TIMINGS.toastMs,
          className: "toast",
          style: { background: "var(--surface)", color: "var(--text)" },
        }}
      />
    </div>
  );
}
