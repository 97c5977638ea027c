import { useEffect } from "react";
import { toast, Toaster, useToasterStore } from "react-hot-toast";
import { TIMINGS } from "../../../shared/policy.ts";

/** The toast area: 2 s by default, and never more than three on screen. */
export function Toasts() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    toasts.filter((t) => t.visible)
      .slice(TIMINGS.toastMaxVisible)
      .forEach((t) => toast.dismiss(t.id));
  }, [toasts]);
  return (
    <Toaster
      position="top-center"
      containerStyle={{ top: 72 }}
      toastOptions={{
        duration: TIMINGS.toastMs,
        className: "toast",
        style: { background: "var(--surface)", color: "var(--text)" },
      }}
    />
  );
}
