/**
 * What the owner sees equals what is: the inventory shows every component's counts and the level
 * the owner set, the sales tab adds up the orders that were paid and kept (to the cent), the
 * pick list holds the parts of every paid order not yet shipped, and the promo list counts the
 * uses paid.
 */
import { type StockKey, switchKey } from "../../../shared/bom.ts";
import { currentLevel, type Model } from "../model.ts";
import type { View } from "../view.ts";
import { type Answer, Violation, type World } from "../world.ts";
import { addTo } from "../model.ts";
import { wasPaid } from "./money.ts";

const SALE = new Set(["PAYMENT_RECEIVED", "PROCESSING", "SHIPPED", "DELIVERED"]);
const TO_PACK = new Set(["PAYMENT_RECEIVED", "PROCESSING"]);

function ok(answer: Answer, what: string): void {
  if (answer.status !== 200) {
    throw new Violation(`${what} answered ${answer.status}: ${answer.text}`);
  }
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export async function checkOwnerViews(
  model: Model,
  view: View,
  world: World,
  instance: number,
  admin: { headers: Record<string, string> },
): Promise<void> {
  const now = world.clock.now();
  const [inventory, sales, pick, promos] = await Promise.all([
    world.request(instance, "/api/admin/inventory", admin),
    world.request(
      instance,
      `/api/admin/sales?from=${day(now - 300 * 86_400_000)}&to=${day(now)}`,
      admin,
    ),
    world.request(instance, "/api/admin/pick-list", admin),
    world.request(instance, "/api/admin/promos", admin),
  ]);
  ok(inventory, "the inventory");
  ok(sales, "the sales report");
  ok(pick, "the pick list");
  ok(promos, "the promo list");

  const rows: [StockKey, Record<string, number>][] = [
    ...inventory.json.switches.map((s: { id: number }) => [switchKey(s.id), s]),
    ...inventory.json.inventory.map((c: { name: StockKey }) => [c.name, c]),
  ];
  for (const [key, row] of rows) {
    const record = view.stock.get(key);
    if (!record) continue;
    const expected = {
      stock: record.stock,
      reserved: record.reserved,
      available: Math.max(0, record.stock - record.reserved),
      used: record.used,
      lowStockAt: currentLevel(model, key),
    };
    for (const [field, value] of Object.entries(expected)) {
      if (row[field] !== value) {
        throw new Violation(`the inventory shows ${key} ${field} ${row[field]}, it is ${value}`);
      }
    }
  }

  let orders = 0;
  let cents = 0;
  const parts = new Map<string, number>();
  for (const order of view.orders.values()) {
    if (SALE.has(order.status)) {
      orders++;
      cents += order.totalCents;
    }
    if (!TO_PACK.has(order.status)) continue;
    for (const [key, n] of order.reservation.items) addTo(parts, key, n);
  }
  const totals = sales.json.totals;
  if (totals.orders !== orders || Math.round(totals.revenue * 100) !== cents) {
    throw new Violation(
      `the sales tab shows ${totals.orders} orders for $${totals.revenue}; the paid orders kept are ${orders} for ${cents} cents`,
    );
  }
  const picked = new Map<string, number>();
  for (const s of pick.json.switches) addTo(picked, switchKey(s.id), s.quantity);
  for (const c of pick.json.components) addTo(picked, c.name.replace(/ \(.*\)$/, ""), c.quantity);
  const expected = JSON.stringify([...parts].sort());
  const shown = JSON.stringify([...picked].sort());
  if (expected !== shown) {
    throw new Violation(`the pick list shows ${shown}, the orders to pack hold ${expected}`);
  }

  for (const row of promos.json) {
    const paid = [...view.orders.values()].filter((o) => o.promoCode === row.code && wasPaid(o));
    if (row.uses !== paid.length) {
      throw new Violation(
        `the promo list shows ${row.code} used ${row.uses} times, paid ${paid.length}`,
      );
    }
  }
}
