import { COMPONENTS, type StockKey, switchKey } from "../../shared/bom.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { INITIAL_COMPONENT_STOCK } from "../../shared/catalog/products.ts";
import { keys } from "../kv/keys.ts";
import { jobInto } from "../kv/jobs.ts";
import { CONFLICT, getManyBatched, LIST_BATCH, setMissing, withRetries } from "../kv/kv_util.ts";
import { commitStockChange, type PerStockVersion, perStockVersion } from "../kv/version.ts";
import { NotFound } from "../errors.ts";
import type { Clock } from "../clock.ts";
import { randomId } from "../crypto.ts";
import type { Actor } from "../audit/actor.ts";
import { auditEntry, auditInto } from "../audit/log.ts";
import {
  availableOf,
  counted,
  levelOf,
  type StockCounts,
  type StockRecord,
  stockRecordOf,
  stockSignals,
  withCounts,
} from "./record.ts";

/** A low-stock alert waiting to be emailed (written with the stock change that caused it). */
export interface LowStockAlert {
  key: StockKey;
  available: number;
  lowStockAt: number;
  at: number;
}

/** The stored job that emails one low-stock alert. */
export interface LowStockJob {
  type: "low-stock";
  key: StockKey;
  at: number;
  /** Absent on jobs queued before alerts had ids. */
  id?: string;
}

/** The stored job that compares back-in-stock sign-ups with the stock. */
export interface StockAlertsJob {
  type: "stock-alerts";
}

/**
 * Adds the back-in-stock check to `op`, due at `now`. Every such job is the same pass over every
 * sign-up, so it has one fixed id: the records one write frees, and writes at the same moment,
 * share one entry instead of storing a pass each (a pack's lapse freed eleven records).
 */
export function stockAlertsJobInto(op: Deno.AtomicOperation, now: number): Deno.AtomicOperation {
  return jobInto(op, { type: "stock-alerts" } satisfies StockAlertsJob, {
    at: now,
    id: "stock-alerts",
  });
}

/** Mutations a stock write may add per record for its low-stock and back-in-stock signals. */
export const LOW_STOCK_MUTATIONS = 3;

/**
 * Adds a record's write to `op` with what it signals (server/stock/record.ts): the low-stock
 * alert and its job when available units just fell to the owner's level, the back-in-stock check
 * when units came free or it sold out. Flag and alert are one write, so one fall is told once,
 * whichever process or batch wrote it. Answers the record as written.
 */
function writeWithSignals(
  op: Deno.AtomicOperation,
  key: StockKey,
  record: StockRecord,
  before: StockRecord | null,
  now: number,
): StockRecord {
  const signals = stockSignals(record, before);
  if (signals.changedForWaiting) stockAlertsJobInto(op, now);
  if (signals.fell) {
    const alert: LowStockAlert = {
      key,
      available: availableOf(record),
      lowStockAt: levelOf(record),
      at: now,
    };
    const id = randomId(6);
    op.set(keys.lowStockAlert(key, now, id), alert);
    jobInto(op, { type: "low-stock", key, at: now, id } satisfies LowStockJob, { at: now });
  }
  op.set(keys.stock(key), signals.record);
  return signals.record;
}

/** Writes initial stock where absent; stock changed since (sales, admin edits) is kept. */
export async function seedStock(kv: Deno.Kv, clock: Clock, newStore = false): Promise<number> {
  const entries: [Deno.KvKey, StockRecord][] = [
    ...SWITCHES.map((s): [Deno.KvKey, StockRecord] => [
      keys.stock(switchKey(s.id)),
      { stock: s.initialStock, reserved: 0, used: 0 },
    ]),
    ...COMPONENTS.map((c): [Deno.KvKey, StockRecord] => [
      keys.stock(c),
      { stock: INITIAL_COMPONENT_STOCK[c], reserved: 0, used: 0 },
    ]),
  ];
  const written = await setMissing(kv, entries, {
    commit: (op) => commitStockChange(kv, op, clock.now()),
    storeWasEmpty: newStore,
  });
  // A store whose stock never changed since an older seeding has no version yet; give it one, so
  // the catalogue routes can cache by it (a concurrent bump wins the check, which is as good).
  const absent = kv.atomic().check({ key: keys.stockVersion(), versionstamp: null });
  await commitStockChange(kv, absent, clock.now());
  return written;
}

/** Stock entries (with versionstamps, for check-and-set) for these keys; absent counts as 0. */
export async function getStockEntries(
  kv: Deno.Kv,
  stockKeys: readonly StockKey[],
): Promise<Map<StockKey, Deno.KvEntryMaybe<StockRecord>>> {
  const entries = await getManyBatched<StockRecord>(kv, stockKeys.map((k) => keys.stock(k)));
  return new Map(stockKeys.map((k, i) => [k, entries[i]]));
}

/** The records of entries read by `getStockEntries`. */
export function recordsOf(
  entries: Map<StockKey, Deno.KvEntryMaybe<StockRecord>>,
): Map<StockKey, StockRecord> {
  return new Map([...entries].map(([k, e]) => [k, stockRecordOf(e.value)]));
}

/**
 * Adds checked writes of new counts to `op`, each against the entry it was computed from, with
 * their signals (at most LOW_STOCK_MUTATIONS more mutations per record). Only the counts are taken
 * from `next`: the rest of each record (the owner's level, the alert flag) is the one read.
 */
export function writeStockTo(
  op: Deno.AtomicOperation,
  entries: Map<StockKey, Deno.KvEntryMaybe<StockRecord>>,
  next: ReadonlyMap<StockKey, StockCounts>,
  now: number,
): void {
  for (const [key, counts] of next) {
    const entry = entries.get(key)!;
    const before = entry.value ? stockRecordOf(entry.value) : null;
    op.check(entry);
    writeWithSignals(op, key, withCounts(before, counts), before, now);
  }
}

