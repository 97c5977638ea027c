import { type FormEvent, useEffect, useState } from "react";
import { stockAlertSchema } from "../../../shared/schemas.ts";
import { ApiError } from "../api.ts";
import { TextField } from "../components/text_field.tsx";
import { useStore } from "../store/store.ts";
import { notifyDropOpening } from "./drop_api.ts";

/** The address checked as every sign-up for a shopper's mail is (back-in-stock's own rule). */
const emailSchema = stockAlertSchema.shape.email;

/**
 * "Email me when it opens": the shopper's email (a signed-in shopper's filled in), one email at
 * the opening. As with back-in-stock mail, an address other than a signed-in shopper's own is
 * written to only once it confirms from the link the shop sends it.
 */
export function DropNotifyForm({ dropId, name }: { dropId: string; name: string }) {
  const signedInEmail = useStore((s) => s.email);
  const [email, setEmail] = useState(signedInEmail ?? "");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ email: string; checkInbox: boolean } | null>(null);
  const inputId = `drop-notify-${dropId}-email`;
  // Opened by its button, which is gone now: the shopper's place moves to the field.
  useEffect(() => document.getElementById(inputId)?.focus(), [inputId]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const checked = emailSchema.safeParse((email || signedInEmail || "").trim());
    if (!checked.success) {
      setError(checked.error.issues[0].message);
      document.getElementById(inputId)?.focus();
      return;
    }
    setBusy(true);
    try {
      const answer = await notifyDropOpening(dropId, checked.data);
      setDone({ email: checked.data, checkInbox: answer.checkInbox });
    } catch (err) {
      setError(
        err instanceof ApiError && err.status < 500
          ? err.message
          : "That did not work. Please try again.",
      );
      document.getElementById(inputId)?.focus();
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <p className="notify-me-done small" role="status">
        {done.checkInbox
          ? `Check your inbox: we email this address a link to confirm. Once it is confirmed, we will email ${done.email} once when ${name} opens.`
          : `We will email ${done.email} once when ${name} opens.`}
      </p>
    );
  }
  return (
    <form
      className="notify-me"
      aria-label={`Email me when ${name} opens`}
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
      <p className="muted small">One email when the drop opens; nothing else.</p>
    </form>
  );
}
