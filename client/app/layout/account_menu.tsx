import { NavLink } from "react-router-dom";
import { useStore } from "../store/store.ts";

/** Sign-in link, or the signed-in shopper's email with their orders. */
export function AccountMenu() {
  const token = useStore((s) => s.token);
  const email = useStore((s) => s.email);
  if (!token) return <NavLink to="/login">Sign in</NavLink>;
  return (
    <NavLink to="/account/orders" className="account-link" title={email ?? undefined}>
      My orders
    </NavLink>
  );
}
