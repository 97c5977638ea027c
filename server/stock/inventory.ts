/** The owner's inventory: counts, low-stock levels and how long each component lasts. */
import { COMPONENTS, type StockKey, switchKey } from "../../shared/bom.ts";
import type {
  InventoryComponent,
  InventorySwitch,
  InventoryView,
  StockCounts,
  StockPlanning,
} from "../../shared/api_types.ts";
import { isSale } from "../../shared/status.ts";
import { listProducts, listSwitches } from "../db/catalog.ts";
import { countStockAlerts } from "../db/stock_alerts.ts";
import { listAllOrders } from "../db/order_list.ts";
import { DEFAULT_LOW_STOCK_AT, listStock, type StockRecord } from "../db/stock.ts";
import { availableOf } from "../orders/stock_moves.ts";

const DAY_MS = 86_400_000;
const RUNWAY_DAYS = 30;

/** Units each component sold in the last 30 days (orders created since, still sales). */
export async function soldSince(kv: Deno.Kv, now: number): Promise<Map<StockKey, number>> {
  const from = new Date(now - (RUNWAY_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const sold = new Map<StockKey, number>();
  for (const order of await listAllOrders(kv, { status: isSale, from })) {
    for (const [key, n] of order.reservation.items) sold.set(key, (sold.get(key) ?? 0) + n);
  }
  return sold;
}

/** A stock record as the inventory shows it (the words are defined in orders/stock_moves.ts). */
export function countsOf(record: StockRecord | undefined): StockCounts {
  const r = record ?? { stock: 0, reserved: 0, used: 0 };
  return { stock: r.stock, reserved: r.reserved, available: availableOf(r), used: r.used };
}

/** The low-stock level, flag and runway of one record. */
export function planningOf(record: StockRecord | undefined, soldLast30Days: number): StockPlanning {
  const lowStockAt = record?.lowStockAt ?? DEFAULT_LOW_STOCK_AT;
  const available = record ? availableOf(record) : 0;
  return {
    lowStockAt,
    low: available <= lowStockAt,
    soldLast30Days,
    runwayDays: soldLast30Days > 0 ? Math.floor(available / (soldLast30Days / RUNWAY_DAYS)) : null,
  };
}

/** Every switch and component with its counts and planning figures. */
export async function inventoryView(kv: Deno.Kv, now: number): Promise<InventoryView> {
  const [switches, stock, sold, waiting, products] = await Promise.all([
    listSwitches(kv),
    listStock(kv),
    soldSince(kv, now),
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
