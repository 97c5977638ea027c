import { useCallback, useState } from "react";
import { toast } from "react-hot-toast";
import type { AdminOrderView, PickListView } from "../../../shared/api_types.ts";
import { configurationText } from "../../app/order_line_text.ts";
import {
  fetchOrders,
  fetchPickList,
  reportAdminError,
  shipChosenOrders,
  shippedMessage,
} from "./admin_api.ts";
import { SectionStatus, useSectionData } from "./use_section.tsx";

/** Readable names of the stock components on the pick list. */
const PART_NAMES: Record<string, string> = {
  SMALL_BOX: "Small boxes (10 switches)",
  LARGE_BOX: "Large boxes (15 and 20 switches)",
  TRANSPARENT_KEYCAP: "Transparent keycaps",
  RANDOM_KEYCAP: "Random keycaps",
};

function partName(name: string): string {
  const body = /^CUBE_BODY \((.+)\)$/.exec(name);
  if (body) return `Cube bodies, ${body[1]}`;
  return PART_NAMES[name] ?? name;
}

/** Every paid, unshipped order (oldest first, the order they are packed in) and the pick list. */
async function loadPrintDay(): Promise<{ pickList: PickListView; orders: AdminOrderView[] }> {
  // Both at once, and awaited together: a pick list refused while the orders are still read is
  // the load's failure, never a rejection nobody awaits.
  const [pickList, orders] = await Promise.all([fetchPickList(), newOrders()]);
  return { pickList, orders };
}

/** Every paid, unshipped order, oldest first. */
async function newOrders(): Promise<AdminOrderView[]> {
  const orders: AdminOrderView[] = [];
  let cursor: string | null = null;
  do {
    const page = await fetchOrders({ status: "new" }, cursor, 200);
    orders.push(...page.orders);
    cursor = page.nextCursor;
  } while (cursor);
  return orders.reverse();
}

/**
 * The Print day tab: what to print and pack for every paid, unshipped order (the pick list), a
 * packing slip per order, and shipping a chosen set. Print prints the list and the slips only,
 * one slip per page.
 */
export function PrintDayTab() {
  const section = useSectionData(loadPrintDay, "The pick list could not be loaded");
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);

  const toggle = useCallback((orderNumber: string, on: boolean) => {
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(orderNumber);
      else next.delete(orderNumber);
      return next;
    });
  }, []);

  async function shipChosen() {
    if (busy) return;
    if (chosen.size === 0) {
      toast.error("Choose the orders to ship first");
      return;
    }
    setBusy(true);
    try {
      const result = await shipChosenOrders([...chosen]);
      toast.success(shippedMessage(result.shippedCount));
      for (const skip of result.skipped) toast.error(`${skip.orderNumber}: ${skip.reason}`);
      setChosen(new Set());
      await section.load();
    } catch (err) {
      reportAdminError(err, "Failed to update orders", [400]);
    } finally {
      setBusy(false);
    }
  }

  if (section.data === null) {
    return <SectionStatus section={section} loading="Loading the pick list..." />;
  }
  const { pickList, orders } = section.data;
  return (
    <div className="admin-print-day">
      <div className="admin-section-head no-print">
        <h2 id="print-day-heading">Print day</h2>
        <div className="admin-toolbar" role="toolbar" aria-label="Print day actions">
          <button type="button" className="button secondary" onClick={() => globalThis.print()}>
            Print list and slips
          </button>
          <button
            type="button"
            className="button"
            aria-disabled={busy || chosen.size === 0}
            aria-describedby="ship-chosen-hint"
            onClick={shipChosen}
          >
            Ship chosen orders ({chosen.size})
          </button>
          <span id="ship-chosen-hint" className="visually-hidden">
            Orders with a tracking number that are being processed can ship
          </span>
          <button type="button" className="link-button" onClick={section.load}>Refresh</button>
        </div>
      </div>
      <div className="print-area">
        <PickList pickList={pickList} orderCount={orders.length} />
        <h2 className="no-print">Packing slips ({orders.length})</h2>
        {orders.length === 0 && <p className="muted">No paid orders are waiting.</p>}
        {orders.map((order) => (
          <PackingSlip
            key={order.orderNumber}
            order={order}
            chosen={chosen.has(order.orderNumber)}
            onChoose={toggle}
          />
        ))}
      </div>
    </div>
  );
}

function PickList({ pickList, orderCount }: { pickList: PickListView; orderCount: number }) {
  return (
    <section className="card admin-pick-list" aria-labelledby="pick-list-heading">
      <h2 id="pick-list-heading">Pick list</h2>
      <p className="muted small">
        Everything {orderCount === 1 ? "1 paid order needs" : `${orderCount} paid orders need`}{" "}
        (paid and processing, not yet shipped).
      </p>
      <div className="admin-pick-columns">
        <table className="admin-table">
          <caption>Boxes, keycaps and cube bodies</caption>
          <thead>
            <tr>
              <th scope="col">Part</th>
              <th scope="col">Quantity</th>
            </tr>
          </thead>
          <tbody>
            {pickList.components.map((c) => (
              <tr key={c.name} data-testid="pick-component" data-name={c.name}>
                <th scope="row">{partName(c.name)}</th>
                <td>{c.quantity}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="admin-table">
          <caption>Switches by brand</caption>
          <thead>
            <tr>
              <th scope="col">Switch</th>
              <th scope="col">Quantity</th>
            </tr>
          </thead>
          <tbody>
            {pickList.switches.map((s) => (
              <tr key={s.id} data-testid="pick-switch">
                <th scope="row">{s.name}</th>
                <td>{s.quantity}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function PackingSlip(
  { order, chosen, onChoose }: {
    order: AdminOrderView;
    chosen: boolean;
    onChoose: (orderNumber: string, on: boolean) => void;
  },
) {
  const a = order.shippingAddress;
  const id = `slip-${order.orderNumber}`;
  return (
    <article className="card packing-slip" aria-labelledby={id} data-testid="packing-slip">
      <div className="packing-slip-head">
        <h3 id={id}>Order {order.orderNumber}</h3>
        <label className="no-print">
          <input
            type="checkbox"
            checked={chosen}
            onChange={(e) => onChoose(order.orderNumber, e.target.checked)}
          />
          Choose to ship
          {order.trackingNumber ? "" : " (no tracking number yet)"}
        </label>
      </div>
      <div className="packing-slip-address">
        <strong>{order.customerName ?? "(no name)"}</strong>
        {a && (
          <>
            <span>{a.street}</span>
            {a.apartment && <span>{a.apartment}</span>}
            <span>{[a.city, a.state, a.zipCode].filter(Boolean).join(", ")}</span>
            <span>{a.country}</span>
          </>
        )}
      </div>
      <ul className="packing-slip-items">
        {order.items.map((item) => (
          <li key={item.lineId}>
            <strong>{item.quantity} × {item.name}</strong>
            {configurationText(item) && <span>{configurationText(item)}</span>}
            {item.switches.length > 0 && (
              <span className="small">
                {item.switches.map((s) => `${s.brand} ${s.name}`).join(", ")}
              </span>
            )}
          </li>
        ))}
      </ul>
      <p className="small muted">
        Status: {order.status === "PROCESSING" ? "Processing" : "Payment received"}
        {order.trackingNumber ? ` · Tracking ${order.trackingNumber}` : ""}
      </p>
    </article>
  );
}
