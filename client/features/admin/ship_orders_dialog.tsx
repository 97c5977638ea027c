import { maskOrderNumber, maskTracking } from "../../../shared/mask.ts";
import type { AdminOrderView } from "../../../shared/api_types.ts";
import { Dialog } from "./dialog.tsx";

/** "1 order", "3 orders". */
function ordersText(count: number): string {
  return `${count} ${count === 1 ? "order" : "orders"}`;
}

/**
 * What Ship Orders will ship, asked once: each order with its customer and tracking number, so
 * the owner sees the parcels before every customer is emailed. Confirming ships exactly these;
 * Cancel, Close and Escape ship nothing.
 */
export function ShipOrdersDialog(
  { orders, hideUserData, busy, onConfirm, onCancel }: {
    orders: readonly AdminOrderView[];
    hideUserData: boolean;
    busy: boolean;
    onConfirm: () => void;
    onCancel: () => void;
  },
) {
  const count = orders.length;
  return (
    <Dialog title={`Ship ${ordersText(count)}?`} onClose={onCancel} wide>
      <p>
        {count === 1 ? "This order has" : "These orders have"}{" "}
        a tracking number and will be marked as shipped; each customer is emailed their tracking
        link.
      </p>
      <div className="admin-table-wrap">
        <table className="admin-table admin-ship-table">
          <caption className="visually-hidden">Orders to ship</caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Customer</th>
              <th scope="col">Tracking number</th>
            </tr>
          </thead>
          <tbody>
            {orders.map((o) => (
              <tr key={o.orderNumber} data-testid="ship-order">
                <th scope="row">{hideUserData ? maskOrderNumber(o.orderNumber) : o.orderNumber}</th>
                <td>{o.customerName ?? "—"}</td>
                <td className="admin-tracking">
                  {hideUserData ? maskTracking(o.trackingNumber ?? "") : o.trackingNumber}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="admin-toolbar admin-dialog-actions">
        <button type="button" className="button" aria-disabled={busy} onClick={onConfirm}>
          {busy ? "Shipping..." : `Ship ${ordersText(count)}`}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>Cancel</button>
      </div>
    </Dialog>
  );
}
