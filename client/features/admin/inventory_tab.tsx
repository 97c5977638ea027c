import { type FormEvent, useMemo, useState } from "react";
import { toast } from "react-hot-toast";
import type { InventoryView, StockCounts, StockPlanning } from "../../../shared/api_types.ts";
import { fetchInventory, reportAdminError, updateStock } from "./admin_api.ts";
import { ComponentPies, SwitchesStockChart, withBreaks } from "./inventory_charts.tsx";
import { SectionStatus, useSectionData } from "./use_section.tsx";

/** One editable stock line: a switch or a component. */
interface StockRow extends StockCounts, StockPlanning {
  /** Shoppers signed up to hear when it is back (switches only; components are not sold alone). */
  waiting: number | null;
  key: string;
  kind: "switch" | "component";
  id: number | null;
  name: string;
}

function rowsOf(inventory: InventoryView): StockRow[] {
  return [
    ...inventory.inventory.map((c) => ({
      ...c,
      waiting: null,
      key: `component:${c.name}`,
      kind: "component" as const,
      id: null,
    })),
    ...inventory.switches.map((s) => ({ ...s, key: `switch:${s.id}`, kind: "switch" as const })),
  ];
}

/**
 * The Inventory tab: the 'Switches Stock' bar chart, the 'Used vs Stock' pies and a searchable
 * table where each shelf count can be edited and saved in place.
 */
export function InventoryTab() {
  const section = useSectionData(fetchInventory, "The inventory could not be loaded");
  const inventory = section.data;

  if (!inventory) return <SectionStatus section={section} loading="Loading inventory..." />;

  return (
    <div className="admin-inventory">
      <SwitchesStockChart switches={inventory.switches} />
      <ComponentPies components={inventory.inventory} />
      <WaitingProducts products={inventory.waitingProducts} />
      <StockEditor rows={rowsOf(inventory)} onSaved={section.load} />
    </div>
  );
}

/** Packs and items shoppers asked to hear about when back in stock: the restock signal. */
function WaitingProducts({ products }: { products: InventoryView["waitingProducts"] }) {
  return (
    <section className="card" aria-labelledby="waiting-heading">
      <h2 id="waiting-heading">Shoppers waiting</h2>
      {products.length === 0
        ? <p className="muted">Nobody is waiting for a pack or item to be back in stock.</p>
        : (
          <ul>
            {products.map((p) => (
              <li key={p.id}>
                {p.name}: {p.waiting} {p.waiting === 1 ? "shopper" : "shoppers"}
              </li>
            ))}
          </ul>
        )}
      <p className="muted small">Waiting shoppers per switch are in the table below.</p>
    </section>
  );
}

/** The searchable stock table: a number input and a Save button per line. */
function StockEditor({ rows, onSaved }: { rows: StockRow[]; onSaved: () => Promise<unknown> }) {
  const [query, setQuery] = useState("");
  const [lowOnly, setLowOnly] = useState(false);
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return rows.filter((r) => (!q || r.name.toLowerCase().includes(q)) && (!lowOnly || r.low));
  }, [rows, query, lowOnly]);
  const lowCount = rows.filter((r) => r.low).length;

  return (
    <section className="card admin-stock" aria-labelledby="stock-editor-heading">
      <h2 id="stock-editor-heading">Edit Stock</h2>
      <div className="field admin-stock-search">
        <label htmlFor="stock-search">Search switches and components</label>
        <input
          id="stock-search"
          type="search"
          placeholder="Name or brand"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <label className="admin-low-filter">
        <input type="checkbox" checked={lowOnly} onChange={(e) => setLowOnly(e.target.checked)} />
        Low stock only ({lowCount})
      </label>
      <p className="muted small" role="status">
        {shown.length} of {rows.length} shown
      </p>
      {/* Said beside the field, since Available sits next to it and is not the number to enter. */}
      <p id="stock-hint" className="small admin-stock-hint">
        Stock is what is on the shelf, reserved units included. Count the shelf and enter that
        number. The owner is emailed once when what is available falls to the low-stock level; days
        left are at the last 30 days' rate of sale.
      </p>
      <div className="admin-table-wrap admin-stock-wrap">
        <table className="admin-table admin-stock-table">
          <caption className="visually-hidden">Stock of every switch and component</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Stock (on shelf)</th>
              <th scope="col">Reserved</th>
              <th scope="col">Available</th>
              <th scope="col">Used</th>
              <th scope="col">Low at</th>
              <th scope="col">Days left</th>
              <th scope="col">Waiting</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => <StockLine key={row.key} row={row} onSaved={onSaved} />)}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** "12 days", "no sales in 30 days". */
