import { Link } from "react-router-dom";
import { SHOP_CONTACT_EMAIL } from "../../../shared/policy.ts";

/**
 * /restore-password (linked from /login; the spec does not show the screen, see
 * docs/decisions.md#password-reset). There is no self-service reset yet, so the page says so and
 * tells the shopper how to get help.
 */
export function RestorePasswordPage() {
  return (
    <section className="page account-page">
      <h1>Restore password</h1>
      <div className="card account-form account-help">
        <p>
          Resetting a password by yourself is not available yet. We can help you get back into your
          account by hand.
        </p>
        <ol>
          <li>
            Write to us through the <Link to="/contact">contact page</Link> (or at{" "}
            <a href={`mailto:${SHOP_CONTACT_EMAIL}`}>{SHOP_CONTACT_EMAIL}</a>).
          </li>
          <li>
            Include the <strong>email address of your account</strong>, so we can find it.
          </li>
          <li>We answer within one business day with the next steps.</li>
        </ol>
        <p className="muted small">
          You do not need an account to shop: orders can be placed and tracked as a guest.
        </p>
        <p className="account-switch">
          <Link to="/login">Back to sign in</Link>
        </p>
      </div>
    </section>
  );
}
