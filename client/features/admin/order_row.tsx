import { type FormEvent, useRef, useState } from "react";
import { toast } from "react-hot-toast";
import { maskAddress, maskEmail, maskOrderNumber, maskTracking } from "../../../shared/mask.ts";
import {
  carrierTrackingUrl,
  isCancellable,
  isNewForAdmin,
  STATUS_LABELS,
} from "../../../shared/status.ts";
import { normaliseTrackingNumber, trackingNumberProblem } from "../../../shared/tracking_number.ts";
import type { AdminOrderItem, AdminOrderView } from "../../../shared/api_types.ts";
import { ApiError } from "../../app/api.ts";
import { formatDollars } from "../../app/money.ts";
import {
  addTrackingNumber,
  adminErrorMessage,
  cancelOrder,
  isSessionRefusal,
  markDelivered,
  reportAdminError,
} from "./admin_api.ts";
import { useCan } from "./admin_can.tsx";

/** Readable names of the tax id kinds payment pages record ("eu_vat" and so on). */
const TAX_ID_LABELS: Record<string, string> = {
  eu_vat: "EU VAT number",
  gb_vat: "UK VAT number",
  us_ein: "US EIN",
};

/** Props of one order's rows. */
interface OrderRowProps {
  order: AdminOrderView;
  /** 'Hide User Data': mask email, street, tracking and order number (docs/product.md#masking). */
  hideUserData: boolean;
  /** Called after any change, so the tables reload. */
  onChanged: () => void;
}

/** The order number as shown: masked when user data is hidden. */
function displayOrderNumber(orderNumber: string, hide: boolean): string {
  return hide ? maskOrderNumber(orderNumber) : orderNumber;
}

/**
 * One order in an admin table: a row with the six columns and, when 'Show Details' is on, a
 * second row with every item (switches with their images) and the totals. Its own tbody keeps
 * the pair together.
 */
export function OrderRow({ order, hideUserData, onChanged }: OrderRowProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  // Cancelling refunds the customer: the owner's alone, so staff are not offered it.
  const canCancel = useCan("order_cancels");
  const shown = displayOrderNumber(order.orderNumber, hideUserData);
  const detailsId = `order-details-${order.orderNumber}`;

  async function run(action: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
    onChanged();
  }

  function deliver() {
    return run(async () => {
      try {
        await markDelivered(order.orderNumber);
        toast.success("Order marked as delivered");
      } catch (err) {
        reportAdminError(err, "Failed to update order status");
      }
    });
  }

  function cancel() {
    const ok = globalThis.confirm(
      `Cancel order ${shown}?${
        order.status === "STARTED" ? "" : " The payment is refunded in full and the stock restored."
      }`,
    );
    if (!ok) return;
    return run(async () => {
      try {
        await cancelOrder(order.orderNumber);
        toast.success("Order cancelled");
      } catch (err) {
        reportAdminError(err, "Failed to cancel order", [409]);
      }
    });
  }

  return (
    <tbody className="admin-order" data-testid="admin-order" data-order={order.orderNumber}>
      <tr>
        <th scope="row" data-label="Order #">
          <span className="admin-order-number">{shown}</span>
          <span className={`admin-status status-${order.status.toLowerCase()}`}>
            {STATUS_LABELS[order.status]}
          </span>
          <span className="muted small">{formatDate(order.createdAt)}</span>
        </th>
        <td data-label="Customer">
          <span className="admin-customer-name">{order.customerName || "—"}</span>
          <span className="admin-email">
            {order.email ? (hideUserData ? maskEmail(order.email) : order.email) : "No email"}
          </span>
        </td>
        <td data-label="Address">
          <AddressCell order={order} hide={hideUserData} />
        </td>
        <td data-label="Items">
          <ul className="admin-item-summary">
            {order.items.map((item) => <li key={item.lineId}>{item.quantity} × {item.name}</li>)}
          </ul>
        </td>
        <td data-label="Tracking">
          {isNewForAdmin(order.status)
            ? (
              <TrackingForm
                order={order}
                shownNumber={shown}
                hide={hideUserData}
                busy={busy}
                onSubmit={async (tracking) => {
                  let outcome: TrackingOutcome = { saved: false };
                  await run(async () => {
                    try {
                      await addTrackingNumber(order.orderNumber, tracking);
                      toast.success("Tracking number added successfully");
                      outcome = { saved: true };
                    } catch (err) {
                      // Told once, by adminApi; the dashboard closes.
                      if (isSessionRefusal(err)) return;
                      const message = adminErrorMessage(
                        err,
                        "Failed to add tracking number",
                        [400, 409],
                      );
                      toast.error(message);
                      // A 400 is about the number typed, so the field shows it too.
                      const aboutField = err instanceof ApiError && err.status === 400;
                      outcome = { saved: false, fieldError: aboutField ? message : undefined };
                    }
                  });
                  return outcome;
                }}
              />
            )
            : <TrackingLink trackingNumber={order.trackingNumber} hide={hideUserData} />}
          {order.status === "SHIPPED" && order.trackingNumber && (
            <button
              type="button"
              className="button small-button"
              aria-disabled={busy}
              onClick={deliver}
            >
              Mark Delivered
            </button>
          )}
        </td>
        <td data-label="Details">
          <div className="admin-row-actions">
            <button
              type="button"
              className="button secondary small-button"
              aria-expanded={open}
              aria-controls={detailsId}
              // Named by its order, its visible words first: buttons read out of their rows
              // (a screen reader's list of buttons) still say which order they act on.
              aria-label={`${open ? "Hide Details" : "Show Details"} of order ${shown}`}
              onClick={() => setOpen(!open)}
            >
              {open ? "Hide Details" : "Show Details"}
            </button>
            {canCancel && isCancellable(order.status) && (
              <button
                type="button"
                className="link-button admin-cancel"
                aria-disabled={busy}
                onClick={cancel}
                aria-label={`Cancel order ${shown}`}
              >
                Cancel
              </button>
            )}
          </div>
        </td>
      </tr>
      <tr id={detailsId} className="admin-details-row" hidden={!open}>
        {open && (
          <td colSpan={6}>
            <OrderDetails order={order} />
          </td>
        )}
      </tr>
    </tbody>
  );
}

