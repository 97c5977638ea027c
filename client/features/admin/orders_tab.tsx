import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { toast } from "react-hot-toast";
import { isNewForAdmin, isProcessedForAdmin } from "../../../shared/status.ts";
import type { AdminOrderView } from "../../../shared/api_types.ts";
import {
  fetchNewOrdersCsv,
  fetchOrders,
  fetchOrdersToShip,
  type OrderFilters,
  reportAdminError,
  shipChosenOrders,
  shipResultText,
} from "./admin_api.ts";
import { OrderRow } from "./order_row.tsx";
import { useCan } from "./admin_can.tsx";
import { ShipOrdersDialog } from "./ship_orders_dialog.tsx";
import { saveFile } from "../../app/save_file.ts";

function byCreated(direction: 1 | -1) {
  return (a: AdminOrderView, b: AdminOrderView) =>
    direction * a.createdAt.localeCompare(b.createdAt);
}

/**
 * The Orders tab: 'New' (paid, not shipped; oldest first, as they are worked through) with its
 * toolbar, 'Processed' (shipped or delivered; newest first) and a collapsed section with the
 * cancelled, expired and unpaid orders. 'Hide User Data' masks both tables.
 */
export function OrdersTab() {
  const [orders, setOrders] = useState<AdminOrderView[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [filters, setFilters] = useState<OrderFilters>({ status: "all" });
  const [failed, setFailed] = useState(false);
  const [hideUserData, setHideUserData] = useState(false);
  const [busy, setBusy] = useState<"csv" | "ship" | "more" | null>(null);
  // The CSV holds customers' names and addresses: an export, the owner's alone.
  const canExport = useCan("customer_exports");
  // The orders Ship Orders listed and asks about; only these are shipped on confirming.
  const [toShip, setToShip] = useState<AdminOrderView[] | null>(null);

  // Answers can arrive out of order (a slow search, then another): only the last read asked for
  // may set what is shown, or an older search's orders would sit under the newer search's words.
  const latest = useRef(0);

  const load = useCallback(async () => {
    const turn = ++latest.current;
    try {
      const page = await fetchOrders(filters);
      if (turn !== latest.current) return;
      setOrders(page.orders);
      setNextCursor(page.nextCursor);
      setFailed(false);
    } catch (err) {
      if (turn !== latest.current) return;
      setFailed(true);
      reportAdminError(err, "Failed to fetch orders", [400]);
    }
  }, [filters]);

  useEffect(() => {
    load();
    // A closed tab (another tab opened, or logging out) shows nothing of a read still under way.
    return () => {
      latest.current++;
    };
  }, [load]);

  async function loadMore() {
    if (!nextCursor || busy) return;
    setBusy("more");
    // A newer read since (a search, a refresh) replaced the list this page would extend.
    const turn = latest.current;
    try {
      const page = await fetchOrders(filters, nextCursor);
      if (turn !== latest.current) return;
      setOrders((shown) => [...(shown ?? []), ...page.orders]);
      setNextCursor(page.nextCursor);
    } catch (err) {
      if (turn !== latest.current) return;
      reportAdminError(err, "Failed to fetch orders", [400]);
    } finally {
      setBusy(null);
    }
  }

  async function downloadCsv() {
    if (busy) return;
    setBusy("csv");
    try {
      const range = filters.from || filters.to
        ? `_${filters.from || "start"}_to_${filters.to || "today"}`
        : "";
      saveFile(await fetchNewOrdersCsv(filters), `new_orders${range}.csv`);
    } catch (err) {
      reportAdminError(err, "Failed to download orders", [400]);
    } finally {
      setBusy(null);
    }
  }

  /** Lists what Ship Orders would ship, to ask once before anything is shipped. */
  async function listOrdersToShip() {
    if (busy) return;
    setBusy("ship");
    try {
      const ready = await fetchOrdersToShip();
      if (ready.length === 0) {
        toast.error("No order is ready to ship: an order ships once it has a tracking number.");
      } else setToShip(ready);
    } catch (err) {
      reportAdminError(err, "Failed to fetch orders", [400]);
    } finally {
      setBusy(null);
    }
  }

  /** Ships exactly the listed orders: one that became ready meanwhile waits to be seen. */
  async function shipListed() {
    if (busy || !toShip) return;
    setBusy("ship");
    try {
      const text = shipResultText(await shipChosenOrders(toShip.map((o) => o.orderNumber)));
      setToShip(null);
      toast.success(text.shipped);
      if (text.notShipped) toast.error(text.notShipped);
    } catch (err) {
      reportAdminError(err, "Failed to update orders", [400]);
    } finally {
      setBusy(null);
    }
    await load();
  }

  const search = (
    <OrderSearch
      filters={filters}
      onSearch={(next) => {
        setOrders(null);
        setFilters(next);
      }}
    />
  );

  if (orders === null) {
    return (
      <div className="admin-orders">
        {search}
        {failed
          ? (
            <div className="admin-empty">
              <p className="error-text">Failed to fetch orders</p>
              <button type="button" className="button" onClick={load}>Try again</button>
            </div>
          )
          : <p className="loading" role="status">Loading orders...</p>}
      </div>
    );
  }

  const fresh = orders.filter((o) => isNewForAdmin(o.status)).sort(byCreated(1));
  const processed = orders.filter((o) => isProcessedForAdmin(o.status)).sort(byCreated(-1));
  const others = orders.filter((o) => !isNewForAdmin(o.status) && !isProcessedForAdmin(o.status))
    .sort(byCreated(-1));

  return (
    <div className="admin-orders">
      {search}
      <p className="admin-orders-count" role="status">
        {orders.length === 1 ? "1 order" : `${orders.length} orders`} shown
        {nextCursor ? " (newest first; more below)" : ""}
      </p>
      <OrdersTable
        id="new-orders"
        title="New"
        orders={fresh}
        hideUserData={hideUserData}
        onChanged={load}
        empty="No new orders."
        toolbar={
          <div className="admin-toolbar" role="toolbar" aria-label="New orders actions">
            {canExport && (
              <button
                type="button"
                className="button secondary"
                onClick={downloadCsv}
                aria-disabled={busy !== null}
              >
                Download CSV
              </button>
            )}
            <button
              type="button"
              className="button"
              title="Mark all processed orders as shipped"
              aria-describedby="ship-orders-hint"
              onClick={listOrdersToShip}
              aria-disabled={busy !== null}
            >
              Ship Orders
            </button>
            <span id="ship-orders-hint" className="visually-hidden">
              Mark all processed orders as shipped
            </span>
            <button
              type="button"
              className="button secondary"
              aria-pressed={hideUserData}
              onClick={() => setHideUserData(!hideUserData)}
            >
              {hideUserData ? "Show User Data" : "Hide User Data"}
            </button>
            <button type="button" className="link-button" onClick={load}>Refresh</button>
          </div>
        }
      />
      <OrdersTable
        id="processed-orders"
        title="Processed"
        orders={processed}
        hideUserData={hideUserData}
        onChanged={load}
        empty="No processed orders yet."
      />
      {others.length > 0 && (
        <details className="admin-other-orders">
          <summary>Cancelled and unpaid ({others.length})</summary>
          <OrdersTable
            id="other-orders"
            title="Cancelled and unpaid"
            orders={others}
            hideUserData={hideUserData}
            onChanged={load}
            empty=""
            hiddenTitle
          />
        </details>
      )}
      {toShip && (
        <ShipOrdersDialog
          orders={toShip}
          hideUserData={hideUserData}
          busy={busy === "ship"}
          onConfirm={shipListed}
          onCancel={() => setToShip(null)}
        />
      )}
      {nextCursor && (
        <button
          type="button"
          className="button secondary admin-load-more"
          aria-disabled={busy === "more"}
          onClick={loadMore}
        >
          {busy === "more" ? "Loading..." : "Load 50 more orders"}
        </button>
      )}
    </div>
  );
}

/** The search and filters above the tables; applied on submit so typing sends nothing. */
function OrderSearch(
  { filters, onSearch }: { filters: OrderFilters; onSearch: (next: OrderFilters) => void },
) {
  const [draft, setDraft] = useState<OrderFilters>(filters);
  const [error, setError] = useState<string | null>(null);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (draft.from && draft.to && draft.from > draft.to) {
      setError("The first day must not be after the last day");
      return;
    }
    setError(null);
    onSearch({ ...draft, q: draft.q?.trim() });
  }
  return (
    <form className="admin-order-search" role="search" aria-label="Orders" onSubmit={submit}>
      <label>
        Search
        <input
          type="search"
          name="q"
          value={draft.q ?? ""}
          placeholder="Order number, email or name"
          maxLength={200}
          onChange={(e) => setDraft({ ...draft, q: e.target.value })}
        />
      </label>
      <label>
        Status
        <select
          name="status"
          value={draft.status ?? "all"}
          onChange={(e) => setDraft({ ...draft, status: e.target.value as OrderFilters["status"] })}
        >
          <option value="all">All</option>
          <option value="new">New</option>
          <option value="processed">Processed</option>
          <option value="cancelled">Cancelled</option>
        </select>
      </label>
      <label>
        From
        <input
          type="date"
          name="from"
          value={draft.from ?? ""}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "order-search-error" : undefined}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
        />
      </label>
      <label>
        To
        <input
          type="date"
          name="to"
          value={draft.to ?? ""}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
        />
      </label>
      <button type="submit" className="button secondary">Search</button>
      {error && <p id="order-search-error" className="error-text" role="alert">{error}</p>}
    </form>
  );
}

