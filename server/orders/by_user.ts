import { keys } from "../kv/keys.ts";
import { getManyBatched } from "../kv/kv_util.ts";
import type { Order } from "./order.ts";

/** A shopper's orders, newest first; unpaid checkouts that lapsed are left out. */
export async function listOrdersOfUser(kv: Deno.Kv, userId: string): Promise<Order[]> {
  const numbers: string[] = [];
  for await (const entry of kv.list({ prefix: keys.userOrders(userId) })) {
    numbers.push(entry.key[2] as string);
  }
  const orders = await getManyBatched<Order>(kv, numbers.map((n) => keys.order(n)));
  return orders.flatMap((e) => (e.value ? [e.value] : []))
    .filter((o) =>
      o.status !== "EXPIRED" &&
      !(o.status === "CANCELLED" && !o.history.some((h) => h.status === "PAYMENT_RECEIVED"))
    )
    .sort((a, b) => b.createdAt - a.createdAt);
}
