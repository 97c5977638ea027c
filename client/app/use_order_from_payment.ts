import { useEffect, useEffectEvent } from "react";
import { useNavigate } from "react-router-dom";
import { api } from "./api.ts";
import { clearCart } from "./cart/cart_service.ts";
import type { PaymentSessionStatus } from "../../shared/api_types.ts";

/**
 * Where a payment provider sends the shopper back (/completion after the embedded payment,
 * /order-success after the hosted one): finds the order of the payment, forgets the paid cart
 * and replaces the URL by the order's tracking page. With a null id it does nothing. The page
 * keeps its own wording for a failure, so `onError` gets the error of the lookup.
 */
export function useOrderFromPayment(
  paymentId: string | null,
  onError: (err: unknown) => void,
): void {
  const navigate = useNavigate();
  // An event, not a dependency: a page's new callback each render must not repeat the lookup.
  const failed = useEffectEvent(onError);
  useEffect(() => {
    if (!paymentId) return;
    let live = true;
    api<PaymentSessionStatus>(`/api/orders/session/${encodeURIComponent(paymentId)}`).then(
      ({ orderNumber }) => {
        if (!live) return;
        // Paid: the server emptied the cart; the browser forgets its id so the badge follows.
        clearCart();
        navigate(`/order/track/${encodeURIComponent(orderNumber)}`, { replace: true });
      },
      (err) => {
        if (live) failed(err);
      },
    );
    return () => {
      live = false;
    };
  }, [paymentId, navigate]);
}
