/**
 * A component's stock record, and every rule that makes a new record from an old one: the moves
 * of checkouts and payments, the owner's counts, and the low-stock flag. Everything that writes
 * stock builds its records here, so the counts mean one thing everywhere and no writer can drop a
 * field it did not mean to change:
 * - `stock`: units on the shelf not yet sold, reserved ones included (what the owner counts);
 * - `reserved`: units held by unpaid checkouts;
 * - `used`: units sold;
 * - `available`: what a checkout can still reserve, `stock - reserved`, never below 0.
 * A checkout may reserve only what is available; a payment takes its units off the shelf, and
 * never more than the shelf has, whatever the owner entered meanwhile.
 */
import type { StockKey } from "../../shared/bom.ts";

/** Stock of one component. */
export interface StockRecord {
  stock: number;
  reserved: number;
  used: number;
  /** The owner is told when available units fall to this or below (absent: the default). */
  lowStockAt?: number;
  /** Set when the owner was told, cleared when restocked above the level: one email per fall. */
  lowAlerted?: boolean;
}

/** The three counts a move changes; everything else on a record is the owner's. */
export type StockCounts = Pick<StockRecord, "stock" | "reserved" | "used">;

/** The low-stock level of a component the owner has not set one for. */
export const DEFAULT_LOW_STOCK_AT = 10;

/** A stored record as the current shape (records written before `reserved` existed count 0). */
export function stockRecordOf(value: Partial<StockRecord> | null): StockRecord {
  const record: StockRecord = {
    stock: value?.stock ?? 0,
    reserved: value?.reserved ?? 0,
    used: value?.used ?? 0,
  };
  if (value?.lowStockAt !== undefined) record.lowStockAt = value.lowStockAt;
  if (value?.lowAlerted) record.lowAlerted = true;
  return record;
}

/** Units a checkout can still reserve. */
export function availableOf(record: StockCounts): number {
  return Math.max(0, record.stock - record.reserved);
}

/** The owner's low-stock level of a record (or the default). */
export function levelOf(record: Pick<StockRecord, "lowStockAt"> | undefined): number {
  return record?.lowStockAt ?? DEFAULT_LOW_STOCK_AT;
}

/** The low-stock rule: available units at or below the owner's level. */
export function isLow(record: StockRecord): boolean {
  return availableOf(record) <= levelOf(record);
}

/** A stored record with new counts: the owner's level and the alert flag kept as they were. */
export function withCounts(before: StockRecord | null, counts: StockCounts): StockRecord {
  return { ...before, stock: counts.stock, reserved: counts.reserved, used: counts.used };
}

/** A record after the owner's count of the shelf, level, or both: the rest kept. */
export function counted(
  record: StockRecord,
  change: { stock?: number; lowStockAt?: number },
): StockRecord {
  const next: StockRecord = {
    ...record,
    stock: change.stock ?? record.stock,
    lowStockAt: change.lowStockAt ?? record.lowStockAt,
  };
  if (next.lowStockAt === undefined) delete next.lowStockAt;
  return next;
}

/** What a written record means for the owner and the waiting shoppers. */
export interface StockSignals {
  /** The record with its low-stock flag brought up to date. */
  record: StockRecord;
  /** Available units have just fallen to the level or below: the owner is told, once. */
  fell: boolean;
  /** Units came free, or it sold out: back-in-stock sign-ups are compared with it. */
  changedForWaiting: boolean;
}

/**
 * The signals of writing `record` over `before` (null: a new record). The flag is set when
 * available units fall to the level or below and cleared when they rise above it, so one fall is
 * told once whichever process wrote it; raising the level above what is available counts as a
 * fall. Sales that leave units are no news to waiting shoppers.
 */
export function stockSignals(record: StockRecord, before: StockRecord | null): StockSignals {
  const available = availableOf(record);
  const was = before ? availableOf(before) : 0;
  const low = isLow(record);
  return {
    record: low === Boolean(record.lowAlerted) ? record : { ...record, lowAlerted: low },
    fell: low && !record.lowAlerted,
    changedForWaiting: available > was || (available === 0 && was > 0),
  };
}

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
