import { type FormEvent, useState } from "react";
import { Link } from "react-router-dom";
import { toast } from "react-hot-toast";
import type { InviteAcceptView } from "../../../shared/api_types.ts";
import { PASSWORD_MESSAGE, registerSchema } from "../../../shared/schemas.ts";
import { api, ApiError } from "../../app/api.ts";

/**
 * /admin?token=: the invitation link's page. The helper chooses a password (the shop's password
 * rules); the link is then spent and they sign in on /admin with their email.
 */
export function InvitePage({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [joined, setJoined] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const checked = registerSchema.shape.password.safeParse(password);
    if (!checked.success) {
      setError(PASSWORD_MESSAGE);
      document.getElementById("invite-password")?.focus();
      return;
    }
    setBusy(true);
    try {
      const answer = await api<InviteAcceptView>("/api/admin/invite/accept", {
        method: "POST",
        body: { token, password },
      });
      setJoined(answer.email);
      toast.success("Password set");
    } catch (err) {
      const message = err instanceof ApiError && err.status < 500
        ? err.message
        : "The password could not be set. Please try again.";
      setError(message);
      toast.error(message);
    } finally {
      setBusy(false);
    }
  }

  if (joined) {
    return (
      <section className="page">
        <h1>You are in</h1>
        <div className="card" role="status">
          <p>
            Your password is set. Sign in to the dashboard with <strong>{joined}</strong>{" "}
            and this password.
          </p>
          <p>
            <Link to="/admin" className="button">Go to sign in</Link>
          </p>
        </div>
      </section>
    );
  }

  if (!token) {
    return (
      <section className="page">
        <h1>Join the dashboard</h1>
        <p className="card">
          This page needs the link from your invitation email. Ask the shop's owner to invite you
          again if you cannot find it.
        </p>
      </section>
    );
  }

  return (
    <section className="page">
      <form className="card" onSubmit={submit}>
        <h1>Join the dashboard</h1>
        <p className="muted">
          Choose the password you will sign in with, together with the email you were invited at.
        </p>
        <div className="field">
          <label htmlFor="invite-password">Choose a password</label>
          <input
            id="invite-password"
            type="password"
            name="password"
            autoComplete="new-password"
            maxLength={200}
            required
            value={password}
            aria-invalid={error ? true : undefined}
            aria-describedby={error
              ? "invite-password-error invite-password-hint"
              : "invite-password-hint"}
            onChange={(e) => {
              setPassword(e.target.value);
              setError(null);
            }}
          />
          <span id="invite-password-hint" className="muted small">{PASSWORD_MESSAGE}</span>
          {error && <p id="invite-password-error" className="error-text small">{error}</p>}
        </div>
        <button type="submit" className="button" aria-disabled={busy} aria-busy={busy}>
          Set password
        </button>
      </form>
    </section>
  );
}
