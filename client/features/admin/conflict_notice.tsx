import { useEffect, useRef, useState } from "react";

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
    setBusy(true);
    try {
      await onReload();
    } finally {
      setBusy(false);
    }
  }

  return (
    <div ref={ref} className="admin-conflict" role="alert" tabIndex={-1}>
      <p>{message}</p>
      <button type="button" className="button small-button" disabled={busy} onClick={reload}>
        {busy ? "Reloading..." : `Reload ${what}`}
      </button>
    </div>
  );
}
