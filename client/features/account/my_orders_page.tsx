import { useState } from "react";
import { Link } from "react-router-dom";
import type { PublicOrderView } from "../../../shared/api_types.ts";
import { formatCents } from "../../../shared/pricing.ts";
import { STATUS_LABELS } from "../../../shared/status.ts";
import { api, ApiError } from "../../app/api.ts";
import { useStore } from "../../app/store/store.ts";
import { type Request, useRequest } from "../../app/use_request.ts";
import { CancelOrder } from "../../app/components/cancel_order.tsx";
import { MyData } from "./my_data.tsx";

const DATE_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/**
 * /account/orders: the signed-in shopper's orders, newest first, each linking to its tracking
 * page. Without a session it asks to sign in; a session the server no longer knows is ended here.
 */
export function MyOrdersPage() {
  const token = useStore((s) => s.token);
  // Kept after the sign-out it causes, so the page can say why the shopper was signed out.
  const [ended, setEnded] = useState(false);
  // Keyed by the token: a new session loads its own orders, none loads nothing.
  const load = useRequest(token, async (signal) => {
    try {
      return await api<PublicOrderView[]>("/auth/orders", { signal });
    } catch (err) {
      if (signal.aborted) throw err;
      if (err instanceof ApiError && err.status === 401) {
        setEnded(true);
        useStore.getState().signOut();
      } else {
        console.warn("Orders could not be loaded", err);
      }
      throw err;
    }
  });

  return (
    <section className="page account-page my-orders-page">
      <h1>My orders</h1>
      <MyOrdersBody load={load} ended={ended} />
      {token && <MyData />}
    </section>
  );
}

function MyOrdersBody({ load, ended }: { load: Request<PublicOrderView[]>; ended: boolean }) {
  // Idle: nobody is signed in (any more).
  if (load.state === "idle") {
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
  if (load.state === "loading") return <p className="loading">Loading orders...</p>;
  if (load.state === "failed") {
    return (
      <div className="card account-notice" role="alert">
        <p>Your orders could not be loaded. Please try again.</p>
        <button type="button" className="button secondary" onClick={load.reload}>
          Try again
        </button>
      </div>
    );
  }
  if (load.data.length === 0) {
    return (
      <div className="card account-notice" data-testid="no-orders">
        <p>You have no orders yet.</p>
        <Link to="/shop" className="button">Browse the shop</Link>
      </div>
    );
  }
  return (
    <ul className="account-orders" aria-label="Orders">
      {load.data.map((order) => (
        <OrderRow key={order.orderNumber} order={order} onChanged={load.reload} />
      ))}
    </ul>
  );
}

function OrderRow({ order, onChanged }: { order: PublicOrderView; onChanged: () => void }) {
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
      <div className="account-order-actions">
        <CancelOrder order={order} signedIn onCancelled={onChanged} />
      </div>
    </li>
  );
}
