import { useEffect, useRef } from "react";
import {
  resolveValue,
  type Toast,
  toast,
  ToastBar,
  Toaster,
  useToaster,
  useToasterStore,
} from "react-hot-toast";
import { TIMINGS } from "../../../shared/policy.ts";
import { announce } from "../announcer/announcements.ts";
import { textOf } from "../announcer/toast_text.ts";

/**
 * A toast's own region is inserted together with its text, which NVDA and JAWS do not speak
 * (react-hot-toast's issue #335), and would say it a second time where they do: it is drawn
 * silent, and the announcer, present since the first paint, says it.
 */
const SILENT = { role: "status", "aria-live": "off" } as const;

/**
 * The toast area: 2 s by default, errors 6 s (long enough to read a sentence), never more than
 * three on screen, at the bottom where the page keeps room for them (scroll-padding-bottom), so a
 * toast never covers what has the focus. Every toast is spoken once through the announcer.
 */
export function Toasts() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    toasts.filter((t) => t.visible)
      .slice(TIMINGS.toastMaxVisible)
      .forEach((t) => toast.dismiss(t.id));
  }, [toasts]);
  useSpokenToasts(toasts);
  const { handlers } = useToaster();
  return (
    // A toast's link reached with the keyboard keeps the toast: timers pause while focus is in.
    <div onFocus={handlers.startPause} onBlur={handlers.endPause}>
      <Toaster
        position="bottom-center"
        toastOptions={{
          duration: TIMINGS.toastMs,
          error: { duration: TIMINGS.errorToastMs },
          className: "toast",
          style: { background: "var(--surface)", color: "var(--text)" },
        }}
      >
        {(t) => (
          <ToastBar toast={{ ...t, ariaProps: SILENT }} position={t.position ?? "bottom-center"} />
        )}
      </Toaster>
    </div>
  );
}

/**
 * Says each toast as it is raised (errors assertively, the rest politely); a toast raised again
 * with the same id (a second refusal) is said again, a toast merely redrawn is not.
 */
function useSpokenToasts(toasts: Toast[]): void {
  const said = useRef(new Map<string, string>());
  useEffect(() => {
    const live = new Set<string>();
    for (const t of toasts) {
      live.add(t.id);
      if (!t.visible) continue;
      const text = textOf(resolveValue(t.message, t));
      const key = `${t.createdAt}:${text}`;
      if (!text || said.current.get(t.id) === key) continue;
      said.current.set(t.id, key);
      announce(text, t.type === "error" ? "assertive" : "polite");
    }
    for (const id of said.current.keys()) if (!live.has(id)) said.current.delete(id);
  }, [toasts]);
}
