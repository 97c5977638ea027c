import { useState } from "react";
import { toast } from "react-hot-toast";
import { api, ApiError } from "../../app/api.ts";

/** The answer of a hosted checkout start. */
interface CheckoutStart {
  url?: string;
  orderNumber?: string;
  insufficientStock?: Record<string, number>;
}

/** 'Insufficient stock for: Gateron Yellow (2 available), ...' */
export function insufficientStockMessage(short: Record<string, number>): string {
  const parts = Object.entries(short).map(([name, n]) => `${name} (${n} available)`);
  return `Insufficient stock for: ${parts.join(", ")}`;
}

/** The two hosted checkout buttons; both lock while one runs, and when the cart is empty. */
export function CheckoutButtons({ cartId, empty }: { cartId: string | null; empty: boolean }) {
  const [processing, setProcessing] = useState(false);

  async function start(region: "us" | "international") {
    if (!cartId) {
      toast.error("No cart found");
      return;
    }
    setProcessing(true);
    try {
      const result = await api<CheckoutStart>(
        `/api/cart/${encodeURIComponent(cartId)}/checkout/${region}`,
        { method: "POST" },
      );
      if (result.url) {
        location.assign(result.url);
        return;
      }
      toast.error("Failed to process cart. Please try again.");
    } catch (err) {
      const body = err instanceof ApiError ? err.body as CheckoutStart | null : null;
      if (body?.insufficientStock) {
        toast.error(insufficientStockMessage(body.insufficientStock), { duration: 6000 });
      } else if (err instanceof ApiError && err.status === 404) {
        toast.error("No cart found");
      } else {
        toast.error("Failed to process cart. Please try again.");
      }
    }
    setProcessing(false);
  }

  const disabled = processing || empty;
  return (
    <div className="checkout-buttons">
      <button type="button" className="button" disabled={disabled} onClick={() => start("us")}>
        {processing ? "Processing..." : "Checkout (United States)"}
      </button>
      <button
        type="button"
        className="button secondary"
        disabled={disabled}
        onClick={() => start("international")}
      >
        {processing ? "Processing..." : "Checkout (International)"}
      </button>
    </div>
  );
}
