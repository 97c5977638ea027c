/**
 * The owner's inventory: counts, low-stock levels and how long each component lasts at the rate
 * it sold lately (which the caller counts from the orders: server/reports/inventory.ts).
 */
import { COMPONENTS, type StockKey, switchKey } from "../../shared/bom.ts";
import type {
  InventoryComponent,
  InventorySwitch,
  InventoryView,
  StockCounts,
  StockPlanning,
} from "../../shared/api_types.ts";
import { listProducts, listSwitches } from "../catalog/store.ts";
import { countStockAlerts } from "./back_in_stock/store.ts";
import { listStock } from "./store.ts";
import { isLow, levelOf, type StockRecord } from "./record.ts";
import { availableOf } from "./record.ts";

/** The days `sold` counts: the runway is days left at their rate. */
export const RUNWAY_DAYS = 30;

/** Units each component sold lately, per stock key (what the runway divides by). */
export type RecentSales = ReadonlyMap<StockKey, number>;

/** A stock record as the inventory shows it (the words are defined in server/stock/record.ts). */
export function countsOf(record: StockRecord | undefined): StockCounts {
  const r = record ?? { stock: 0, reserved: 0, used: 0 };
  return { stock: r.stock, reserved: r.reserved, available: availableOf(r), used: r.used };
}

/** The low-stock level, flag and runway of one record. */
export function planningOf(record: StockRecord | undefined, soldLast30Days: number): StockPlanning {
  const available = record ? availableOf(record) : 0;
  return {
    lowStockAt: levelOf(record),
    low: isLow(record ?? { stock: 0, reserved: 0, used: 0 }),
    soldLast30Days,
    runwayDays: soldLast30Days > 0 ? Math.floor(available / (soldLast30Days / RUNWAY_DAYS)) : null,
  };
}

/** Every switch and component with its counts and planning figures. */
export async function inventoryView(kv: Deno.Kv, sold: RecentSales): Promise<InventoryView> {
  const [switches, stock, waiting, products] = await Promise.all([
    listSwitches(kv),
    listStock(kv),
    countStockAlerts(kv),
    listProducts(kv),
  ]);
  return {
    waitingProducts: products.flatMap((p) => {
      const n = waiting.get(`product:${p.id}`) ?? 0;
      return n > 0 ? [{ id: p.id, name: p.name, waiting: n }] : [];
    }).sort((a, b) => b.waiting - a.waiting || a.name.localeCompare(b.name)),
    switches: switches.map((s): InventorySwitch => {
      const record = stock.get(switchKey(s.id));
      return {
        id: s.id,
        name: `${s.brand} ${s.name}`,
        ...countsOf(record),
        ...planningOf(record, sold.get(switchKey(s.id)) ?? 0),
        waiting: waiting.get(`switch:${s.id}`) ?? 0,
      };
    }),
    inventory: COMPONENTS.map((name): InventoryComponent => ({
      name,
      ...countsOf(stock.get(name)),
      ...planningOf(stock.get(name), sold.get(name) ?? 0),
    })),
  };
}

/** One entry of the inventory: its counts and planning figures. */
export function inventoryEntry(record: StockRecord, sold: number): StockCounts & StockPlanning {
  return { ...countsOf(record), ...planningOf(record, sold) };
}
