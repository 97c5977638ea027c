/**
 * The inventory as the owner sees it: the stock's own view, with what sold in the last 30 days
 * (counted from the orders, which the stock does not read) for each line's runway.
 */
import { type Component, COMPONENTS, type StockKey, switchIdOf } from "../../shared/bom.ts";
import type { InventoryView, StockCounts, StockPlanning } from "../../shared/api_types.ts";
import { isSale } from "../../shared/status.ts";
import { listAllOrders } from "../orders/list.ts";
import { inventoryEntry, inventoryView, RUNWAY_DAYS } from "../stock/inventory.ts";
import { setShelfCount } from "../stock/store.ts";
import { getSwitches } from "../catalog/store.ts";
import { NotFound } from "../errors.ts";
import type { Clock } from "../clock.ts";
import type { Actor } from "../audit/actor.ts";

const DAY_MS = 86_400_000;

/** Units each component sold in the last 30 days (orders created since, still sales). */
export async function soldSince(kv: Deno.Kv, now: number): Promise<Map<StockKey, number>> {
  const from = new Date(now - (RUNWAY_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const sold = new Map<StockKey, number>();
  for (const order of await listAllOrders(kv, { status: isSale, from })) {
    for (const [key, n] of order.reservation.items) sold.set(key, (sold.get(key) ?? 0) + n);
  }
  return sold;
}

/** Every switch and component with its counts and planning figures. */
export async function ownerInventory(kv: Deno.Kv, now: number): Promise<InventoryView> {
  return await inventoryView(kv, await soldSince(kv, now));
}

/** The stock key of a component named in a URL; NotFound for a name that is none. */
export function componentKey(name: string): Component {
  if (!COMPONENTS.includes(name as Component) || switchIdOf(name as Component) !== null) {
    throw new NotFound(`No component called ${name}; use one of ${COMPONENTS.join(", ")}`);
  }
  return name as Component;
}

/**
 * The owner counts a shelf, sets its low-stock level, or both (a switch must exist); answers the
 * entry as the inventory now shows it.
 */
export async function countShelf(
  kv: Deno.Kv,
  key: StockKey,
  change: { stock?: number; lowStockAt?: number },
  now: number,
  by?: { clock: Clock; actor: Actor },
): Promise<StockCounts & StockPlanning> {
  const id = switchIdOf(key);
  if (id !== null) await getSwitches(kv, [id]);
  const record = await setShelfCount(kv, key, change, now, by);
  return inventoryEntry(record, (await soldSince(kv, now)).get(key) ?? 0);
}
