/**
 * The stock rules, as pure functions over a working copy of stock records. Every writer of stock
 * goes through these, so the counts mean one thing everywhere:
 * - `stock`: units on the shelf not yet sold, reserved ones included (what the owner counts);
 * - `reserved`: units held by unpaid checkouts;
 * - `used`: units sold.
 * A checkout may reserve only what is on the shelf and not reserved; a payment takes its units
 * off the shelf, and never more than the shelf has, whatever the owner entered meanwhile.
 */
import type { StockKey } from "../../shared/bom.ts";
import type { StockRecord } from "../db/stock.ts";

/** What happens to some units of stock. */
export type StockMove =
  /** An unpaid checkout holds them. */
  | "reserve"
  /** A held checkout was paid: they leave the shelf as sold. */
  | "commit"
  /** A held checkout ended unpaid: they are free again. */
  | "release"
  /** A payment arrived after its hold lapsed: sold from what is free now. */
  | "sell"
  /** A paid order was cancelled before shipment: they are back on the shelf. */
  | "restock";

/** Units a checkout can still reserve. */
export function availableOf(record: StockRecord): number {
  return Math.max(0, record.stock - record.reserved);
}

/** One record after a move of `n` units, or null when the shelf cannot cover it. */
export function moved(record: StockRecord, move: StockMove, n: number): StockRecord | null {
  switch (move) {
    case "reserve":
      return availableOf(record) < n ? null : { ...record, reserved: record.reserved + n };
    case "commit":
      if (record.stock < n) return null;
      return {
        ...record,
        stock: record.stock - n,
        reserved: Math.max(0, record.reserved - n),
        used: record.used + n,
      };
    case "release":
      return { ...record, reserved: Math.max(0, record.reserved - n) };
    case "sell":
      if (availableOf(record) < n) return null;
      return { ...record, stock: record.stock - n, used: record.used + n };
    case "restock":
      return { ...record, stock: record.stock + n, used: Math.max(0, record.used - n) };
  }
}

/** Stock records being changed by one or more moves before they are written together. */
export type WorkingStock = Map<StockKey, StockRecord>;

/**
 * Applies a move for every item to a copy of `stock`: the new records of the keys it touched, or
 * the keys the shelf cannot cover (nothing applied).
 */
export function applyMove(
  stock: ReadonlyMap<StockKey, StockRecord>,
  items: readonly (readonly [StockKey, number])[],
  move: StockMove,
): { ok: true; next: WorkingStock } | { ok: false; short: StockKey[] } {
  const next: WorkingStock = new Map();
  const short: StockKey[] = [];
  for (const [key, n] of items) {
    const current = next.get(key) ?? stock.get(key) ?? EMPTY;
    const after = moved(current, move, n);
    if (after) next.set(key, after);
    else short.push(key);
  }
  return short.length > 0 ? { ok: false, short } : { ok: true, next };
}

const EMPTY: StockRecord = { stock: 0, reserved: 0, used: 0 };
