import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { toast } from "react-hot-toast";
import { api, ApiError } from "../../app/api.ts";
import { TextField } from "../../app/components/text_field.tsx";
import { useStore } from "../../app/store/store.ts";
import {
  EMAIL_MESSAGE,
  isStrongPassword,
  PASSWORD_MESSAGE,
  stripTags,
} from "../../../shared/account_rules.ts";

/** Inline messages of the two fields. */
interface FieldErrors {
  email?: string;
  password?: string;
}

/** A quick shape check; the server's stricter check answers with the same message. */
const EMAIL_SHAPE = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** The spec's sign-up checks on the cleaned values (tags stripped, trimmed). */
function checkFields(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!EMAIL_SHAPE.test(email) || email.length > 254) errors.email = EMAIL_MESSAGE;
  if (!isStrongPassword(password)) errors.password = PASSWORD_MESSAGE;
  return errors;
}

/** The 'already created' toast with its 'go to login' action (docs/product.md#account-messages). */
function toastAccountExists(): void {
  toast.error(
    (t) => (
      <span className="toast-with-action">
        An account with this email is already created. Try to log in
        <Link to="/login" className="toast-action" onClick={() => toast.dismiss(t.id)}>
          go to login
        </Link>
      </span>
    ),
    { id: "account-exists", duration: 6000 },
  );
}

/**
 * /register (docs/product.md#accounts): email and password, cleaned of tags and spaces and
 * checked here with the spec's messages before sending. Success goes to /login.
 */
export function RegisterPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [working, setWorking] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (working) return;
    const cleanEmail = stripTags(email);
    const cleanPassword = stripTags(password);
    const found = checkFields(cleanEmail, cleanPassword);
    setErrors(found);
    if (found.email || found.password) {
      document.getElementById(found.email ? "register-email" : "register-password")?.focus();
      return;
    }
    setWorking(true);
    try {
      await api("/auth/register", {
        method: "POST",
        body: {
          email: cleanEmail,
          password: cleanPassword,
          user_id: useStore.getState().userId,
        },
      });
      toast.success("Account created successfully! Please log in.");
      navigate("/login");
    } catch (err) {
      setWorking(false);
      if (err instanceof ApiError && err.status === 400) {
        // The server repeats the spec's field messages; show them where they belong.
        if (err.message === EMAIL_MESSAGE) setErrors({ email: EMAIL_MESSAGE });
        else if (err.message === PASSWORD_MESSAGE) setErrors({ password: PASSWORD_MESSAGE });
        else if (/already exists/i.test(err.message)) toastAccountExists();
        else toast.error(err.message);
      } else if (err instanceof ApiError && err.status === 429) {
        toast.error(err.message);
      } else {
        toast.error("Failed to create account. Please try again.");
      }
    }
  }

  return (
    <section className="page account-page">
      <h1>Create account</h1>
      <form className="card account-form" onSubmit={submit} aria-label="Create account" noValidate>
        <TextField
          id="register-email"
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          value={email}
          error={errors.email}
          onChange={(value) => {
            setEmail(value);
            if (errors.email) setErrors((f) => ({ ...f, email: undefined }));
          }}
        />
        <TextField
          id="register-password"
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          hint="At least 8 characters, with uppercase, lowercase and a number."
          error={errors.password}
          onChange={(value) => {
            setPassword(value);
            if (errors.password) setErrors((f) => ({ ...f, password: undefined }));
          }}
        />
        <button type="submit" className="button account-submit" disabled={working}>
          {working ? "Creating account..." : "Create account"}
        </button>
        <p className="account-switch">
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      </form>
    </section>
  );
}
