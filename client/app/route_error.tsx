import { Link, useRouteError } from "react-router-dom";

/** Error boundary of a route area: a readable message instead of a blank page. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  const chunkFailed = error instanceof Error && /dynamically imported module|import/i.test(
    error.message,
  );
  return (
    <section className="page narrow" role="alert">
      <h1>Something went wrong</h1>
      <p>
        {chunkFailed
          ? "A new version of the shop was published. Reload the page to continue."
          : "This page ran into a problem. Reload the page, or go back to the shop."}
      </p>
      <p>
        <button type="button" className="button" onClick={() => location.reload()}>Reload</button>
        {" "}
        <Link className="button secondary" to="/shop">Back to the shop</Link>
      </p>
    </section>
  );
}
