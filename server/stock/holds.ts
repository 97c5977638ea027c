/** The unpaid checkouts each client holds stock with, so no one client can hoard the shelf. */
import { keys } from "../kv/keys.ts";
import { Conflict, LimitReached } from "../errors.ts";

/** One hold: an unpaid order, the units it holds, and when its reservation lapses. */
export interface Hold {
  orderNumber: string;
  expiresAt: number;
  /**
   * Units (testers, packs, items) the order holds. Absent on holds written before units were
   * counted: those lapse within one reservation time and count as none meanwhile.
   */
  units?: number;
}

/** The units a client's holds hold together. */
export function heldUnits(holds: readonly Hold[]): number {
  return holds.reduce((sum, h) => sum + (h.units ?? 0), 0);
}

/**
 * Refuses a new hold of `units` that would take one client past `maxUnits` with its `others`
 * (the holds it keeps): a cart bigger than the cap on its own is a 409 (waiting changes nothing),
 * one that fits alone is a 429 until one of the others is paid, replaced or lapses.
 */
export function checkHeldUnits(
  others: readonly Hold[],
  units: number,
  limits: { maxUnits: number; reservationMinutes: number },
  now: number,
): void {
  const { maxUnits, reservationMinutes } = limits;
  if (units > maxUnits) {
    throw new Conflict(
      `A checkout can hold at most ${maxUnits} items at once, and this cart has ${units}. Remove some items and check out again; for a larger order, write to us.`,
    );
  }
  const held = heldUnits(others);
  if (held + units <= maxUnits) return;
  const firstLapse = Math.min(...others.map((h) => h.expiresAt));
  throw new LimitReached(
    `Your checkouts waiting for payment already hold ${held} items, and this cart has ${units}: one shopper can hold at most ${maxUnits} items at once. Pay for one of your checkouts, or wait until one is released (holds last ${reservationMinutes} minutes), then try again.`,
    Math.max(1, Math.ceil((firstLapse - now) / 1000)),
    "held-units",
  );
}

/** A client's holds as stored (with the versionstamp for check-and-set). */
export type HoldsEntry = Deno.KvEntryMaybe<Hold[]>;

/** The holds of a client that still count at `now`: lapsed ones count no more. */
export function liveHolds(entry: HoldsEntry, now: number): Hold[] {
  return (entry.value ?? []).filter((h) => h.expiresAt > now);
}

/**
 * Adds the write of a client's holds to `op`, checked against the entry read, dropping lapsed
 * ones; a client left with none has its record deleted.
 */
export function writeHoldsTo(
  op: Deno.AtomicOperation,
  client: string,
  entry: HoldsEntry,
  holds: readonly Hold[],
  now: number,
): void {
  const live = holds.filter((h) => h.expiresAt > now);
  op.check(entry);
  if (live.length === 0) op.delete(keys.holds(client));
  else {
    const lastExpiry = Math.max(...live.map((h) => h.expiresAt));
    op.set(keys.holds(client), live, { expireIn: Math.max(1, lastExpiry - now) + 60_000 });
  }
}

/** Adds freeing one order's hold to `op` (nothing when the client holds no such order). */
export function freeHoldInto(
  op: Deno.AtomicOperation,
  client: string | null,
  entry: HoldsEntry,
  orderNumber: string,
  now: number,
): void {
  if (!client || !entry.value) return;
  const rest = entry.value.filter((h) => h.orderNumber !== orderNumber);
  if (rest.length !== entry.value.length) writeHoldsTo(op, client, entry, rest, now);
}

/**
 * Adds moving one order's hold to its new end to `op` (the shopper extended it), so the client's
 * holds keep counting it until then; nothing when the client holds no such order.
 */
export function extendHoldInto(
  op: Deno.AtomicOperation,
  client: string | null,
  entry: HoldsEntry,
  orderNumber: string,
  expiresAt: number,
  now: number,
): void {
  if (!client || !entry.value?.some((h) => h.orderNumber === orderNumber)) return;
  const holds = entry.value.map((h) => h.orderNumber === orderNumber ? { ...h, expiresAt } : h);
  writeHoldsTo(op, client, entry, holds, now);
}
