import { useState } from "react";
import { NavLink, useLocation, useNavigate } from "react-router-dom";
import { api } from "../api.ts";
import { useStore } from "../store/store.ts";
import { moveFocusWhenLost } from "../move_focus.ts";

/**
 * The account part of the main navigation (and so of the mobile menu): a 'Sign in' link, or for a
 * signed-in shopper 'My orders' and a 'Sign out' button naming their email.
 */
export function AccountMenu() {
  const token = useStore((s) => s.token);
  const email = useStore((s) => s.email);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [leaving, setLeaving] = useState(false);

  if (!token) return <NavLink to="/login">Sign in</NavLink>;

  async function signOut() {
    if (leaving) return;
    setLeaving(true);
    // The server forgets the token; the browser forgets it whatever the answer.
    await api("/auth/logout", { method: "POST" }).catch(() => {});
    const state = useStore.getState();
    state.signOut();
    // The cart belongs to the account now; the next sign-in finds it again.
    state.setCartId(null);
    setLeaving(false);
    // Loaded when needed: the header is on every first load, the toast library need not be.
    void import("react-hot-toast").then(({ toast }) => toast.success("Signed out"));
    if (pathname === "/") {
      // No route change to move the focus: the pressed button is gone, and 'Sign in' takes its
      // place (or, in a menu that has closed, the page's heading).
      moveFocusWhenLost(() => [
        document.querySelector<HTMLElement>('#main-nav a[href="/login"]'),
        document.querySelector<HTMLElement>("main h1"),
      ]);
    } else navigate("/");
  }

  return (
    <span className="account-menu" data-testid="account-menu">
      <NavLink to="/account/orders" className="account-link" title={email ?? undefined}>
        My orders
      </NavLink>
      <button
        type="button"
        className="link-button account-sign-out"
        title={email ? `Signed in as ${email}` : undefined}
        aria-label={email ? `Sign out (${email})` : "Sign out"}
        // Focusable while signing out, so the focus stays until 'Sign in' takes its place.
        aria-disabled={leaving || undefined}
        onClick={signOut}
      >
        Sign out
      </button>
    </span>
  );
}