function runwayText(row: StockRow): string {
  if (row.runwayDays === null) return "No sales in 30 days";
  return row.runwayDays === 1 ? "1 day" : `${row.runwayDays} days`;
}

/** What a Save sends: only the figures that were changed, as numbers (blank stays blank). */
function changesOf(stock: string | null, lowAt: string | null) {
  const number = (typed: string) => (typed.trim() === "" ? null : Number(typed.trim()));
  return {
    ...(stock === null ? {} : { stock: number(stock) }),
    ...(lowAt === null ? {} : { lowStockAt: number(lowAt) }),
  };
}

/** One stock line; the inputs keep what was typed until it is saved. */
function StockLine({ row, onSaved }: { row: StockRow; onSaved: () => Promise<unknown> }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [lowDraft, setLowDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = `stock-${row.key.replace(":", "-")}`;
  const formId = `${inputId}-form`;
  const value = draft ?? String(row.stock);
  const lowValue = lowDraft ?? String(row.lowStockAt);
  const changed = draft !== null || lowDraft !== null;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !changed) return;
    setBusy(true);
    try {
      const saved = await updateStock(
        row.kind === "switch"
          ? { kind: "switch", id: row.id! }
          : { kind: "component", name: row.name },
        changesOf(draft, lowDraft),
      );
      toast.success(
        draft !== null
          ? `Stock of ${row.name} set to ${saved.stock}`
          : `Low-stock level of ${row.name} set to ${saved.lowStockAt}`,
      );
      await onSaved();
      setDraft(null);
      setLowDraft(null);
    } catch (err) {
      reportAdminError(err, "An error occurred", [400, 404]);
    } finally {
      setBusy(false);
    }
  }

  return (
    <tr className={row.low ? "admin-stock-low" : undefined}>
      <th scope="row" data-label="Name">
        {withBreaks(row.name)}
        {row.low && <span className="admin-low-badge">Low</span>}
      </th>
      <td data-label="Type">{row.kind === "switch" ? "Switch" : "Component"}</td>
      <td data-label="Stock (on shelf)">
        <form id={formId} className="admin-stock-form" onSubmit={save} noValidate>
          <label htmlFor={inputId} className="visually-hidden">Stock of {row.name}</label>
          <input
            id={inputId}
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            value={value}
            aria-describedby="stock-hint"
            onChange={(e) => setDraft(e.target.value)}
          />
          <button
            type="submit"
            className="button small-button"
            // In the Tab order before anything is typed, saying it has nothing to save yet.
            aria-disabled={busy || !changed}
            aria-label={`Save stock of ${row.name}`}
          >
            Save
          </button>
        </form>
      </td>
      <td data-label="Reserved">{row.reserved}</td>
      <td data-label="Available">{row.available}</td>
      <td data-label="Used">{row.used}</td>
      <td data-label="Low at">
        <label htmlFor={`${inputId}-low`} className="visually-hidden">
          Low-stock level of {row.name}
        </label>
        <input
          id={`${inputId}-low`}
          form={formId}
          className="admin-low-input"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          value={lowValue}
          onChange={(e) => setLowDraft(e.target.value)}
        />
      </td>
      <td data-label="Days left">{runwayText(row)}</td>
      <td data-label="Waiting">{row.waiting ?? "—"}</td>
    </tr>
  );
}
