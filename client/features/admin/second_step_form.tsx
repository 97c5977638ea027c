import { type FormEvent, useState } from "react";
import { toast } from "react-hot-toast";
import { ApiError } from "../../app/api.ts";
import { finishWithCode, finishWithPasskey, isPasskeyCancelled } from "./second_factor_api.ts";

/** Props of the second step. */
interface SecondStepFormProps {
  /** The challenge the password step answered, and the methods the account has. */
  challenge: string;
  methods: string[];
  /** Called once the server opened the session. */
  onSuccess: () => void;
  /** Back to the password (the challenge died: too many wrong codes, or it expired). */
  onRestart: () => void;
}

/**
 * The sign-in's second step after a right password: a code from the authenticator app, a
 * passkey, or one of the recovery codes.
 */
export function SecondStepForm({ challenge, methods, onSuccess, onRestart }: SecondStepFormProps) {
  const [code, setCode] = useState("");
  const [recovery, setRecovery] = useState(!methods.includes("totp"));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function failed(err: unknown) {
    if (err instanceof ApiError && err.status === 401 && /password again/.test(err.message)) {
      toast.error(err.message);
      onRestart();
      return;
    }
    const message = err instanceof ApiError ? err.message : "Sign-in failed. Please try again.";
    setError(message);
    toast.error(message);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      await finishWithCode(challenge, code);
      toast.success("Admin access granted");
      onSuccess();
    } catch (err) {
      failed(err);
      document.getElementById("admin-second-factor-code")?.focus();
    } finally {
      setBusy(false);
    }
  }

  async function usePasskey() {
    if (busy) return;
    setBusy(true);
    try {
      await finishWithPasskey(challenge);
      toast.success("Admin access granted");
      onSuccess();
    } catch (err) {
      if (isPasskeyCancelled(err)) toast.error("The passkey was not used.");
      else failed(err);
    } finally {
      setBusy(false);
    }
  }

  const label = recovery ? "Recovery code" : "Code from your authenticator app";
  return (
    <section className="page admin-login">
      <form className="card admin-login-card" onSubmit={submit}>
        <h1>Second step</h1>
        <p className="muted">Your password was right. Now prove it is you.</p>
        {(methods.includes("totp") || methods.includes("recovery_code")) && (
          <div className="field">
            <label htmlFor="admin-second-factor-code">{label}</label>
            <input
              id="admin-second-factor-code"
              name="code"
              autoComplete="one-time-code"
              inputMode={recovery ? "text" : "numeric"}
              required
              value={code}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "admin-second-factor-error" : undefined}
              onChange={(e) => {
                setCode(e.target.value);
                setError(null);
              }}
            />
            {error && <p id="admin-second-factor-error" className="error-text small">{error}</p>}
          </div>
        )}
        <button type="submit" className="button" aria-disabled={busy} aria-busy={busy}>
          Verify
        </button>
        {methods.includes("passkey") && (
          <button
            type="button"
            className="button secondary"
            aria-disabled={busy}
            onClick={usePasskey}
          >
            Use a passkey
          </button>
        )}
        {methods.includes("recovery_code") && methods.includes("totp") && (
          <button
            type="button"
            className="button secondary"
            onClick={() => {
              setRecovery(!recovery);
              setCode("");
              setError(null);
            }}
          >
            {recovery ? "Use the app's code" : "Use a recovery code"}
          </button>
        )}
      </form>
    </section>
  );
}
