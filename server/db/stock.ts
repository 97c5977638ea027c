import { COMPONENTS, type StockKey, switchKey } from "../../shared/bom.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { INITIAL_COMPONENT_STOCK } from "../../shared/catalog/products.ts";
import { keys } from "./keys.ts";
import { CONFLICT, getManyBatched, setMissing, withRetries } from "./kv_util.ts";
import { commitStockChange, perStockVersion } from "./stock_version.ts";
import { NotFound } from "../errors.ts";

/** Stock of one component: what can still be sold, and what paid orders consumed. */
export interface StockRecord {
  stock: number;
  used: number;
}

/** Writes initial stock where absent; stock changed since (sales, admin edits) is kept. */
export async function seedStock(kv: Deno.Kv): Promise<number> {
  const entries: [Deno.KvKey, StockRecord][] = [
    ...SWITCHES.map((s): [Deno.KvKey, StockRecord] => [
      keys.stock(switchKey(s.id)),
      { stock: s.initialStock, used: 0 },
    ]),
    ...COMPONENTS.map((c): [Deno.KvKey, StockRecord] => [
      keys.stock(c),
      { stock: INITIAL_COMPONENT_STOCK[c], used: 0 },
    ]),
  ];
  const written = await setMissing(kv, entries, { stockVersion: true });
  // A store whose stock never changed since an older seeding has no version yet; give it one, so
  // the catalogue routes can cache by it (a concurrent bump wins the check, which is as good).
  const absent = kv.atomic().check({ key: keys.stockVersion(), versionstamp: null });
  await commitStockChange(kv, absent, Date.now());
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

/**
 * Adds checked stock writes to `op` for each item, from entries already read: stock += stockSign ×
 * n, used += usedSign × n (never below zero). Returns false and leaves `op` untouched when some
 * stock would go below zero, so the caller can still commit something else with it.
 */
export function addStockTo(
  op: Deno.AtomicOperation,
  entries: Map<StockKey, Deno.KvEntryMaybe<StockRecord>>,
  items: readonly (readonly [StockKey, number])[],
  stockSign: number,
  usedSign: number,
): boolean {
  const writes = items.map(([key, amount]) => {
    const entry = entries.get(key)!;
    const current = entry.value ?? { stock: 0, used: 0 };
    const next: StockRecord = {
      stock: current.stock + stockSign * amount,
      used: Math.max(0, current.used + usedSign * amount),
    };
    return { key, entry, next };
  });
  if (writes.some((w) => w.next.stock < 0)) return false;
  for (const { key, entry, next } of writes) op.check(entry).set(keys.stock(key), next);
  return true;
}

/** addStockTo, reading the entries first. */
export async function addStock(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  items: readonly (readonly [StockKey, number])[],
  stockSign: number,
  usedSign: number,
): Promise<boolean> {
  const entries = await getStockEntries(kv, items.map(([k]) => k));
  return addStockTo(op, entries, items, stockSign, usedSign);
}

/** Every stock record. */
export async function listStock(kv: Deno.Kv): Promise<Map<StockKey, StockRecord>> {
  const all = new Map<StockKey, StockRecord>();
  for await (const entry of kv.list<StockRecord>({ prefix: keys.stocks() })) {
    all.set(entry.key[1] as StockKey, entry.value);
  }
  return all;
}

/** Sets what can be sold of one component (the owner's correction); `used` is kept. */
export async function setStockCount(
  kv: Deno.Kv,
  key: StockKey,
  stock: number,
  now: number,
): Promise<StockRecord> {
  return await withRetries(
    async () => {
      const entry = await kv.get<StockRecord>(keys.stock(key));
      if (!entry.value) throw new NotFound(`No stock record for ${key}`);
      const next = { ...entry.value, stock };
      const op = kv.atomic().check(entry).set(keys.stock(key), next);
      return await commitStockChange(kv, op, now) ? next : CONFLICT;
    },
    "set the stock",
    "stock",
  );
}

/**
 * Every stock count as of the stock version (see stock_version.ts), listed once per version and
 * shared by concurrent callers, so a burst of cart adds costs no stock reads at all instead of a
 * batch each. Advisory reads only: checkout's reservation checks each entry's versionstamp itself.
 */
export const stockSnapshot: (kv: Deno.Kv) => Promise<Map<StockKey, number>> = perStockVersion(
  async (kv) => countsOf(await listStock(kv)),
);

function countsOf(all: Map<StockKey, StockRecord>): Map<StockKey, number> {
  return new Map([...all].map(([key, record]) => [key, record.stock]));
}
