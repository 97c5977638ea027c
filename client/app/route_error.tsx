import { Component, type ReactNode } from "react";

/** Error boundary of the page area: a readable message instead of a blank page. */
export class RouteErrorBoundary extends Component<
  { children: ReactNode },
  { error: Error | null }
> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error) {
    console.error(error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    const chunkFailed = /dynamically imported module|import/i.test(this.state.error.message);
    return (
      <section className="page narrow" role="alert">
        <h1>Something went wrong</h1>
        <p>
          {chunkFailed
            ? "A new version of the shop was published. Reload the page to continue."
            : "This page ran into a problem. Reload the page, or go back to the shop."}
        </p>
        <p>
          <button type="button" className="button" onClick={() => location.reload()}>
            Reload
          </button>{" "}
          <a className="button secondary" href="/shop">Back to the shop</a>
        </p>
      </section>
    );
  }
}
