import type { HostedCheckoutView } from "../../../shared/api_types.ts";
import type { Region } from "../../../shared/policy.ts";
import { useState } from "react";
import { toast } from "react-hot-toast";
import { api, ApiError } from "../../app/api.ts";
import { insufficientStockMessage, shortStockOf } from "../../app/stock_errors.ts";

/**
 * The two hosted checkout buttons; both lock while one runs, when the cart is empty and while it
 * holds lines the shop no longer sells (`blockedReason` then says why, beside the buttons).
 */
export function CheckoutButtons(
  { cartId, empty, blockedReason = null }: {
    cartId: string | null;
    empty: boolean;
    blockedReason?: string | null;
  },
) {
  const [processing, setProcessing] = useState(false);

  async function start(region: Region) {
    if (!cartId) {
      toast.error("No cart found");
      return;
    }
    setProcessing(true);
    try {
      const result = await api<HostedCheckoutView>(
        `/api/cart/${encodeURIComponent(cartId)}/checkout/${region}`,
        { method: "POST" },
      );
      if (result.url) {
        location.assign(result.url);
        return;
      }
      toast.error("Failed to process cart. Please try again.");
    } catch (err) {
      const short = shortStockOf(err);
      if (short) {
        toast.error(insufficientStockMessage(short), { duration: 6000 });
      } else if (err instanceof ApiError && err.status === 404) {
        toast.error("No cart found");
      } else if (err instanceof ApiError && err.status === 429) {
        // Too many checkouts waiting for payment: the server says how many and what to do.
        toast.error(err.message, { duration: 6000 });
      } else {
        toast.error("Failed to process cart. Please try again.");
      }
    }
    setProcessing(false);
  }

  // Natively disabled only when checkout cannot start at all; while one runs the buttons are
  // aria-disabled and ignore presses, so the pressed one keeps the focus through a refusal.
  const disabled = empty || blockedReason !== null;
  const describedBy = blockedReason ? "checkout-blocked" : undefined;
  return (
    <div className="checkout-buttons">
      {blockedReason && (
        <p id="checkout-blocked" className="error-text small" data-testid="checkout-blocked">
          {blockedReason}
        </p>
      )}
      <button
        type="button"
        className="button"
        disabled={disabled}
        aria-disabled={processing || undefined}
        aria-describedby={describedBy}
        onClick={() => {
          if (!processing) start("us");
        }}
      >
        {processing ? "Processing..." : "Checkout (United States)"}
      </button>
      <button
        type="button"
        className="button secondary"
        disabled={disabled}
        aria-disabled={processing || undefined}
        aria-describedby={describedBy}
        onClick={() => {
          if (!processing) start("international");
        }}
      >
        {processing ? "Processing..." : "Checkout (International)"}
      </button>
    </div>
  );
}
