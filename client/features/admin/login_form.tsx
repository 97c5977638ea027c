import { type FormEvent, useState } from "react";
import { toast } from "react-hot-toast";
import { ApiError } from "../../app/api.ts";
import { moveFocusWhenLost } from "../../app/move_focus.ts";
import { verifyPassword } from "./admin_api.ts";
import { isPasskeyCancelled, signInWithPasskey } from "./second_factor_api.ts";
import { SecondStepForm } from "./second_step_form.tsx";

/** Props of the password form. */
interface LoginFormProps {
  /** Called once the server accepted the password (the session cookie is set). */
  onSuccess: () => void;
}

/**
 * 'Admin Access': the password form in front of the dashboard (docs/product.md#admin-dashboard).
 * The owner leaves the email empty (their password is the shop's admin password); a staff member
 * gives the email they were invited with.
 */
export function LoginForm({ onSuccess }: LoginFormProps) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  // A wrong password belongs to the field: shown under it and marking it, the toast repeats it.
  const [error, setError] = useState<string | null>(null);
  // After a right password, when the account has a second factor: the step that finishes it.
  const [second, setSecond] = useState<{ challenge: string; methods: string[] } | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const answer = await verifyPassword(password, email);
      setPassword("");
      if (!answer.ok) {
        setSecond(answer.secondFactor);
        // The password form is replaced: the focus goes to the step's first field.
        moveFocusWhenLost(() => [
          document.getElementById("admin-second-factor-code") ??
            document.querySelector<HTMLElement>(".admin-login h1"),
        ]);
        return;
      }
      toast.success("Admin access granted");
      onSuccess();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        // The server's words: "Invalid password", or for a member "Invalid email or password".
        setError(err.message);
        toast.error(err.message);
      } else if (err instanceof ApiError && err.status === 400) {
        setError(err.message);
        toast.error(err.message);
      } else if (err instanceof ApiError && err.status === 429) toast.error(err.message);
      else toast.error("Authentication failed");
      // Back to the password, to try again (the pressed button was busy meanwhile).
      document.getElementById("admin-password")?.focus();
    } finally {
      setBusy(false);
    }
  }

  async function passkey() {
    if (busy) return;
    setBusy(true);
    try {
      await signInWithPasskey();
      toast.success("Admin access granted");
      onSuccess();
    } catch (err) {
      if (isPasskeyCancelled(err)) toast.error("The passkey was not used.");
      else toast.error(err instanceof ApiError ? err.message : "Sign-in failed");
    } finally {
      setBusy(false);
    }
  }

  if (second) {
    return (
      <SecondStepForm
        challenge={second.challenge}
        methods={second.methods}
        onSuccess={onSuccess}
        onRestart={() => {
          setSecond(null);
          moveFocusWhenLost(() => [document.getElementById("admin-password")]);
        }}
      />
    );
  }

  return (
    <section className="page admin-login">
      <form className="card admin-login-card" onSubmit={submit}>
        <h1>Admin Access</h1>
        <div className="field">
          <label htmlFor="admin-email">Staff email</label>
          <input
            id="admin-email"
            type="email"
            name="email"
            autoComplete="username"
            maxLength={254}
            value={email}
            aria-describedby="admin-email-hint"
            onChange={(e) => {
              setEmail(e.target.value);
              setError(null);
            }}
          />
          <span id="admin-email-hint" className="muted small">Leave empty for the owner.</span>
        </div>
        <div className="field">
          <label htmlFor="admin-password">Enter admin password</label>
          <input
            id="admin-password"
            type="password"
            name="password"
            autoComplete="current-password"
            placeholder="Enter admin password"
            required
            value={password}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "admin-password-error" : undefined}
            onChange={(e) => {
              setPassword(e.target.value);
              setError(null);
            }}
          />
          {error && <p id="admin-password-error" className="error-text small">{error}</p>}
        </div>
        <button type="submit" className="button" aria-disabled={busy} aria-busy={busy}>
          Access Admin Panel
        </button>
        <button
          type="button"
          className="button secondary"
          aria-disabled={busy}
          onClick={passkey}
        >
          Sign in with a passkey
        </button>
      </form>
    </section>
  );
}
