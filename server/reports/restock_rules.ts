/**
 * The restock list's rule: for every switch, component and wanted product, how many units the
 * shop is short of, how many people wait for it and how many days what is free lasts, ranked so
 * the owner prints or buys the top rows first. Pure: the caller reads the stock, the sales, the
 * back-in-stock sign-ups and the drops' unfilled waiting rooms (./restock.ts).
 *
 * The ranking, in order: units short (what the waiting people would buy, plus the owner's
 * low-stock level, less the free stock), then people waiting, then fewest days of runway (a row
 * that sold nothing has no runway figure and comes after any that did). Units short leads because
 * it is the order the owner places; people waiting breaks ties because each is a sale already
 * asked for; runway last because it is a forecast.
 */
import type { Bom, StockKey } from "../../shared/bom.ts";
import { switchKey } from "../../shared/bom.ts";
import type { RestockRow } from "../../shared/restock.ts";
import { RUNWAY_DAYS } from "../stock/inventory.ts";

/** A row with more days of runway than this, nothing short and nobody waiting is left off. */
export const CALM_RUNWAY_DAYS = 30;

/** What the caller read of one stock key. */
export interface StockFigures {
  /** Units a checkout could still reserve. */
  free: number;
  /** The owner's low-stock level. */
  level: number;
  soldLast30Days: number;
}

/** People waiting for one subject (`switch:<id>` or `product:<id>`), and what they would buy. */
export interface Waiting {
  people: number;
  units: number;
}

/** What can be restocked: switches still sold, the other components, products still sold. */
export interface RestockCatalog {
  switches: readonly { id: number; name: string }[];
  components: readonly { key: StockKey; name: string }[];
  products: readonly { id: number; name: string; bom: Bom; soldLast30Days: number }[];
}

/** Units short: wanted plus the low-stock level, less what is free, never below 0. */
export function unitsShortOf(wanted: number, level: number, free: number): number {
  return Math.max(0, wanted + level - free);
}

/** Whole days the free units last at the last 30 days' daily rate; null when nothing sold. */
export function daysOfRunway(free: number, soldLast30Days: number): number | null {
  return soldLast30Days > 0 ? Math.floor(free / (soldLast30Days / RUNWAY_DAYS)) : null;
}

/** Caps that keep the score an exact integer (far beyond what one shop holds). */
const MAX_SHORT = 9_999_999;
const MAX_PEOPLE = 99_999;
const MAX_DAYS = 999;

/**
 * The ranking as one number, higher first: units short, then people waiting, then fewest days of
 * runway, each in its own digits so no amount of a later figure outweighs one unit of an earlier.
 */
export function restockScore(
  row: Pick<RestockRow, "unitsShort" | "peopleWaiting" | "daysOfRunway">,
): number {
  const urgency = row.daysOfRunway === null ? 0 : MAX_DAYS - Math.min(row.daysOfRunway, MAX_DAYS);
  return Math.min(row.unitsShort, MAX_SHORT) * 100_000_000 +
    Math.min(row.peopleWaiting, MAX_PEOPLE) * 1_000 + urgency;
}

/** Whether a row belongs on the list: something short, someone waiting, or a month left or less. */
export function isWorthListing(
  row: Pick<RestockRow, "unitsShort" | "peopleWaiting" | "daysOfRunway">,
): boolean {
  return row.unitsShort > 0 || row.peopleWaiting > 0 ||
    (row.daysOfRunway !== null && row.daysOfRunway <= CALM_RUNWAY_DAYS);
}

function addTo(map: Map<StockKey, Waiting>, key: StockKey, people: number, units: number): void {
  const w = map.get(key) ?? { people: 0, units: 0 };
  map.set(key, { people: w.people + people, units: w.units + units });
}

/** How many of a bill of materials the free stock makes (0 when a part is missing). */
function makeable(bom: Bom, stock: (key: StockKey) => StockFigures): number {
  let units = Infinity;
  for (const [key, amount] of bom) units = Math.min(units, Math.floor(stock(key).free / amount));
  return Number.isFinite(units) ? Math.max(0, units) : 0;
}

/**
 * The restock list, ranked. `waiting` is keyed by subject: people waiting for a switch count on
 * that switch; people waiting for a product count on a product row of its own and on every
 * component the product takes (their units times the component's amount), since making it needs
 * them all. Rows not worth listing are left off; ties keep the catalogue's name order.
 */
export function restockRows(
  catalog: RestockCatalog,
  stock: (key: StockKey) => StockFigures,
  waiting: ReadonlyMap<string, Waiting>,
): RestockRow[] {
  const perKey = new Map<StockKey, Waiting>();
  const rows: RestockRow[] = [];
  for (const product of catalog.products) {
    const w = waiting.get(`product:${product.id}`);
    if (!w || w.people === 0) continue;
    for (const [key, amount] of product.bom) addTo(perKey, key, w.people, w.units * amount);
    const free = makeable(product.bom, stock);
    rows.push(
      rowOf("product", String(product.id), product.name, free, 0, w, product.soldLast30Days),
    );
  }
  for (const s of catalog.switches) {
    const key = switchKey(s.id);
    const direct = waiting.get(key);
    if (direct) addTo(perKey, key, direct.people, direct.units);
    const f = stock(key);
    const w = perKey.get(key) ?? { people: 0, units: 0 };
    rows.push(rowOf("switch", String(s.id), s.name, f.free, f.level, w, f.soldLast30Days));
  }
  for (const c of catalog.components) {
    const f = stock(c.key);
    const w = perKey.get(c.key) ?? { people: 0, units: 0 };
    rows.push(rowOf("component", c.key, c.name, f.free, f.level, w, f.soldLast30Days));
  }
  return rows.filter(isWorthListing)
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
}

function rowOf(
  kind: RestockRow["kind"],
  id: string,
  name: string,
  free: number,
  level: number,
  w: Waiting,
  sold: number,
): RestockRow {
  const figures = {
    unitsShort: unitsShortOf(w.units, level, free),
    peopleWaiting: w.people,
    daysOfRunway: daysOfRunway(free, sold),
  };
  return {
    kind,
    id,
    name,
    stock: free,
    ...figures,
    score: restockScore(figures),
    unitsWanted: w.units,
    lowStockAt: level,
    soldLast30Days: sold,
  };
}
