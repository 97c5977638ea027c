import { lazy, Suspense, useState } from "react";
import type { NotifyTarget } from "./notify_me_form.tsx";

export type { NotifyTarget };

/** The form and its schema check load when first asked for: most visitors never open it. */
const NotifyMeForm = lazy(async () => ({
  default: (await import("./notify_me_form.tsx")).NotifyMeForm,
}));

/**
 * "Email me when it's back" for something out of stock: a button that opens the sign-up form
 * (server/routes/stock_alerts.ts).
 */
export function NotifyMe({ target, name, compact = false }: {
  target: NotifyTarget;
  /** What it is, for the button's and the form's names ("Lavender Dream"). */
  name: string;
  /** A smaller button (switch cards in the configurators). */
  compact?: boolean;
}) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <button
        type="button"
        className={`button secondary notify-me-open${compact ? " small-button" : ""}`}
        onClick={() => setOpen(true)}
      >
        Email me when it's back<span className="visually-hidden">: {name}</span>
      </button>
    );
  }
  return (
    <Suspense fallback={<p className="small" role="status">Loading...</p>}>
      <NotifyMeForm target={target} name={name} />
    </Suspense>
  );
}
