import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { Link, useParams, useSearchParams } from "react-router-dom";
import type { PublicOrderView } from "../../../shared/api_types.ts";
import { POLICY } from "../../../shared/policy.ts";
import { formatCents } from "../../../shared/pricing.ts";
import { STATUS_LABELS } from "../../../shared/status.ts";
import { api, ApiError } from "../../app/api.ts";
import { useOrderFromPayment } from "../../app/use_order_from_payment.ts";
import { useRequest } from "../../app/use_request.ts";
import { usePageOutcome } from "../../app/page_data.ts";
import type { Outcome } from "../../app/request_runner.ts";
import { OrderItems } from "./order_items.tsx";
import { CancelOrder } from "../../app/components/cancel_order.tsx";
import { OrderProgress } from "./order_progress.tsx";

/** An order as loaded, and whether the page stopped waiting for its payment. */
interface Loaded {
  order: PublicOrderView;
  gaveUpWaiting: boolean;
  /** Still waiting for the payment, with time left: ask again shortly. */
  pollAgain: boolean;
}

/** The redirect back from the provider can beat the payment: poll this often, this long. */
const POLL_MS = 2000;
const POLL_FOR_MS = 30_000;

// Read after the tracking number by screen readers; a constant so the leading space survives.
const OPENS_CARRIER = " (opens the carrier's site in a new tab)";

/**
 * /order-success and /order/track/{orderNumber}: the order's tracking page. With ?session_id it
 * first finds the order of the payment, forgets the paid cart and replaces the URL by the
 * tracking URL; with ?order or the path it shows that order (docs/product.md#order-tracking).
 */