/** Adds creating a stock record (a new switch's) to `op`, checked to be absent. */
export function createStockInto(
  op: Deno.AtomicOperation,
  key: StockKey,
  counts: StockCounts,
  now: number,
): void {
  op.check({ key: keys.stock(key), versionstamp: null });
  writeWithSignals(op, key, withCounts(null, counts), null, now);
}

/**
 * Adds the owner's new shelf count of one component to `op`, within the write of the edit that
 * sets it (a switch's edit), checked against the entry read: the change it makes, or null when
 * the count is the same (nothing is added). A record that was lost counts as empty and is made
 * again: this edit is how the owner puts one back.
 */
export function setShelfCountInto(
  op: Deno.AtomicOperation,
  key: StockKey,
  entry: Deno.KvEntryMaybe<StockRecord>,
  stock: number,
  now: number,
): { from: number; to: number } | null {
  const current = entry.value ? stockRecordOf(entry.value) : null;
  const from = current?.stock ?? 0;
  if (from === stock) return null;
  op.check(entry);
  writeWithSignals(op, key, counted(current ?? stockRecordOf(null), { stock }), current, now);
  return { from, to: stock };
}

/**
 * Migration 1's change of every stock record: records were { stock, used } with held units taken
 * out of `stock`; now `stock` is the shelf (held units included) and `reserved` counts the held
 * ones. `held` is what the orders hold per component. Records in the new shape are skipped, so
 * it may run again after a crash in its middle.
 */
export async function countHeldAsReserved(
  kv: Deno.Kv,
  held: ReadonlyMap<StockKey, number>,
  now: number,
): Promise<void> {
  for await (const listed of kv.list<Partial<StockRecord>>({ prefix: keys.stocks() })) {
    // Checked writes, read again when another writer got there first.
    for (let entry = listed; typeof entry.value?.reserved !== "number";) {
      const n = held.get(entry.key[1] as StockKey) ?? 0;
      const next: StockRecord = {
        stock: (entry.value?.stock ?? 0) + n,
        reserved: n,
        used: entry.value?.used ?? 0,
      };
      const op = kv.atomic().check(entry).set(entry.key, next);
      if (await commitStockChange(kv, op, now)) break;
      const fresh = await kv.get<Partial<StockRecord>>(entry.key);
      if (!fresh.value) break;
      entry = fresh as Deno.KvEntry<Partial<StockRecord>>;
    }
  }
}

/**
 * Units a checkout could reserve now, for just these components: what a cart's checks read.
 * From the snapshot of all stock (below) while it is current; a shop that sells changes its
 * stock every few orders, so otherwise a cart reads its own few entries rather than wait for
 * the whole stock to be listed again.
 */
export async function freeUnits(
  kv: Deno.Kv,
  stockKeys: readonly StockKey[],
): Promise<Map<StockKey, number>> {
  if (stockKeys.length === 0) return new Map();
  const snapshot = await stockSnapshot.peek(kv);
  if (snapshot) return new Map(stockKeys.map((k) => [k, snapshot.get(k) ?? 0]));
  const entries = await getStockEntries(kv, [...new Set(stockKeys)]);
  return new Map([...entries].map(([k, e]) => [k, availableOf(stockRecordOf(e.value))]));
}

/** Every stock record. */
export async function listStock(kv: Deno.Kv): Promise<Map<StockKey, StockRecord>> {
  const all = new Map<StockKey, StockRecord>();
  for await (
    const entry of kv.list<StockRecord>({ prefix: keys.stocks() }, { batchSize: LIST_BATCH })
  ) {
    all.set(entry.key[1] as StockKey, stockRecordOf(entry.value));
  }
  return all;
}

/**
 * Sets the owner's figures of one component: its shelf count, its low-stock level, or both;
 * reserved and used are kept.
 */
export async function setShelfCount(
  kv: Deno.Kv,
  key: StockKey,
  change: { stock?: number; lowStockAt?: number },
  now: number,
  /** The owner's (or a helper's) count, recorded in the same write with what it was before. */
  by?: { clock: Clock; actor: Actor },
): Promise<StockRecord> {
  return await withRetries(
    async () => {
      const entry = await kv.get<StockRecord>(keys.stock(key));
      if (!entry.value) throw new NotFound(`No stock record for ${key}`);
      const current = stockRecordOf(entry.value);
      const op = kv.atomic().check(entry);
      const next = writeWithSignals(op, key, counted(current, change), current, now);
      if (by) {
        const changes: Record<string, { from: unknown; to: unknown }> = {};
        if (change.stock !== undefined) changes.stock = { from: current.stock, to: next.stock };
        if (change.lowStockAt !== undefined) {
          changes.lowStockAt = { from: levelOf(current), to: levelOf(next) };
        }
        const fields = { kind: "stock" as const, action: "stock.counted", target: key, changes };
        auditInto(op, auditEntry(by.clock, by.actor, fields));
      }
      return await commitStockChange(kv, op, now) ? next : CONFLICT;
    },
    "set the stock",
    "stock",
  );
}

/**
 * Units a checkout could reserve now, per component, as of the stock version (see
 * stock_version.ts), listed once per version and shared by concurrent callers: the catalogue's
 * availability flags. Advisory reads only: a reservation checks each entry's versionstamp itself.
 */
export const stockSnapshot: PerStockVersion<Map<StockKey, number>> = perStockVersion(
  async (kv) => {
    const all = await listStock(kv);
    return new Map([...all].map(([key, r]) => [key, availableOf(r)]));
  },
);
