/** The unpaid checkouts each client holds stock with, so no one client can hoard the shelf. */
import { keys } from "../kv/keys.ts";

/** One hold: an unpaid order and when its reservation lapses. */
export interface Hold {
  orderNumber: string;
  expiresAt: number;
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
