import { type FormEvent, useState } from "react";
import { toast } from "react-hot-toast";
import type { PublicOrderView } from "../../../shared/api_types.ts";
import { type CustomerCancelInput, customerCancelSchema } from "../../../shared/schemas.ts";
import { formatCents } from "../../../shared/pricing.ts";
import { isNewForAdmin } from "../../../shared/status.ts";
import { api, ApiError } from "../api.ts";
import { TextField } from "./text_field.tsx";
import { fieldErrors } from "../field_errors.ts";
import { useStore } from "../store/store.ts";

/** Cancels an order: a guest proves it is theirs with its email, a signed-in shopper by session. */
async function cancelOrder(orderNumber: string, email: string | null): Promise<PublicOrderView> {
  const token = useStore.getState().token;
  return await api<PublicOrderView>(`/api/orders/${encodeURIComponent(orderNumber)}/cancel`, {
    method: "POST",
    body: (email ? { email } : {}) satisfies CustomerCancelInput,
    headers: !email && token ? { Authorization: `Bearer ${token}` } : {},
  });
}

/**
 * "Cancel order" while the order is paid and not yet shipped (the refund policy's window). A
 * guest confirms with the order's email; `signedIn` (My orders) confirms with one more press.
 */
export function CancelOrder(
  { order, signedIn = false, onCancelled }: {
    order: PublicOrderView;
    signedIn?: boolean;
    onCancelled: (order: PublicOrderView) => void;
  },
) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  if (!isNewForAdmin(order.status)) return null;
  const id = `cancel-${order.orderNumber}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    let typed: string | null = null;
    if (!signedIn) {
      const checked = customerCancelSchema.safeParse({ email });
      const message = checked.success
        ? (email.trim() ? undefined : "Enter the email address of the order")
        : fieldErrors(checked.error).email;
      if (message) {
        setError(message);
        document.getElementById(`${id}-email`)?.focus();
        return;
      }
      typed = email.trim();
    }
    setBusy(true);
    try {
      const cancelled = await cancelOrder(order.orderNumber, typed);
      toast.success(`Order cancelled: ${formatCents(order.totalCents)} will be refunded`);
      onCancelled(cancelled);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        setError("That is not the email address of this order");
        // The field reads its message once it has the focus (the message is no alert).
        document.getElementById(`${id}-email`)?.focus();
      } else {
        toast.error(
          err instanceof ApiError && err.status < 500
            ? err.message
            : "The order could not be cancelled. Please try again.",
        );
      }
    } finally {
      setBusy(false);
    }
  }

  if (!open) {
    return (
      <button type="button" className="button secondary" onClick={() => setOpen(true)}>
        Cancel order
      </button>
    );
  }
  return (
    <form
      className="card cancel-order"
      aria-labelledby={`${id}-title`}
      onSubmit={submit}
      noValidate
    >
      <h2 id={`${id}-title`}>Cancel this order?</h2>
      <p>
        It has not shipped yet, so you get the full {formatCents(order.totalCents)}{" "}
        back on your card and nothing is sent.
      </p>
      {!signedIn && (
        <TextField
          id={`${id}-email`}
          label="Email address of the order"
          type="email"
          autoComplete="email"
          maxLength={254}
          value={email}
          error={error}
          onChange={(value) => {
            setEmail(value);
            setError(undefined);
          }}
        />
      )}
      {signedIn && error && <p className="error-text" role="alert">{error}</p>}
      <div className="row">
        <button type="submit" className="button danger" aria-disabled={busy}>
          {busy ? "Cancelling..." : "Cancel order and refund"}
        </button>
        <button type="button" className="link-button" onClick={() => setOpen(false)}>
          Keep my order
        </button>
      </div>
    </form>
  );
}
