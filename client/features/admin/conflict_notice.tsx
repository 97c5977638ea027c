import { useEffect, useRef, useState } from "react";
import { moveFocusWhenLost } from "../../app/move_focus.ts";

/**
 * Says that an edit was refused because the record changed since it was read (the server's
 * 409 sentence), and offers to load the record as it is now; the owner's unsaved changes are
 * then replaced by the current values, to be made again on top of them. Focused when shown, so
 * keyboard and screen reader users land on it.
 */
export function ConflictNotice(
  { message, what, onReload }: { message: string; what: string; onReload: () => Promise<void> },
) {
  const ref = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    ref.current?.focus();
  }, [message]);

  async function reload() {
    if (busy) return;
    setBusy(true);
    // Once reloaded, the notice goes with the focus in it: the focus moves to the first field of
    // the form it stood in, which now holds the record as it is.
    const form = ref.current?.closest("form, section");
    try {
      await onReload();
      moveFocusWhenLost(() => [
        form?.querySelector<HTMLElement>(
          "input:not([type=hidden]):not([type=file]), select, textarea",
        ) ?? null,
      ]);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div ref={ref} className="admin-conflict" role="alert" tabIndex={-1}>
      <p>{message}</p>
      <button
        type="button"
        className="button small-button"
        aria-disabled={busy || undefined}
        onClick={reload}
      >
        {busy ? "Reloading..." : `Reload ${what}`}
      </button>
    </div>
  );
}
