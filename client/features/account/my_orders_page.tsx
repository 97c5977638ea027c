import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import type { PublicOrderView } from "../../../shared/order_view.ts";
import { formatCents } from "../../../shared/pricing.ts";
import { STATUS_LABELS } from "../../../shared/status.ts";
import { api, ApiError } from "../../app/api.ts";
import { useStore } from "../../app/store/store.ts";

type Load =
  | { kind: "loading" }
  | { kind: "ended" }
  | { kind: "failed" }
  | { kind: "loaded"; orders: PublicOrderView[] };

const DATE_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/**
 * /account/orders: the signed-in shopper's orders, newest first, each linking to its tracking
 * page. Without a session it asks to sign in; a session the server no longer knows is ended here.
 */
export function MyOrdersPage() {
  const token = useStore((s) => s.token);
  const [load, setLoad] = useState<Load>({ kind: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!token) return;
    let live = true;
    setLoad({ kind: "loading" });
    api<PublicOrderView[]>("/auth/orders").then(
      (orders) => live && setLoad({ kind: "loaded", orders }),
      (err) => {
        if (!live) return;
        if (err instanceof ApiError && err.status === 401) {
          setLoad({ kind: "ended" });
          useStore.getState().signOut();
        } else {
          console.warn("Orders could not be loaded", err);
          setLoad({ kind: "failed" });
        }
      },
    );
    return () => {
      live = false;
    };
  }, [token, attempt]);

  return (
    <section className="page account-page my-orders-page">
      <h1>My orders</h1>
      <MyOrdersBody load={token ? load : null} ended={load.kind === "ended"} retry={setAttempt} />
    </section>
  );
}

function MyOrdersBody({ load, ended, retry }: {
  /** null when nobody is signed in. */
  load: Load | null;
  ended: boolean;
  retry: (change: (n: number) => number) => void;
}) {
  if (!load || load.kind === "ended") {
    return (
      <div className="card account-notice" role={ended ? "alert" : undefined}>
        <p>
          {ended
            ? "Your session has ended. Please sign in again."
            : "Sign in to see the orders of your account."}
        </p>
        <p className="row">
          <Link to="/login" className="button">Sign in</Link>
          <Link to="/register">Create an account</Link>
        </p>
      </div>
    );
  }
  if (load.kind === "loading") return <p className="loading">Loading orders...</p>;
  if (load.kind === "failed") {
    return (
      <div className="card account-notice" role="alert">
        <p>Your orders could not be loaded. Please try again.</p>
        <button type="button" className="button secondary" onClick={() => retry((n) => n + 1)}>
          Try again
        </button>
      </div>
    );
  }
  if (load.orders.length === 0) {
    return (
      <div className="card account-notice" data-testid="no-orders">
        <p>You have no orders yet.</p>
        <Link to="/shop" className="button">Browse the shop</Link>
      </div>
    );
  }
  return (
    <ul className="account-orders" aria-label="Orders">
      {load.orders.map((order) => <OrderRow key={order.orderNumber} order={order} />)}
    </ul>
  );
}

function OrderRow({ order }: { order: PublicOrderView }) {
  const count = order.items.reduce((sum, item) => sum + item.quantity, 0);
  return (
    <li className="card account-order" data-testid="my-order">
      <Link
        to={`/order/track/${encodeURIComponent(order.orderNumber)}`}
        className="account-order-link"
      >
        <span className="account-order-number">Order #{order.orderNumber}</span>
        <span className="muted small">
          <time dateTime={order.createdAt}>{DATE_FORMAT.format(new Date(order.createdAt))}</time>
          {" · "}
          {count} {count === 1 ? "item" : "items"}
        </span>
      </Link>
      <span className={`account-order-status status-${order.status.toLowerCase()}`}>
        {STATUS_LABELS[order.status]}
      </span>
      <span className="price">{formatCents(order.totalCents)}</span>
    </li>
  );
}
