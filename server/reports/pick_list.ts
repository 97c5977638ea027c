/**
 * What to print and pack today: the parts of every paid, unshipped order (PAYMENT_RECEIVED and
 * PROCESSING), from what each order took off the shelf, with cube bodies by colour.
 */
import { COMPONENTS, type StockKey, switchIdOf } from "../../shared/bom.ts";
import type { PickListView } from "../../shared/api_types.ts";
import { DEFAULT_BODY_COLOR } from "../../shared/pricing.ts";
import { isNewForAdmin } from "../../shared/status.ts";
import { listSwitches } from "../catalog/store.ts";
import { listAllOrders } from "../orders/list.ts";
import type { Order } from "../orders/order.ts";

/** The paid, unshipped orders, oldest first (the order they are packed in). */
export async function ordersToPack(kv: Deno.Kv): Promise<Order[]> {
  return (await listAllOrders(kv, { status: isNewForAdmin })).reverse();
}

/** "CUBE_BODY (white)": the colour a body is printed in. */
export function cubeBodyName(color: string): string {
  return `CUBE_BODY (${color})`;
}

/** The pick list of `orders`, with the catalogue's switch names. */
export function pickList(
  orders: readonly Order[],
  switches: readonly { id: number; brand: string; name: string }[],
): PickListView {
  const parts = new Map<string, number>();
  const switchCounts = new Map<number, number>();
  const add = <K>(map: Map<K, number>, key: K, n: number) => map.set(key, (map.get(key) ?? 0) + n);
  for (const order of orders) {
    let bodies = 0;
    for (const [key, n] of order.reservation.items as [StockKey, number][]) {
      const id = switchIdOf(key);
      if (id !== null) add(switchCounts, id, n);
      else if (key === "CUBE_BODY") bodies += n;
      else add(parts, key, n);
    }
    // Bodies by the colour their line asked for; a line without one is the default colour.
    for (const item of order.items) {
      if (!item.bodyColor || bodies === 0) continue;
      const n = Math.min(bodies, item.quantity);
      add(parts, cubeBodyName(item.bodyColor), n);
      bodies -= n;
    }
    if (bodies > 0) add(parts, cubeBodyName(DEFAULT_BODY_COLOR), bodies);
  }
  const byId = new Map(switches.map((s) => [s.id, s]));
  const rank = (name: string) => COMPONENTS.findIndex((c) => name.startsWith(c));
  return {
    components: [...parts].map(([name, quantity]) => ({ name, quantity }))
      .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name)),
    switches: [...switchCounts].map(([id, quantity]) => {
      const s = byId.get(id);
      return {
        id,
        brand: s?.brand ?? "",
        name: s ? `${s.brand} ${s.name}` : `Switch #${id}`,
        quantity,
      };
    }).sort((a, b) => a.brand.localeCompare(b.brand) || a.name.localeCompare(b.name))
      .map(({ id, name, quantity }) => ({ id, name, quantity })),
  };
}

/** The pick list of every order to pack now. */
export async function currentPickList(kv: Deno.Kv): Promise<PickListView> {
  const [orders, switches] = await Promise.all([ordersToPack(kv), listSwitches(kv)]);
  return pickList(orders, switches);
}