export function OrderPage() {
  const { orderNumber: pathNumber } = useParams();
  const [params] = useSearchParams();
  const sessionId = params.get("session_id");
  const orderNumber = pathNumber ?? params.get("order");
  const [sessionError, setSessionError] = useState<{ error: unknown } | null>(null);
  // When the page first asked for this order: polling for its payment stops POLL_FOR_MS later.
  const since = useRef<{ orderNumber: string; at: number } | null>(null);

  // With an order number the page shows it; a session id alone is first turned into one.
  useOrderFromPayment(orderNumber ? null : sessionId, (error) => {
    if (!isNotFound(error)) console.error("The order could not be loaded", error);
    setSessionError({ error });
  });

  const path = orderNumber ? `/api/orders/${encodeURIComponent(orderNumber)}` : null;
  function loaded(order: PublicOrderView): Loaded {
    if (since.current?.orderNumber !== orderNumber) {
      since.current = { orderNumber: orderNumber!, at: Date.now() };
    }
    const waiting = order.status === "STARTED" && order.awaitingPayment;
    const timeLeft = Date.now() - since.current.at < POLL_FOR_MS;
    return { order, gaveUpWaiting: waiting && !timeLeft, pollAgain: waiting && timeLeft };
  }
  // The server renders a tracking page with its order; the browser then polls as it would.
  const served = usePageOutcome(path) as Outcome<PublicOrderView> | undefined;
  const request = useRequest(path, async (signal): Promise<Loaded> => {
    try {
      return loaded(await api<PublicOrderView>(path!, { signal }));
    } catch (err) {
      if (!signal.aborted && !isNotFound(err)) console.error("The order could not be loaded", err);
      throw err;
    }
  }, () => served?.ok ? { ok: true, data: loaded(served.data) } : served);
  const { reload } = request;
  const pollAgain = request.state === "loaded" && request.data.pollAgain;
  useEffect(() => {
    if (!pollAgain) return;
    const timer = setTimeout(reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [pollAgain, request.data, reload]);

  // A failed poll keeps what is shown; only a failed first load replaces the page.
  const load: Load = request.data
    ? { kind: "loaded", ...request.data }
    : request.state === "failed"
    ? failure(request.error)
    : !orderNumber && sessionError
    ? failure(sessionError.error)
    : orderNumber || sessionId
    ? { kind: "loading" }
    : { kind: "nothing" };

  switch (load.kind) {
    case "loading":
      return (
        <section className="page order-page">
          <p className="loading" role="status">Loading your order...</p>
        </section>
      );
    case "nothing":
      return (
        <section className="page narrow order-page">
          <h1>Your order</h1>
          <p className="error-text" role="alert">No session ID or order number found</p>
          <p>
            <Link to="/shop">Continue shopping</Link>
          </p>
        </section>
      );
    case "not-found":
      return (
        <section className="page narrow order-page">
          <h1>Order Not Found</h1>
          <p role="alert">
            We couldn't find your order details. Please contact support if this persists.
          </p>
          <p>
            <Link to="/contact" className="button secondary">Contact support</Link>
          </p>
        </section>
      );
    case "failed":
      return (
        <section className="page narrow order-page">
          <h1>Your order</h1>
          <p className="error-text" role="alert">Failed to load order details</p>
          <p>
            Please reload the page in a moment, or <Link to="/contact">contact us</Link>.
          </p>
        </section>
      );
    case "loaded":
      return <OrderView order={load.order} gaveUpWaiting={load.gaveUpWaiting} onChanged={reload} />;
  }
}

type Load =
  | { kind: "loading" }
  | { kind: "nothing" }
  | { kind: "not-found" }
  | { kind: "failed" }
  | { kind: "loaded"; order: PublicOrderView; gaveUpWaiting: boolean };

function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}

function failure(err: unknown): Load {
  return isNotFound(err) ? { kind: "not-found" } : { kind: "failed" };
}

function OrderView(
  { order, gaveUpWaiting, onChanged }: {
    order: PublicOrderView;
    gaveUpWaiting: boolean;
    /** Loads the order again (after the shopper cancelled it). */
    onChanged: () => void;
  },
) {
  const closed = order.status === "CANCELLED" || order.status === "EXPIRED";
  // The server cannot know the shopper's time zone: it (and hydration) says the UTC date, and the
  // browser's own date follows at once.
  const local = useSyncExternalStore(noChanges, () => true, () => false);
  const placed = new Date(order.createdAt).toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    ...(local ? {} : { timeZone: "UTC" }),
  });
  return (
    <section className="page order-page" data-status={order.status}>
      <header className="order-header">
        <h1>
          {order.status === "CANCELLED"
            ? "This order was cancelled"
            : order.status === "EXPIRED"
            ? "This order expired"
            : "Thank you for your order!"}
        </h1>
        <p>
          Order number:{" "}
          <strong className="order-number" data-testid="order-number">
            {order.orderNumber}
          </strong>
        </p>
        <p className="muted">
          Status: <span data-testid="order-status">{STATUS_LABELS[order.status]}</span> · Placed
          {" "}
          {placed}
        </p>
      </header>
      <PaymentNotice order={order} gaveUpWaiting={gaveUpWaiting} />
      <div className="order-layout">
        <div className="order-main">
          {!closed && (
            <section className="card order-status-card" aria-labelledby="order-progress-title">
              <h2 id="order-progress-title">Progress</h2>
              <OrderProgress status={order.status} progress={order.progress} />
              <p className="tracking">
                <span className="tracking-label">Tracking number:</span>{" "}
                {order.trackingUrl && order.trackingNumber
                  ? (
                    <a
                      href={order.trackingUrl}
                      target="_blank"
                      rel="noopener noreferrer"
                      data-testid="tracking-link"
                    >
                      {order.trackingNumber}
                      <span className="visually-hidden">{OPENS_CARRIER}</span>
                    </a>
                  )
                  : <span className="muted" data-testid="tracking-text">{order.trackingText}</span>}
              </p>
            </section>
          )}
          <OrderItems items={order.items} />
        </div>
        <aside className="order-side">
          <OrderTotals order={order} />
          <ShippingCard order={order} />
          <section className="card order-help">
            <h2>Need help?</h2>
            <p className="small">
              {POLICY.returns} Refunds take {POLICY.refundDays}.
            </p>
            <p className="small">
              <Link to="/contact">Contact us</Link> with your order number.
            </p>
            <CancelOrder order={order} onCancelled={onChanged} />
          </section>
        </aside>
      </div>
    </section>
  );
}

