/**
 * The Sales tab's figures: sales only (paid and not cancelled, docs/decisions.md), revenue as
 * charged (shipping and tax included), summed in cents and turned into dollars once.
 */
import { type StockKey, switchIdOf } from "../../shared/bom.ts";
import type { SalesView } from "../../shared/api_types.ts";
import { toDollars } from "../../shared/pricing.ts";
import { isSale } from "../../shared/status.ts";
import { listProducts, listSwitches } from "../catalog/store.ts";
import { listAllOrders } from "../orders/list.ts";
import type { Order, OrderItem } from "../orders/order.ts";

const DAY_MS = 86_400_000;

/** What kind of thing a line sold, for the share of each. */
type Kind = "pack" | "custom" | "cube" | "item";

function kindOf(item: OrderItem, packIds: ReadonlySet<number>): Kind {
  if (item.kind === "custom") return "custom";
  if (item.kind === "cube") return "cube";
  return item.productId !== null && packIds.has(item.productId) ? "pack" : "item";
}

function count<K>(map: Map<K, number>, key: K, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

/** Largest first, then by name; at most `n`. */
function top<T extends { quantity: number }>(rows: T[], name: (r: T) => string, n = 10): T[] {
  return rows.sort((a, b) => b.quantity - a.quantity || name(a).localeCompare(name(b))).slice(0, n);
}

/** Every day from `from` to `to` (YYYY-MM-DD, both included). */
function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(from); at <= Date.parse(to); at += DAY_MS) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

/** The sales of the UTC days `from` to `to`. */
export async function salesReport(kv: Deno.Kv, from: string, to: string): Promise<SalesView> {
  const [orders, products, switches] = await Promise.all([
    listAllOrders(kv, { status: isSale, from, to }),
    listProducts(kv),
    listSwitches(kv),
  ]);
  return summarise(orders, from, to, {
    packIds: new Set(products.filter((p) => p.packSlug).map((p) => p.id)),
    switchNames: new Map(switches.map((s) => [s.id, `${s.brand} ${s.name}`])),
  });
}

/** The figures of `orders` (sales of the range), with the catalogue's names. */
export function summarise(
  orders: readonly Order[],
  from: string,
  to: string,
  catalog: { packIds: ReadonlySet<number>; switchNames: ReadonlyMap<number, string> },
): SalesView {
  const perDay = new Map(daysOf(from, to).map((d) => [d, { orders: 0, cents: 0 }]));
  const packs = new Map<string, number>();
  const switches = new Map<number, number>();
  const promos = new Map<string, { orders: number; discountCents: number }>();
  const kinds = new Map<Kind, { quantity: number; cents: number }>();
  let revenueCents = 0;
  for (const order of orders) {
    const day = perDay.get(new Date(order.createdAt).toISOString().slice(0, 10));
    if (day) {
      day.orders++;
      day.cents += order.totalCents;
    }
    revenueCents += order.totalCents;
    for (const item of order.items) {
      const kind = kindOf(item, catalog.packIds);
      if (kind === "pack") count(packs, item.name, item.quantity);
      const share = kinds.get(kind) ?? { quantity: 0, cents: 0 };
      share.quantity += item.quantity;
      share.cents += item.priceCents * item.quantity;
      kinds.set(kind, share);
    }
    // What left the shelf: the switches of packs, custom testers and cubes alike.
    for (const [key, n] of order.reservation.items as [StockKey, number][]) {
      const id = switchIdOf(key);
      if (id !== null) count(switches, id, n);
    }
    if (order.promoCode) {
      const use = promos.get(order.promoCode) ?? { orders: 0, discountCents: 0 };
      use.orders++;
      use.discountCents += order.discountCents;
      promos.set(order.promoCode, use);
    }
  }
  return {
    days: [...perDay].map(([date, d]) => ({
      date,
      orders: d.orders,
      revenue: toDollars(d.cents),
    })),
    totals: {
      orders: orders.length,
      revenue: toDollars(revenueCents),
      averageOrder: orders.length ? toDollars(Math.round(revenueCents / orders.length)) : 0,
    },
    bestSellers: {
      packs: top([...packs].map(([name, quantity]) => ({ name, quantity })), (r) => r.name),
      switches: top(
        [...switches].map(([id, quantity]) => ({
          id,
          name: catalog.switchNames.get(id) ?? `Switch #${id}`,
          quantity,
        })),
        (r) => r.name,
      ),
    },
    promoCodes: [...promos].map(([code, u]) => ({
      code,
      orders: u.orders,
      discount: toDollars(u.discountCents),
    })).sort((a, b) => b.orders - a.orders || a.code.localeCompare(b.code)),
    mix: (["pack", "custom", "cube", "item"] as const).map((kind) => ({
      kind,
      quantity: kinds.get(kind)?.quantity ?? 0,
      revenue: toDollars(kinds.get(kind)?.cents ?? 0),
    })),
  };
}
