import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { Fragment } from "react";
import { COMPONENTS } from "../../../shared/bom.ts";
import type { InventoryView } from "../../../shared/api_types.ts";
import { useMediaQuery } from "../../app/use_media_query.ts";
import { tickLines } from "./chart_labels.ts";

/** One switch's stock. */
type SwitchStock = InventoryView["switches"][number];
/** One component's stock (boxes, keycaps, cube bodies). */
type ComponentStock = InventoryView["inventory"][number];

/**
 * The bar colour of 'Switches Stock' (docs/product.md#admin-dashboard: a fixed bar colour), free
 * units.
 */
const BAR_COLOR = "#5b7fd6";
/** Reserved units, in the bars and the pies alike. */
const RESERVED_COLOR = "#b7791f";
/** Pie slices: Available, Reserved, then Used. */
const PIE_COLORS = ["#3f9a5b", RESERVED_COLOR, "#d9534f"];
/**
 * Height of one switch's bar row; the chart grows with the catalogue and scrolls. Taller on a
 * phone, where a name takes two lines of the narrower axis.
 */
const ROW_PX = 24;
const PHONE_ROW_PX = 30;
/** The name axis: its width, font size and the characters a line of it holds. */
const WIDE_AXIS = { width: 200, fontSize: 12, chars: 28 };
const PHONE_AXIS = { width: 130, fontSize: 11, chars: 18 };

const TOOLTIP_STYLE = {
  background: "var(--surface)",
  border: "1px solid var(--border)",
  color: "var(--text)",
};

/**
 * 'Switches Stock': a horizontal bar chart, one bar per switch, tall enough for every name to
 * be read (it scrolls inside its box for 120+ switches).
 */
export function SwitchesStockChart({ switches }: { switches: SwitchStock[] }) {
  // Followed while the page is open: a phone turned sideways gets the wide axis.
  const narrow = useMediaQuery("(max-width: 600px)");
  const axis = narrow ? PHONE_AXIS : WIDE_AXIS;
  const height = Math.max(200, switches.length * (narrow ? PHONE_ROW_PX : ROW_PX) + 40);
  return (
    <section className="card admin-chart-card" aria-labelledby="switches-stock-heading">
      <h2 id="switches-stock-heading">Switches Stock</h2>
      <p className="muted small">
        {switches.length} switches, {sum(switches, "stock")} on the shelf, of which{" "}
        {sum(switches, "reserved")}{" "}
        reserved by unpaid checkouts. The table below lists the same numbers.
      </p>
      {/* The table below says it in words; the box scrolls, so it is a named Tab stop. */}
      <div
        className="admin-bar-scroll"
        role="region"
        aria-label="Switches Stock chart"
        tabIndex={0}
      >
        <div style={{ height }} className="admin-chart" aria-hidden="true">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              accessibilityLayer={false}
              data={switches}
              layout="vertical"
              margin={{ top: 8, right: 24, bottom: 8, left: 8 }}
            >
              <CartesianGrid strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" allowDecimals={false} orientation="top" />
              <YAxis
                type="category"
                dataKey="name"
                width={axis.width}
                interval={0}
                // Between a two-line name's lines, a tick mark reads as an underscore.
                tickLine={!narrow}
                // Names that start alike ("NovelKeys x Kailh …") wrap onto a second line rather
                // than being cut to the same start; whole in the tooltip and the table.
                tick={(props: NameTickProps) => (
                  <NameTick {...props} fontSize={axis.fontSize} chars={axis.chars} />
                )}
              />
              <Tooltip contentStyle={TOOLTIP_STYLE} cursor={{ fillOpacity: 0.15 }} />
              <Legend verticalAlign="top" />
              {/* Stacked, the two make up the shelf count: the bar's length is still the stock. */}
              <Bar
                dataKey="available"
                name="Available"
                stackId="shelf"
                fill={BAR_COLOR}
                isAnimationActive={false}
              />
              <Bar
                dataKey="reserved"
                name="Reserved"
                stackId="shelf"
                fill={RESERVED_COLOR}
                isAnimationActive={false}
              />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </div>
    </section>
  );
}

/** What recharts hands a custom axis tick: where it goes and its value. */
interface NameTickProps {
  x?: number | string;
  y?: number | string;
  payload?: { value?: unknown };
}

/** One switch's name on the chart's axis, on one or two lines centred on its bar. */
function NameTick(
  { x, y, payload, fontSize, chars }: NameTickProps & { fontSize: number; chars: number },
) {
  const lines = tickLines(String(payload?.value ?? ""), chars);
  // The block of lines is centred on the bar: the first line starts half a block above it.
  const lineEm = 1.15;
  return (
    <text
      x={x}
      y={y}
      textAnchor="end"
      dominantBaseline="central"
      fontSize={fontSize}
      className="recharts-text recharts-cartesian-axis-tick-value"
    >
      {lines.map((line, i) => (
        <tspan
          key={i}
          x={x}
          dy={`${i === 0 ? -((lines.length - 1) * lineEm) / 2 : lineEm}em`}
        >
          {line}
        </tspan>
      ))}
    </text>
  );
}

function sum(switches: SwitchStock[], field: "stock" | "reserved"): number {
  return switches.reduce((n, s) => n + s[field], 0);
}

/** A component name that may wrap after its underscores (TRANSPARENT_ / KEYCAP). */
export function withBreaks(name: string) {
  return name.split("_").map((part, i) => (
    <Fragment key={i}>
      {i > 0 && (
        <>
          _<wbr />
        </>
      )}
      {part}
    </Fragment>
  ));
}

/**
 * 'Used vs Stock' pies for the boxes, keycaps and cube bodies, each with its numbers. The stock
 * is split into what is free to sell and what unpaid checkouts hold.
 */
export function ComponentPies({ components }: { components: ComponentStock[] }) {
  // Every component that is not a switch gets a pie, in the bill of materials' (the spec's) order.
  const shown = COMPONENTS.map((name) =>
    components.find((c) => c.name === name) ??
      { name, stock: 0, reserved: 0, available: 0, used: 0 }
  );
  return (
    <section className="admin-pies" aria-labelledby="used-vs-stock-heading">
      <h2 id="used-vs-stock-heading">Used vs Stock</h2>
      <div className="admin-pie-grid">
        {shown.map((c) => (
          <figure key={c.name} className="card admin-pie" data-testid="component-pie">
            <figcaption>
              <strong>{withBreaks(c.name)}</strong>
              <span className="admin-pie-numbers">Stock: {c.stock} | Used: {c.used}</span>
              <span className="admin-pie-numbers">
                Reserved: {c.reserved} | Available: {c.available}
              </span>
            </figcaption>
            {/* The caption above gives the numbers. */}
            <div className="admin-chart admin-pie-chart" aria-hidden="true">
              <PieChart width={200} height={220} accessibilityLayer={false}>
                <Pie
                  rootTabIndex={-1}
                  data={[
                    { name: "Available", value: c.available },
                    { name: "Reserved", value: c.reserved },
                    { name: "Used", value: c.used },
                  ]}
                  dataKey="value"
                  nameKey="name"
                  cx="50%"
                  cy="50%"
                  outerRadius={80}
                  isAnimationActive={false}
                >
                  {PIE_COLORS.map((color) => <Cell key={color} fill={color} />)}
                </Pie>
                <Tooltip contentStyle={TOOLTIP_STYLE} />
                <Legend />
              </PieChart>
            </div>
          </figure>
        ))}
      </div>
    </section>
  );
}
