/**
 * The owner's restock list: every switch, component and wanted product with its free stock, the
 * demand left unfilled (confirmed back-in-stock sign-ups, and shoppers still waiting when a drop
 * sold out) and how long the free stock lasts at the last 30 days' sales, ranked by
 * ./restock_rules.ts. Reads each source once: the catalogue, the stock, the sign-ups, the recent
 * sold-out drops and the last 30 days of sales.
 */
import { bomOf, COMPONENTS, type StockKey } from "../../shared/bom.ts";
import type { RestockAnswer } from "../../shared/restock.ts";
import { isSale } from "../../shared/status.ts";
import { listProducts, listSwitches } from "../catalog/store.ts";
import { unfilledDrops } from "../drops/demand.ts";
import { listAllOrders } from "../orders/list.ts";
import { countStockAlerts } from "../stock/back_in_stock/store.ts";
import { RUNWAY_DAYS } from "../stock/inventory.ts";
import { stockKeyNames } from "../stock/names.ts";
import { availableOf, levelOf } from "../stock/record.ts";
import { listStock } from "../stock/store.ts";
import { restockRows, type Waiting } from "./restock_rules.ts";

const DAY_MS = 86_400_000;

/** Units sold in the last 30 days, per stock key and per product (one pass over the orders). */
async function salesSince(kv: Deno.Kv, now: number) {
  const from = new Date(now - (RUNWAY_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const perKey = new Map<StockKey, number>();
  const perProduct = new Map<number, number>();
  for (const order of await listAllOrders(kv, { status: isSale, from })) {
    for (const [key, n] of order.reservation.items) perKey.set(key, (perKey.get(key) ?? 0) + n);
    for (const item of order.items) {
      if (item.productId === null) continue;
      perProduct.set(item.productId, (perProduct.get(item.productId) ?? 0) + item.quantity);
    }
  }
  return { perKey, perProduct };
}

/** Who waits for what: one unit per sign-up, the drop's limit per shopper a drop left waiting. */
async function waitingBySubject(kv: Deno.Kv, now: number): Promise<Map<string, Waiting>> {
  const [signUps, drops] = await Promise.all([
    countStockAlerts(kv),
    unfilledDrops(kv, now - RUNWAY_DAYS * DAY_MS),
  ]);
  const waiting = new Map<string, Waiting>();
  const add = (subject: string, people: number, units: number) => {
    const w = waiting.get(subject) ?? { people: 0, units: 0 };
    waiting.set(subject, { people: w.people + people, units: w.units + units });
  };
  for (const [subject, n] of signUps) add(subject, n, n);
  for (const { drop, waiting: n } of drops) {
    if (n === 0) continue;
    // A pack's or an item's drop sells its first product (a pack without keycaps).
    const subject = drop.target.kind === "switch"
      ? `switch:${drop.target.id}`
      : `product:${drop.productIds[0] ?? drop.target.id}`;
    add(subject, n, n * drop.perPersonLimit);
  }
  return waiting;
}

/** GET /api/admin/restock: the list, most pressing first. */
export async function restockList(kv: Deno.Kv, now: number): Promise<RestockAnswer> {
  const [switches, products, stock, sales, waiting, names] = await Promise.all([
    listSwitches(kv),
    listProducts(kv),
    listStock(kv),
    salesSince(kv, now),
    waitingBySubject(kv, now),
    stockKeyNames(kv, COMPONENTS),
  ]);
  const rows = restockRows(
    {
      // What is no longer sold is not restocked: its sign-ups wait for nothing the owner makes.
      switches: switches.filter((s) => !s.retired).map((s) => ({
        id: s.id,
        name: `${s.brand} ${s.name}`,
      })),
      components: COMPONENTS.map((key) => ({ key, name: names.get(key) ?? key })),
      products: products.filter((p) => p.onSale).map((p) => ({
        id: p.id,
        name: p.name,
        bom: bomOf(p.bom),
        soldLast30Days: sales.perProduct.get(p.id) ?? 0,
      })),
    },
    (key) => {
      const record = stock.get(key);
      return {
        free: record ? availableOf(record) : 0,
        level: levelOf(record),
        soldLast30Days: sales.perKey.get(key) ?? 0,
      };
    },
    waiting,
  );
  return { rows };
}
