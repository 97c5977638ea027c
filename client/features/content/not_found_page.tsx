import { Link } from "react-router-dom";

/** Shown for any path the shop does not have. */
export function NotFoundPage() {
  return (
    <section className="page narrow">
      <h1>Page not found</h1>
      <p>We could not find that page. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link className="button" to="/">Go to the home page</Link>{" "}
        <Link className="button secondary" to="/shop">Browse the shop</Link>
      </p>
    </section>
  );
}
