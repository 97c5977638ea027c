import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { toast } from "react-hot-toast";
import { api, ApiError } from "../../app/api.ts";
import { TextField } from "../../app/components/text_field.tsx";
import { loadCart } from "../../app/cart/cart_service.ts";
import { useStore } from "../../app/store/store.ts";

/** The answer of POST /auth/login. */
interface LoginAnswer {
  token: string;
  userId: string;
  email: string;
  /** The cart to use from now on: the guest cart joined to the account's, or null. */
  cartId: string | null;
}

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
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [working, setWorking] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (working) return;
    setWorking(true);
    try {
      const answer = await api<LoginAnswer>("/auth/login", {
        method: "POST",
        body: {
          email: email.trim(),
          password,
          cartId: useStore.getState().cartId,
        },
      });
      const state = useStore.getState();
      state.signIn(answer.userId, answer.token, answer.email);
      state.setCartId(answer.cartId);
      await loadCart();
      navigate("/");
    } catch (err) {
      toast.error(loginFailure(err));
      setWorking(false);
    }
  }

  return (
    <section className="page account-page">
      <h1>Sign in</h1>
      <form className="card account-form" onSubmit={submit} aria-label="Sign in">
        <TextField
          id="login-email"
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          value={email}
          onChange={setEmail}
        />
        <TextField
          id="login-password"
          name="password"
          label="Password"
          labelAside={<Link to="/restore-password" className="small">Forgot password?</Link>}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={setPassword}
        />
        <button type="submit" className="button account-submit" disabled={working}>
          {working ? "Signing in..." : "Sign in"}
        </button>
        <p className="account-switch">
          New here? <Link to="/register">Create an account</Link>
        </p>
      </form>
    </section>
  );
}