/** One orders table with its heading, optional toolbar and empty text. */
function OrdersTable(
  { id, title, orders, hideUserData, onChanged, empty, toolbar, hiddenTitle = false }: {
    id: string;
    title: string;
    orders: AdminOrderView[];
    hideUserData: boolean;
    onChanged: () => void;
    empty: string;
    toolbar?: ReactNode;
    hiddenTitle?: boolean;
  },
) {
  const headingId = `${id}-heading`;
  return (
    <section className="admin-orders-section" aria-labelledby={headingId} data-testid={id}>
      <div className="admin-section-head">
        <h2 id={headingId} className={hiddenTitle ? "visually-hidden" : undefined}>
          {title} <span className="admin-count">({orders.length})</span>
        </h2>
        {toolbar}
      </div>
      {orders.length === 0 ? <p className="muted">{empty}</p> : (
        <div className="admin-table-wrap">
          <table className="admin-table" aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">Order #</th>
                <th scope="col">Customer</th>
                <th scope="col">Address</th>
                <th scope="col">Items</th>
                <th scope="col">Tracking</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            {orders.map((order) => (
              <OrderRow
                key={order.orderNumber}
                order={order}
                hideUserData={hideUserData}
                onChanged={onChanged}
              />
            ))}
          </table>
        </div>
      )}
    </section>
  );
}
