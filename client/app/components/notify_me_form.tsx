import { type FormEvent, useEffect, useState } from "react";
import { type StockAlertInput, stockAlertSchema } from "../../../shared/schemas.ts";
import type { StockAlertAnswer } from "../../../shared/api_types.ts";
import { api, ApiError } from "../api.ts";
import { TextField } from "./text_field.tsx";
import { fieldErrors } from "../field_errors.ts";
import { useStore } from "../store/store.ts";

/** What the shopper waits for. */
export type NotifyTarget = { switchId: number } | { productId: number };

/**
 * The "Email me when it's back" form: the shopper's email (a signed-in shopper's is filled in),
 * checked with the server's schema, then one email when it returns. An address other than a
 * signed-in shopper's own is emailed only once it confirms, from the link the shop sends it.
 */
export function NotifyMeForm({ target, name }: {
  target: NotifyTarget;
  /** What it is, for the form's name ("Lavender Dream"). */
  name: string;
}) {
  const signedInEmail = useStore((s) => s.email);
  const [email, setEmail] = useState(signedInEmail ?? "");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ email: string; checkInbox: boolean } | null>(null);
  const key = "switchId" in target ? `switch-${target.switchId}` : `product-${target.productId}`;
  const inputId = `notify-${key}-email`;
  // Opened by its button, which is gone now: the shopper's place moves to the field.
  useEffect(() => document.getElementById(inputId)?.focus(), [inputId]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const body = { email: email || signedInEmail || "", ...target } satisfies StockAlertInput;
    const checked = stockAlertSchema.safeParse(body);
    if (!checked.success) {
      setError(fieldErrors(checked.error).email ?? checked.error.issues[0].message);
      document.getElementById(inputId)?.focus();
      return;
    }
    setBusy(true);
    try {
      const answer = await api<StockAlertAnswer>("/api/stock-alerts", { method: "POST", body });
      setDone({ email: checked.data.email, checkInbox: answer.checkInbox });
    } catch (err) {
      setError(
        err instanceof ApiError && err.status < 500
          ? err.message
          : "That did not work. Please try again.",
      );
      // The field reads its message once it has the focus (the message is no alert).
      document.getElementById(inputId)?.focus();
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <p className="notify-me-done small" role="status">
        {done.checkInbox
          ? `Check your inbox: we email this address a link to confirm, and its newest link confirms everything it asked for. Once it is confirmed, we will email ${done.email} once when ${name} is back.`
          : `We will email ${done.email} once when ${name} is back.`}
      </p>
    );
  }
  return (
    <form
      className="notify-me"
      aria-label={`Email me when ${name} is back`}
      onSubmit={submit}
      noValidate
    >
      <div className="row">
        <TextField
          id={inputId}
          label="Your email"
          type="email"
          autoComplete="email"
          maxLength={254}
          value={email}
          error={error}
          onChange={(value) => {
            setEmail(value);
            setError(undefined);
          }}
        />
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? "Saving..." : "Notify me"}
        </button>
      </div>
      <p className="muted small">One email when it is back in stock; nothing else.</p>
    </form>
  );
}