/** Anything the shopper should know about the payment: waiting, declined, cancelled or expired. */
function PaymentNotice({ order, gaveUpWaiting }: {
  order: PublicOrderView;
  gaveUpWaiting: boolean;
}) {
  if (order.status === "CANCELLED" || order.status === "EXPIRED") {
    return (
      <div className="card order-notice warn" role="alert">
        <p>
          {order.cancelReason ??
            (order.status === "EXPIRED"
              ? "The order was not paid in time, so its items were released."
              : "This order was cancelled.")}
        </p>
        <p className="small">
          If you were charged, the full amount is refunded within {POLICY.refundDays}.{" "}
          <Link to="/shop">Continue shopping</Link>
        </p>
      </div>
    );
  }
  if (order.status !== "STARTED") return null;
  if (order.paymentError) {
    return (
      <div className="card order-notice warn" role="alert">
        <p>
          Your payment did not go through: <strong>{order.paymentError}</strong>
        </p>
        <p className="small">
          Nothing was charged. <Link to="/cart">Return to your cart</Link> to try again.
        </p>
      </div>
    );
  }
  if (!order.awaitingPayment) {
    return (
      <div className="card order-notice warn" role="alert">
        <p>This order was not paid in time. Return to your cart to check out again.</p>
      </div>
    );
  }
  return (
    <div className="card order-notice" role="status">
      {gaveUpWaiting
        ? (
          <p>
            We have not received the payment confirmation yet. If you paid, it will appear here
            shortly: reload this page in a minute.
          </p>
        )
        : <p>Confirming your payment...</p>}
    </div>
  );
}

function OrderTotals({ order }: { order: PublicOrderView }) {
  return (
    <section className="card order-totals" aria-labelledby="order-totals-title">
      <h2 id="order-totals-title">Totals</h2>
      <dl className="order-totals-list">
        <div>
          <dt>Subtotal</dt>
          <dd data-testid="order-subtotal">{formatCents(order.subtotalCents)}</dd>
        </div>
        {order.discountCents > 0 && (
          <div>
            <dt>Discount{order.promoCode ? ` (${order.promoCode})` : ""}</dt>
            <dd data-testid="order-discount">-{formatCents(order.discountCents)}</dd>
          </div>
        )}
        <div>
          <dt>Shipping</dt>
          <dd data-testid="order-shipping">
            {order.shippingCents === 0 ? "Free" : formatCents(order.shippingCents)}
          </dd>
        </div>
        <div>
          <dt>Tax</dt>
          <dd data-testid="order-tax">{formatCents(order.taxCents)}</dd>
        </div>
        <div className="total-row">
          <dt>Total</dt>
          <dd data-testid="order-total">{formatCents(order.totalCents)}</dd>
        </div>
      </dl>
    </section>
  );
}

function ShippingCard({ order }: { order: PublicOrderView }) {
  const place = [order.city, [order.state, order.zipCode].filter(Boolean).join(" "), order.country]
    .filter(Boolean).join(", ");
  if (!order.customerName && !place && !order.email) return null;
  return (
    <section className="card order-shipping" aria-labelledby="order-shipping-title">
      <h2 id="order-shipping-title">Shipping</h2>
      {order.customerName && <p>{order.customerName}</p>}
      {place && <p>{place}</p>}
      <p className="muted small">
        {order.region === "international"
          ? `International delivery: ${POLICY.internationalDelivery}`
          : `Delivery in the US: ${POLICY.domesticDelivery}`}, after {POLICY.processingDays}{" "}
        of processing.
      </p>
      {order.email && <p className="muted small">Updates go to {order.email}.</p>}
    </section>
  );
}

/** A store that never changes, for useSyncExternalStore's "in the browser yet?" */
function noChanges(): () => void {
  return () => {};
}
