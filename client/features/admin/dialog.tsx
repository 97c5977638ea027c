import { type ReactNode, useEffect, useId, useRef } from "react";

/**
 * A modal dialog (the native `<dialog>` shown with showModal, so focus stays inside, the page
 * behind is inert and Escape closes it). It opens when mounted; closing it by Escape or the
 * Close button calls `onClose`, and focus then returns to what opened it.
 */
export function Dialog(
  { title, onClose, children, wide = false }: {
    title: string;
    onClose: () => void;
    children: ReactNode;
    wide?: boolean;
  },
) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`admin-dialog${wide ? " wide" : ""}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        // Escape: React unmounts the dialog, which closes it.
        e.preventDefault();
        onClose();
      }}
    >
      <div className="admin-dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="button secondary small-button" onClick={onClose}>
          Close
        </button>
      </div>
      {children}
    </dialog>
  );
}
