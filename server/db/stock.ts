import { COMPONENTS, type StockKey, switchKey } from "../../shared/bom.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { INITIAL_COMPONENT_STOCK } from "../../shared/catalog/products.ts";
import { keys } from "../kv/keys.ts";
import { CONFLICT, getManyBatched, LIST_BATCH, setMissing, withRetries } from "../kv/kv_util.ts";
import { commitStockChange, type PerStockVersion, perStockVersion } from "./stock_version.ts";
import { NotFound } from "../errors.ts";
import type { Clock } from "../deps.ts";
import { randomId } from "../crypto.ts";

/**
 * Stock of one component (the words are defined in `server/orders/stock_moves.ts`): units on the
 * shelf not yet sold, units held by unpaid checkouts, units sold.
 */
export interface StockRecord {
  stock: number;
  reserved: number;
  used: number;
  /** The owner is told when available units fall to this or below (absent: the default). */
  lowStockAt?: number;
  /** Set when the owner was told, cleared when restocked above the level: one email per fall. */
  lowAlerted?: boolean;
}

/** The low-stock level of a component the owner has not set one for. */
export const DEFAULT_LOW_STOCK_AT = 10;

/** A low-stock alert waiting to be emailed (written with the stock change that caused it). */
export interface LowStockAlert {
  key: StockKey;
  available: number;
  lowStockAt: number;
  at: number;
}

/** Message put on the KV queue to email one low-stock alert. */
export interface LowStockJob {
  type: "low-stock";
  key: StockKey;
  at: number;
  /** Absent on jobs queued before alerts had ids. */
  id?: string;
}

/** Message put on the KV queue to compare back-in-stock sign-ups with the stock. */
export interface StockAlertsJob {
  type: "stock-alerts";
}

/** Mutations a stock write may add per record for its low-stock and back-in-stock signals. */
export const LOW_STOCK_MUTATIONS = 3;

/**
 * The record with its low-stock flag brought up to date, adding the alert to `op` when available
 * units have just fallen to the level or below. The flag and the alert are written together, so a
 * fall is told once whichever process or batch wrote it. Units freed, or a sell-out, also queue a
 * check of the back-in-stock sign-ups (server/stock_alerts/alerts.ts); sales that leave some
 * units do not, so checkouts queue nothing.
 */
function withLowStockFlag(
  op: Deno.AtomicOperation,
  key: StockKey,
  record: StockRecord,
  now: number,
  before: StockRecord | null,
): StockRecord {
  const level = record.lowStockAt ?? DEFAULT_LOW_STOCK_AT;
  const available = Math.max(0, record.stock - record.reserved);
  const was = before ? Math.max(0, before.stock - before.reserved) : 0;
  if (available > was || (available === 0 && was > 0)) {
    op.enqueue({ type: "stock-alerts" } satisfies StockAlertsJob);
  }
  const low = available <= level;
  if (low === Boolean(record.lowAlerted)) return record;
  if (low) {
    const alert: LowStockAlert = { key, available, lowStockAt: level, at: now };
    const id = randomId(6);
    op.set(keys.lowStockAlert(key, now, id), alert)
      .enqueue({ type: "low-stock", key, at: now, id } satisfies LowStockJob);
  }
  return { ...record, lowAlerted: low };
}

/** Writes initial stock where absent; stock changed since (sales, admin edits) is kept. */
export async function seedStock(kv: Deno.Kv, clock: Clock): Promise<number> {
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
  const written = await setMissing(kv, entries, (op) => commitStockChange(kv, op, clock.now()));
  // A store whose stock never changed since an older seeding has no version yet; give it one, so
  // the catalogue routes can cache by it (a concurrent bump wins the check, which is as good).
  const absent = kv.atomic().check({ key: keys.stockVersion(), versionstamp: null });
  await commitStockChange(kv, absent, clock.now());
  return written;
}

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

/** The three counts a stock move changes; everything else on a record is the owner's. */
export type StockCounts = Pick<StockRecord, "stock" | "reserved" | "used">;

/**
 * Adds checked writes of new counts to `op`, each against the entry it was computed from, with
 * their low-stock alerts (at most LOW_STOCK_MUTATIONS more mutations per record). Only the counts
 * are taken from `next`: the rest of each record (the owner's level, the alert flag) is the one
 * read, so no move can drop what it did not mean to change.
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
    const record: StockRecord = {
      ...before,
      stock: counts.stock,
      reserved: counts.reserved,
      used: counts.used,
    };
    op.check(entry).set(keys.stock(key), withLowStockFlag(op, key, record, now, before));
  }
}

/** Adds creating a stock record (a new switch's) to `op`, checked to be absent. */
export function createStockInto(
  op: Deno.AtomicOperation,
  key: StockKey,
  record: StockRecord,
  now: number,
): void {
  op.check({ key: keys.stock(key), versionstamp: null })
    .set(keys.stock(key), withLowStockFlag(op, key, record, now, null));
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
  return new Map(
    [...entries].map((
      [k, e],
    ) => [k, Math.max(0, (e.value?.stock ?? 0) - (e.value?.reserved ?? 0))]),
  );
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
): Promise<StockRecord> {
  return await withRetries(
    async () => {
      const entry = await kv.get<StockRecord>(keys.stock(key));
      if (!entry.value) throw new NotFound(`No stock record for ${key}`);
      const current = stockRecordOf(entry.value);
      const op = kv.atomic().check(entry);
      const next = withLowStockFlag(
        op,
        key,
        {
          ...current,
          stock: change.stock ?? current.stock,
          lowStockAt: change.lowStockAt ?? current.lowStockAt,
        },
        now,
        current,
      );
      if (next.lowStockAt === undefined) delete next.lowStockAt;
      op.set(keys.stock(key), next);
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
    return new Map([...all].map(([key, r]) => [key, Math.max(0, r.stock - r.reserved)]));
  },
);
