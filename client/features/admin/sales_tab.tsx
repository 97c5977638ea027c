import { type FormEvent, useCallback, useState } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { SalesView } from "../../../shared/api_types.ts";
import { formatDollars } from "../../app/money.ts";
import { fetchSales } from "./admin_api.ts";
import { SectionStatus, useSectionData } from "./use_section.tsx";

const DAY_MS = 86_400_000;
const PRESETS = [7, 30, 90] as const;
const BAR_COLOR = "#5b7fd6";
const TOOLTIP_STYLE = {
  background: "var(--surface)",
  border: "1px solid var(--border)",
  color: "var(--text)",
};
const KIND_LABELS: Record<SalesView["mix"][number]["kind"], string> = {
  pack: "Themed packs",
  custom: "Custom testers",
  cube: "Fidget cubes",
  item: "Cases and other items",
};

/** The UTC day `days` before today and today (the server counts UTC days). */
function lastDays(days: number): { from: string; to: string } {
  const today = Date.now();
  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  return { from: day(today - (days - 1) * DAY_MS), to: day(today) };
}

/**
 * The Sales tab: revenue and orders per UTC day for a chosen range, totals, average order, best
 * sellers, promo code use and what kind of thing sold. Sales are paid orders not cancelled;
 * revenue is what was charged. Each chart has its figures beside it as text, so the charts are
 * hidden from screen readers and the Tab order.
 */
export function SalesTab() {
  const [range, setRange] = useState(() => lastDays(30));
  const [draft, setDraft] = useState(range);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => fetchSales(range), [range]);
  const section = useSectionData(load, "The sales could not be loaded");

  function choose(event: FormEvent) {
    event.preventDefault();
    if (!draft.from || !draft.to) return setError("Choose a first and a last day");
    if (draft.from > draft.to) return setError("The first day must not be after the last day");
    if (Date.parse(draft.to) - Date.parse(draft.from) > 366 * DAY_MS) {
      return setError("Choose a range of at most 366 days");
    }
    setError(null);
    setRange(draft);
  }

  return (
    <section className="admin-sales" aria-labelledby="sales-heading">
      <h2 id="sales-heading">Sales</h2>
      <div className="admin-toolbar" role="group" aria-label="Range">
        {PRESETS.map((days) => {
          const preset = lastDays(days);
          const current = preset.from === range.from && preset.to === range.to;
          return (
            <button
              key={days}
              type="button"
              className="button secondary small-button"
              aria-pressed={current}
              onClick={() => {
                setDraft(preset);
                setRange(preset);
              }}
            >
              Last {days} days
            </button>
          );
        })}
      </div>
      <form className="admin-order-search" aria-label="Custom range" onSubmit={choose}>
        <label>
          From
          <input
            type="date"
            value={draft.from}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "sales-range-error" : undefined}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          />
        </label>
        <label>
          To
          <input
            type="date"
            value={draft.to}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
          />
        </label>
        <button type="submit" className="button secondary">Show</button>
        {error && <p id="sales-range-error" className="error-text" role="alert">{error}</p>}
      </form>
      {section.data === null
        ? <SectionStatus section={section} loading="Loading sales..." />
        : <SalesFigures sales={section.data} range={range} />}
    </section>
  );
}

function SalesFigures({ sales, range }: { sales: SalesView; range: { from: string; to: string } }) {
  const { totals } = sales;
  return (
    <div className="admin-sales-figures">
      <p className="muted small" role="status">
        {range.from} to {range.to} (UTC days): sales are paid orders, cancelled ones left out.
      </p>
      <dl className="admin-sales-totals" data-testid="sales-totals">
        <div>
          <dt>Revenue</dt>
          <dd>{formatDollars(totals.revenue)}</dd>
        </div>
        <div>
          <dt>Orders</dt>
          <dd>{totals.orders}</dd>
        </div>
        <div>
          <dt>Average order</dt>
          <dd>{formatDollars(totals.averageOrder)}</dd>
        </div>
      </dl>
      <DailyChart sales={sales} field="revenue" title="Revenue per day" />
      <DailyChart sales={sales} field="orders" title="Orders per day" />
      <details className="card">
        <summary>Every day as a table</summary>
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">Revenue and orders per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Orders</th>
                <th scope="col">Revenue</th>
              </tr>
            </thead>
            <tbody>
              {sales.days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">{d.date}</th>
                  <td>{d.orders}</td>
                  <td>{formatDollars(d.revenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
      <div className="admin-sales-lists">
        <Ranking
          title="Best-selling packs"
          rows={sales.bestSellers.packs.map((p) => [p.name, p.quantity])}
          empty="No packs sold in this range."
        />
        <Ranking
          title="Best-selling switches"
          rows={sales.bestSellers.switches.map((s) => [s.name, s.quantity])}
          empty="No switches sold in this range."
        />
        <section className="card" aria-labelledby="sales-promos">
          <h3 id="sales-promos">Promo codes</h3>
          {sales.promoCodes.length === 0 ? <p className="muted">No promo codes used.</p> : (
            <ul>
              {sales.promoCodes.map((p) => (
                <li key={p.code}>
                  {p.code}: {p.orders} {p.orders === 1 ? "order" : "orders"},{" "}
                  {formatDollars(p.discount)} off
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="card" aria-labelledby="sales-mix">
          <h3 id="sales-mix">What sold</h3>
          <ul>
            {sales.mix.map((m) => (
              <li key={m.kind}>
                {KIND_LABELS[m.kind]}: {m.quantity} ({formatDollars(m.revenue)}
                {totals.revenue > 0 ? `, ${Math.round((m.revenue / totalMix(sales)) * 100)}%` : ""})
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}

function totalMix(sales: SalesView): number {
  return sales.mix.reduce((sum, m) => sum + m.revenue, 0) || 1;
}

function DailyChart(
  { sales, field, title }: { sales: SalesView; field: "revenue" | "orders"; title: string },
) {
  const id = `sales-${field}-heading`;
  return (
    <section className="card admin-chart-card" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {/* The same figures are in "Every day as a table" below. */}
      <div className="admin-chart admin-sales-chart" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={sales.days} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="date" tick={{ fontSize: 11 }} minTickGap={16} />
            <YAxis allowDecimals={field === "revenue"} width={56} />
            <Tooltip
              contentStyle={TOOLTIP_STYLE}
              formatter={(v) => (field === "revenue" ? formatDollars(Number(v)) : String(v))}
            />
            <Bar dataKey={field} name={title} fill={BAR_COLOR} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </section>
  );
}

function Ranking(
  { title, rows, empty }: { title: string; rows: [string, number][]; empty: string },
) {
  const id = `sales-${title.toLowerCase().replaceAll(" ", "-")}`;
  return (
    <section className="card" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {rows.length === 0 ? <p className="muted">{empty}</p> : (
        <ol>
          {rows.map(([name, quantity]) => <li key={name}>{name}: {quantity}</li>)}
        </ol>
      )}
    </section>
  );
}
