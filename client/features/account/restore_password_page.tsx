import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { toast } from "react-hot-toast";
import {
  PASSWORD_MESSAGE,
  type PasswordResetConfirmInput,
  passwordResetConfirmSchema,
  type PasswordResetInput,
  passwordResetSchema,
} from "../../../shared/schemas.ts";
import { api, ApiError } from "../../app/api.ts";
import { TextField } from "../../app/components/text_field.tsx";
import { AccountForm } from "./account_form.tsx";
import { useAccountFields } from "./use_account_fields.ts";

/**
 * /restore-password (docs/decisions.md#password-reset): without a token it asks for the email and
 * sends a link; with `?token=` (the link) it sets a new password, which signs the account out
 * everywhere.
 */
export function RestorePasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  return token ? <NewPasswordForm token={token} /> : <ResetRequestForm />;
}

function ResetRequestForm() {
  const form = useAccountFields("reset");
  const [working, setWorking] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit() {
    const checked = form.check(passwordResetSchema, { email: form.values.email });
    if (!checked) return;
    setWorking(true);
    try {
      await api("/auth/password-reset", {
        method: "POST",
        body: { email: form.values.email.trim() } satisfies PasswordResetInput,
      });
      setSentTo(checked.email);
    } catch (err) {
      toast.error(
        err instanceof ApiError && err.status < 500
          ? err.message
          : "The link could not be sent. Please try again.",
      );
    } finally {
      setWorking(false);
    }
  }

  if (sentTo) {
    return (
      <section className="page account-page">
        <h1>Check your email</h1>
        <div className="card account-form" role="status">
          <p>
            If an account exists for{" "}
            <strong>{sentTo}</strong>, we have sent it a link to choose a new password. The link
            works once, for one hour.
          </p>
          <p className="muted small">
            Nothing after a few minutes? Look in your spam folder, or ask again.
          </p>
          <p className="account-switch">
            <Link to="/login">Back to sign in</Link>
          </p>
        </div>
      </section>
    );
  }

  return (
    <AccountForm
      title="Restore password"
      submitLabel="Email me a link"
      workingLabel="Sending..."
      working={working}
      onSubmit={submit}
      footer={<Link to="/login">Back to sign in</Link>}
    >
      <p>Enter the email of your account and we will send you a link to choose a new password.</p>
      <TextField
        id={form.idOf("email")}
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        required
        maxLength={254}
        value={form.values.email}
        error={form.errors.email}
        onChange={(value) => form.change("email", value)}
      />
    </AccountForm>
  );
}

/** Whether a refusal is about the new password (a field issue) rather than the link. */
function aboutPassword(err: ApiError): boolean {
  const issues = (err.body as { issues?: { path: string }[] } | null)?.issues ?? [];
  return issues.some((issue) => issue.path === "password");
}

function NewPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const form = useAccountFields("new-password");
  const [working, setWorking] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);

  async function submit() {
    const body = { token, password: form.values.password };
    if (!form.check(passwordResetConfirmSchema.pick({ password: true }), body)) return;
    setWorking(true);
    try {
      await api("/auth/password-reset/confirm", {
        method: "POST",
        body: body satisfies PasswordResetConfirmInput,
      });
      toast.success("Your password is changed. Sign in with the new one.");
      navigate("/login");
    } catch (err) {
      setWorking(false);
      if (err instanceof ApiError && err.status === 400 && aboutPassword(err)) {
        form.showError("password", err.message);
      } else if (err instanceof ApiError && err.status === 400) {
        setFailed(err.message);
      } else toast.error("The password could not be changed. Please try again.");
    }
  }

  if (failed) {
    return (
      <section className="page account-page">
        <h1>This link no longer works</h1>
        <div className="card account-form" role="alert">
          <p>{failed}</p>
          <p className="account-switch">
            <Link to="/restore-password">Ask for a new link</Link>
          </p>
        </div>
      </section>
    );
  }

  return (
    <AccountForm
      title="Choose a new password"
      submitLabel="Set new password"
      workingLabel="Saving..."
      working={working}
      onSubmit={submit}
      footer={<Link to="/restore-password">Ask for a new link</Link>}
    >
      <TextField
        id={form.idOf("password")}
        name="password"
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        hint={PASSWORD_MESSAGE}
        value={form.values.password}
        error={form.errors.password}
        onChange={(value) => form.change("password", value)}
      />
      <p className="muted small">Every device signed in to your account will be signed out.</p>
    </AccountForm>
  );
}
