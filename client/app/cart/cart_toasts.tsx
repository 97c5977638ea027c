import { Link } from "react-router-dom";
import { toast } from "react-hot-toast";
import { TIMINGS } from "../../../shared/policy.ts";
import { errorMessage } from "../api.ts";

/** Success toast with a link to the cart ('View Cart' or 'Go to Cart'). */
export function toastAddedWithLink(message: string, linkLabel: "View Cart" | "Go to Cart"): void {
  toast.success(
    (t) => (
      <span className="toast-with-action">
        {message}
        <Link to="/cart" className="toast-action" onClick={() => toast.dismiss(t.id)}>
          {linkLabel}
        </Link>
      </span>
    ),
    { duration: linkLabel === "Go to Cart" ? TIMINGS.testerToastMs : TIMINGS.toastMs * 2 },
  );
}

/**
 * Failure toast: the server's reason when it gave one a shopper can act on (out of stock, a
 * limit), otherwise the spec's generic message.
 */
export function toastAddFailed(err: unknown, fallback: string, long = false): void {
  toast.error(errorMessage(err, fallback), {
    duration: Math.max(long ? TIMINGS.testerToastMs : TIMINGS.toastMs * 2, TIMINGS.errorToastMs),
  });
}