function formatDate(iso: string): string {
  return new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
}

/** The shipping address; the street line is masked when user data is hidden. */
function AddressCell({ order, hide }: { order: AdminOrderView; hide: boolean }) {
  const address = order.shippingAddress;
  if (!address) return <span className="muted">No address</span>;
  const street = [address.street, address.apartment].filter(Boolean).join(", ");
  return (
    <address className="admin-address">
      <span>{hide ? maskAddress(street) : street}</span>
      <span>{address.city}, {address.state} {address.zipCode}</span>
      <span>{address.country}</span>
    </address>
  );
}

/** The tracking number as a carrier link; plain masked text when user data is hidden. */
function TrackingLink(
  { trackingNumber, hide }: { trackingNumber: string | null; hide: boolean },
) {
  if (!trackingNumber) return <span className="muted">No tracking number</span>;
  if (hide) return <span className="admin-tracking">{maskTracking(trackingNumber)}</span>;
  return (
    <a
      className="admin-tracking"
      href={carrierTrackingUrl(trackingNumber)}
      target="_blank"
      rel="noopener noreferrer"
    >
      {trackingNumber}
    </a>
  );
}

/** What saving a tracking number came to; `fieldError` when the refusal is about the number. */
interface TrackingOutcome {
  saved: boolean;
  fieldError?: string;
}

