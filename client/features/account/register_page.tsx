import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { toast } from "react-hot-toast";
import { EMAIL_MESSAGE, PASSWORD_MESSAGE, registerSchema } from "../../../shared/schemas.ts";
import { api, ApiError } from "../../app/api.ts";
import { useStore } from "../../app/store/store.ts";
import { AccountFieldset, AccountForm } from "./account_form.tsx";
import { useAccountFields } from "./use_account_fields.ts";
import type { RegisterInput } from "../../../shared/schemas.ts";

/** The fields this form has, checked and cleaned as POST /auth/register does. */
const registerFields = registerSchema.pick({ email: true, password: true });

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
 * checked here with the server's own schema and messages before sending. Success goes to /login.
 */
export function RegisterPage() {
  const navigate = useNavigate();
  const form = useAccountFields("register");
  const [working, setWorking] = useState(false);

  async function submit() {
    const clean = form.check(registerFields, form.values);
    if (!clean) return;
    setWorking(true);
    try {
      await api("/auth/register", {
        method: "POST",
        body: { ...clean, user_id: useStore.getState().userId } satisfies RegisterInput,
      });
      toast.success("Account created successfully! Please log in.");
      navigate("/login");
    } catch (err) {
      setWorking(false);
      if (err instanceof ApiError && err.status === 400) {
        // The server repeats the spec's field messages; show them where they belong.
        if (err.message === EMAIL_MESSAGE) form.showError("email", EMAIL_MESSAGE);
        else if (err.message === PASSWORD_MESSAGE) form.showError("password", PASSWORD_MESSAGE);
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
    <AccountForm
      title="Create account"
      submitLabel="Create account"
      workingLabel="Creating account..."
      working={working}
      onSubmit={submit}
      footer={
        <>
          Already have an account? <Link to="/login">Sign in</Link>
        </>
      }
    >
      <AccountFieldset
        form={form}
        passwordAutoComplete="new-password"
        passwordHint="At least 8 characters, with uppercase, lowercase and a number."
      />
    </AccountForm>
  );
}
