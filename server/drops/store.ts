/**
 * Reading a drop's records: the drop, the one drop of a target, its ledger and its tickets. Writes
 * belong to the functions that decide them (scheduling, joining, admitting, the checkout's write).
 */
import type { DropTarget } from "../../shared/drops.ts";
import { keys } from "../kv/keys.ts";
import { type DropLedger, type DropRecord, targetKey, type TicketRecord } from "./record.ts";

/** A drop by id, or null. */
export async function getDrop(kv: Deno.Kv, id: string): Promise<DropRecord | null> {
  return (await kv.get<DropRecord>(keys.drop(id))).value;
}

/**
 * The drop scheduled, running or sold out for `target`, with its ledger (the index entry, then
 * both in one read), or null: every product page asks, most for a target with no drop.
 */
export async function dropOfTarget(
  kv: Deno.Kv,
  target: DropTarget,
): Promise<{ drop: DropRecord; ledger: DropLedger } | null> {
  const id = (await kv.get<string>(keys.dropByTarget(targetKey(target)))).value;
  if (!id) return null;
  const [drop, ledger] = await kv.getMany<[DropRecord, DropLedger]>([
    keys.drop(id),
    keys.dropLedger(id),
  ]);
  if (!drop.value || drop.value.cancelledAt !== null) return null;
  return { drop: drop.value, ledger: ledgerOf(ledger) };
}

/** A drop's ledger entry (checked by the writes that change it). */
export function readLedger(kv: Deno.Kv, id: string): Promise<Deno.KvEntryMaybe<DropLedger>> {
  return kv.get<DropLedger>(keys.dropLedger(id));
}

/** The ledger an entry holds (nothing held or sold before the first checkout). */
export function ledgerOf(entry: Deno.KvEntryMaybe<DropLedger>): DropLedger {
  return entry.value ?? { holding: 0, sold: 0 };
}

/** A ticket's entry (checked by the checkout that spends it). */
export function findTicket(
  kv: Deno.Kv,
  dropId: string,
  ticket: string,
): Promise<Deno.KvEntryMaybe<TicketRecord>> {
  return kv.get<TicketRecord>(keys.dropTicket(dropId, ticket));
}

/** Until when an admitted place may start a checkout (the drop's hold time after admission). */
export function admittedUntil(drop: DropRecord, ticket: TicketRecord): number | null {
  return ticket.admittedAt === null ? null : ticket.admittedAt + drop.holdMinutes * 60_000;
}

/**
 * Counts a refusal in a drop by reason ("no admitted ticket", "per-person limit", "sold out", ...)
 * for the owner's live view. A sum, so refusals never conflict with each other; best effort: a
 * count that fails to write must not turn the shopper's 409 into a 500.
 */
export async function countRefusal(kv: Deno.Kv, dropId: string, reason: string): Promise<void> {
  try {
    await kv.atomic().sum(keys.dropRefused(dropId, reason), 1n).commit();
  } catch {
    // The refusal stands; only the owner's tally misses one.
  }
}
