import { type FormEvent, useState } from "react";
import { toast } from "react-hot-toast";
import { ApiError } from "../../app/api.ts";
import { verifyPassword } from "./admin_api.ts";

/** Props of the password form. */
interface LoginFormProps {
  /** Called once the server accepted the password (the session cookie is set). */
  onSuccess: () => void;
}

/**
 * 'Admin Access': the password form in front of the dashboard (docs/product.md#admin-dashboard).
 */
export function LoginForm({ onSuccess }: LoginFormProps) {
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  // A wrong password belongs to the field: shown under it and marking it, the toast repeats it.
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      await verifyPassword(password);
      toast.success("Admin access granted");
      setPassword("");
      onSuccess();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        setError("Invalid password");
        toast.error("Invalid password");
      } else if (err instanceof ApiError && err.status === 429) toast.error(err.message);
      else toast.error("Authentication failed");
      // Back to the password, to try again (the pressed button was busy meanwhile).
      document.getElementById("admin-password")?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="page admin-login">
      <form className="card admin-login-card" onSubmit={submit}>
        <h1>Admin Access</h1>
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
      </form>
    </section>
  );
}
