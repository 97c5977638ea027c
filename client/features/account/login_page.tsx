import { useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { toast } from "react-hot-toast";
import { loginSchema } from "../../../shared/schemas.ts";
import { api, ApiError } from "../../app/api.ts";
import { loadCart } from "../../app/cart/cart_service.ts";
import { useStore } from "../../app/store/store.ts";
import { AccountFieldset, AccountForm } from "./account_form.tsx";
import { useAccountFields } from "./use_account_fields.ts";
import type { LoginAnswer } from "../../../shared/api_types.ts";
import type { LoginInput } from "../../../shared/schemas.ts";

/** The fields this form has, checked as POST /auth/login checks them. */
const loginFields = loginSchema.pick({ email: true, password: true });

/** The toast of a failed sign-in: the server's words for a wrong password or too many tries. */
function loginFailure(err: unknown): string {
  if (err instanceof ApiError && (err.status === 401 || err.status === 429)) return err.message;
  return "Login failed. Please try again.";
}

/**
 * /login (docs/product.md#accounts): email and password. Success stores the session, switches
 * to the cart the server joined (the guest cart follows the shopper into the account), refreshes
 * the badge and goes home.
 */
export function LoginPage() {
  const navigate = useNavigate();
  const form = useAccountFields("login");
  const [working, setWorking] = useState(false);

  async function submit() {
    const { email, password } = form.values;
    if (!form.check(loginFields, { email, password })) return;
    setWorking(true);
    try {
      const answer = await api<LoginAnswer>("/auth/login", {
        method: "POST",
        // Sent as typed: the server cleans both the way the check above did.
        body: {
          email: email.trim(),
          password,
          cartId: useStore.getState().cartId,
        } satisfies LoginInput,
      });
      const state = useStore.getState();
      state.signIn(answer.userId, answer.token, answer.email);
      state.setCartId(answer.cartId);
      await loadCart();
      navigate("/");
    } catch (err) {
      // A wrong email or password belongs to the fields: shown by them, the toast repeats it.
      if (err instanceof ApiError && err.status === 401) form.showError("both", err.message);
      toast.error(loginFailure(err));
      setWorking(false);
    }
  }

  return (
    <AccountForm
      title="Sign in"
      submitLabel="Sign in"
      workingLabel="Signing in..."
      working={working}
      onSubmit={submit}
      footer={
        <>
          New here? <Link to="/register">Create an account</Link>
        </>
      }
    >
      <AccountFieldset
        form={form}
        passwordAutoComplete="current-password"
        passwordAside={<Link to="/restore-password" className="small">Forgot password?</Link>}
      />
    </AccountForm>
  );
}
