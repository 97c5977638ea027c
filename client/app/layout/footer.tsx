import { Link } from "react-router-dom";
import { SHOP_NAME } from "../../../shared/policy.ts";

/** Footer with the policy links. */
export function Footer() {
  return (
    <footer className="site-footer">
      <nav aria-label="Policies" className="footer-nav">
        <Link to="/refund-policy">Refund policy</Link>
        <Link to="/privacy-policy">Privacy policy</Link>
        <Link to="/shipping-policy">Shipping policy</Link>
        <Link to="/tos">Terms of service</Link>
        <Link to="/contact">Contact</Link>
      </nav>
      {
        /* The year is the server's when it rendered the page (a kept page may be older than a New
          Year, or the shopper a time zone ahead): hydration leaves it as it is. */
      }
      <p className="muted" suppressHydrationWarning>
        © {new Date().getFullYear()} {SHOP_NAME}. Printed on demand.
      </p>
    </footer>
  );
}
