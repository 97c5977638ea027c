import { type FormEvent, useEffect, useState } from "react";
import { ApiError } from "../api.ts";
import { TextField } from "./text_field.tsx";
import { useStore } from "../store/store.ts";

/** What one "email me" sign-up form is about: how it checks, sends and says what happens next. */
export interface EmailSignUp {
  /** The field's id (unique on the page). */
  inputId: string;
  /** The form's accessible name ("Email me when Lavender Dream is back"). */
  label: string;
  /** The address as sent, or the sentence that refuses it (the server's own schema). */
  check(email: string): { ok: true; email: string } | { ok: false; error: string };
  /** Sends the sign-up; answers whether the address must confirm from its inbox first. */
  send(email: string): Promise<{ checkInbox: boolean }>;
  /** What the shopper reads once it is saved. */
  doneText(email: string, checkInbox: boolean): string;
  /** The line under the field: what will be sent. */
  promise: string;
}

/**
 * One "email me" sign-up (back in stock, a drop's opening): the shopper's email (a signed-in
 * shopper's filled in), checked before it is sent, a readable error beside the field, then what
 * happens next. An address other than a signed-in shopper's own is emailed only once it confirms,
 * from the link the shop sends it.
 */
export function EmailSignUpForm({ signUp }: { signUp: EmailSignUp }) {
  const signedInEmail = useStore((s) => s.email);
  const [email, setEmail] = useState(signedInEmail ?? "");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ email: string; checkInbox: boolean } | null>(null);
  const { inputId } = signUp;
  // Opened by its button, which is gone now: the shopper's place moves to the field.
  useEffect(() => document.getElementById(inputId)?.focus(), [inputId]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const checked = signUp.check(email || signedInEmail || "");
    if (!checked.ok) {
      setError(checked.error);
      document.getElementById(inputId)?.focus();
      return;
    }
    setBusy(true);
    try {
      const answer = await signUp.send(checked.email);
      setDone({ email: checked.email, checkInbox: answer.checkInbox });
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
        {signUp.doneText(done.email, done.checkInbox)}
      </p>
    );
  }
  return (
    <form className="notify-me" aria-label={signUp.label} onSubmit={submit} noValidate>
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
      <p className="muted small">{signUp.promise}</p>
    </form>
  );
}
