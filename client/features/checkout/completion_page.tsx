import { useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { ApiError } from "../../app/api.ts";
import { useOrderFromPayment } from "../../app/use_order_from_payment.ts";

type View = "working" | "failed-payment" | "no-id" | "not-found" | "error";

/**
 * /completion: where the embedded payment returns, with the payment's id and outcome in the query
 * names the shop's contract gives them (`payment_intent`, `redirect_status`). It finds the order of
 * the payment, forgets the paid cart and replaces itself with the tracking page.
 */
export function CompletionPage() {
  const [params] = useSearchParams();
  const paymentIntent = params.get("payment_intent");
  const redirectStatus = params.get("redirect_status");
  const failed = redirectStatus === "failed" || redirectStatus === "canceled";
  const [view, setView] = useState<View>(
    failed ? "failed-payment" : paymentIntent ? "working" : "no-id",
  );

  useOrderFromPayment(failed ? null : paymentIntent, (err) => {
    console.error("The order of this payment could not be found", err);
    setView(err instanceof ApiError && err.status === 404 ? "not-found" : "error");
  });

  return (
    <section className="page narrow completion-page">
      {view === "working" && (
        <>
          <h1>Completing your payment</h1>
          <p className="loading" role="status">Finding your order...</p>
        </>
      )}
      {view === "failed-payment" && (
        <>
          <h1>Your payment did not go through</h1>
          <p role="alert">
            Nothing was charged and your cart is still here. Please try again or use another card.
          </p>
          <Link to="/checkout" className="button">Return to checkout</Link>
        </>
      )}
      {view === "no-id" && (
        <>
          <h1>Completing your payment</h1>
          <p className="error-text" role="alert">No session ID or order number found</p>
          <Link to="/cart">Go to your cart</Link>
        </>
      )}
      {view === "not-found" && (
        <>
          <h1>Order Not Found</h1>
          <p role="alert">
            We couldn't find your order details. Please contact support if this persists.
          </p>
          <Link to="/contact">Contact support</Link>
        </>
      )}
      {view === "error" && (
        <>
          <h1>Completing your payment</h1>
          <p className="error-text" role="alert">Failed to load order details</p>
          <p>
            If you were charged, your order is safe: reload this page in a moment, or{" "}
            <Link to="/contact">contact us</Link>.
          </p>
        </>
      )}
    </section>
  );
}