/** The tracking input of a New order: an empty or odd number is refused before any call. */
function TrackingForm(
  { order, shownNumber, hide, busy, onSubmit }: {
    order: AdminOrderView;
    shownNumber: string;
    hide: boolean;
    busy: boolean;
    onSubmit: (trackingNumber: string) => Promise<TrackingOutcome>;
  },
) {
  const [value, setValue] = useState("");
  // A refusal that belongs to the number is shown beside the field, which it marks invalid; the
  // toast only repeats it. Typing clears it.
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const inputId = `tracking-${order.orderNumber}`;
  const errorId = `${inputId}-error`;

  function refuse(message: string) {
    setError(message);
    // Back to the field from its own form (or from nowhere); a server's answer can come after
    // the owner moved on to another order's field, which keeps the focus.
    const at = document.activeElement;
    if (!at || at === document.body || input.current?.form?.contains(at)) input.current?.focus();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    // The server's own rule, so the owner sees the number as it will be stored and linked.
    const tracking = normaliseTrackingNumber(value);
    const problem = trackingNumberProblem(tracking);
    if (problem) {
      toast.error(problem);
      refuse(problem);
      return;
    }
    const outcome = await onSubmit(tracking);
    if (outcome.saved) {
      setValue("");
      setError(null);
    } else if (outcome.fieldError) {
      refuse(outcome.fieldError);
    } else {
      // Refused for a reason other than the number (the toast says it): a message about the
      // number from an earlier try would now mislead.
      setError(null);
    }
  }

  return (
    <div className="admin-tracking-cell">
      {order.trackingNumber && <TrackingLink trackingNumber={order.trackingNumber} hide={hide} />}
      <form className="admin-tracking-form" onSubmit={submit} noValidate>
        <label htmlFor={inputId} className="visually-hidden">
          Tracking number for {shownNumber}
        </label>
        <input
          id={inputId}
          type="text"
          autoComplete="off"
          placeholder={order.trackingNumber ? "New tracking number" : "Tracking number"}
          // Room for a label's number pasted with its spaces; the rule limits what is stored.
          maxLength={80}
          ref={input}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
          }}
        />
        <button
          type="submit"
          className="button small-button"
          aria-disabled={busy}
          aria-label={order.trackingNumber
            ? `Update tracking number of order ${shownNumber}`
            : `Add tracking number to order ${shownNumber}`}
        >
          {order.trackingNumber ? "Update" : "Add"}
        </button>
      </form>
      {error && <p id={errorId} className="error-text admin-tracking-error">{error}</p>}
    </div>
  );
}

/** Every item of the order with its options and switches, then the totals. */
function OrderDetails({ order }: { order: AdminOrderView }) {
  return (
    <div className="admin-details">
      <ul className="admin-detail-items">
        {order.items.map((item) => <DetailItem key={item.lineId} item={item} />)}
      </ul>
      <dl className="admin-totals">
        <dt>Subtotal</dt>
        <dd>{formatDollars(order.subtotal)}</dd>
        {order.discount > 0 && (
          <>
            <dt>Discount{order.promoCode ? ` (${order.promoCode})` : ""}</dt>
            <dd>-{formatDollars(order.discount)}</dd>
          </>
        )}
        <dt>Shipping{order.region === "international" ? " (international)" : ""}</dt>
        <dd>{formatDollars(order.shipping)}</dd>
        <dt>Tax</dt>
        <dd>{formatDollars(order.tax)}</dd>
        <dt className="admin-total">Total</dt>
        <dd className="admin-total">{formatDollars(order.total)}</dd>
        {order.taxId && (
          <>
            <dt>{TAX_ID_LABELS[order.taxId.type] ?? "VAT or Tax ID"}</dt>
            <dd>{order.taxId.value}</dd>
          </>
        )}
        {order.cancelReason && (
          <>
            <dt>Cancelled</dt>
            <dd>{order.cancelReason}</dd>
          </>
        )}
        {order.refund && (
          <>
            <dt>Refund</dt>
            <dd className={order.refund === "failed" ? "error-text" : undefined}>
              {REFUND_TEXT[order.refund]}
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}

/** What each refund state means for the owner. */
const REFUND_TEXT: Record<NonNullable<AdminOrderView["refund"]>, string> = {
  pending: "Owed: the payment provider has not taken it yet (tried again until it does)",
  requested: "Requested: the payment provider is processing it",
  refunded: "Refunded in full",
  failed: "Failed at the payment provider: refund the customer another way",
};

/** One item: cubes and custom testers list their options and switches. */
function DetailItem({ item }: { item: AdminOrderItem }) {
  const configurable = item.kind === "cube" || item.kind === "custom";
  return (
    <li className="admin-detail-item">
      <p className="admin-detail-name">
        <strong>{item.name}</strong>
        <span>Quantity: {item.quantity}</span>
        <span>{formatDollars(item.price)} each</span>
      </p>
      {configurable && (
        <>
          <p className="admin-detail-options">
            <span>Size: {item.size ?? "—"}</span>
            <span>Keycaps: {item.keycaps ?? "—"}</span>
            {item.bodyColor && <span>Body: {item.bodyColor}</span>}
          </p>
          <ul className="admin-switches" aria-label={`Switches in ${item.name}`}>
            {item.switches.map((s, i) => (
              <li key={`${s.id}-${i}`}>
                <img src={s.imageUrl} alt="" width={32} height={32} loading="lazy" />
                <span>{s.brand}: {s.name}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </li>
  );
}
