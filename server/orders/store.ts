/** Orders in KV: reads, lookups and the writes that keep their indexes with them. */
import type { Order } from "./order.ts";
import { NotFound } from "../errors.ts";
import { keys } from "../kv/keys.ts";
import { CONFLICT, listValues, withRetries } from "../kv/kv_util.ts";

/** The order, or null. */
export async function findOrder(kv: Deno.Kv, orderNumber: string): Promise<Order | null> {
  return (await findOrderEntry(kv, orderNumber))?.value ?? null;
}

/** The order's entry (for check-and-set), or null for a malformed or unknown number. */
export async function findOrderEntry(
  kv: Deno.Kv,
  orderNumber: string,
): Promise<Deno.KvEntry<Order> | null> {
  if (!/^[A-Z0-9]{4,40}$/.test(orderNumber)) return null;
  const entry = await kv.get<Order>(keys.order(orderNumber));
  return entry.value ? entry as Deno.KvEntry<Order> : null;
}

/** The order; throws NotFound. */
export async function getOrder(kv: Deno.Kv, orderNumber: string): Promise<Order> {
  const order = await findOrder(kv, orderNumber);
  if (!order) throw new NotFound("Order not found");
  return order;
}

/** The order paid through a checkout session or payment intent, or null. */
export async function findOrderByPaymentId(kv: Deno.Kv, paymentId: string): Promise<Order | null> {
  if (!/^[A-Za-z0-9_-]{4,200}$/.test(paymentId)) return null;
  const ref = await kv.get<string>(keys.orderBySession(paymentId));
  return ref.value ? await findOrder(kv, ref.value) : null;
}

/** Every order, newest first. */
export async function listOrders(kv: Deno.Kv): Promise<Order[]> {
  return (await listValues<Order>(kv, keys.orders())).sort((a, b) => b.createdAt - a.createdAt);
}

/**
 * What the by-time index keeps of an order: enough to filter a page of the admin's list without
 * reading orders that do not match.
 */
export interface OrderListing {
  status: Order["status"];
  /** Order number, email and name in lower case, one per line, for the admin's search. */
  find: string;
}

/** The index entry of an order. */
export function orderListing(order: Order): OrderListing {
  return {
    status: order.status,
    find: [order.orderNumber, order.email ?? "", order.customerName ?? ""].join("\n").toLowerCase(),
  };
}

/**
 * Adds the write of an order to `op`, checked against the entry it was computed from (null: the
 * order must not exist yet), with the indexes that find it by time, by user and by payment.
 */
export function writeOrderTo(
  op: Deno.AtomicOperation,
  order: Order,
  versionstamp: string | null,
): void {
  op.check({ key: keys.order(order.orderNumber), versionstamp })
    .set(keys.order(order.orderNumber), order)
    .set(keys.orderByTime(order.createdAt, order.orderNumber), orderListing(order));
  if (versionstamp === null && order.userId) {
    op.set(keys.ordersByUser(order.userId, order.orderNumber), order.createdAt);
  }
  if (order.payment) op.set(keys.orderBySession(order.payment.id), order.orderNumber);
}

/**
 * Reads an order, lets `change` build the next version (adding writes to the same atomic
 * operation), and commits with a version check, retrying on conflict. `change` may return the
 * order unchanged to write nothing.
 */
export async function updateOrder(
  kv: Deno.Kv,
  orderNumber: string,
  change: (order: Order, op: Deno.AtomicOperation) => Order | Promise<Order>,
): Promise<Order> {
  return await withRetries(
    async () => {
      const entry = await findOrderEntry(kv, orderNumber);
      if (!entry) throw new NotFound("Order not found");
      const op = kv.atomic();
      const next = await change(entry.value, op);
      if (next === entry.value) return next;
      writeOrderTo(op, next, entry.versionstamp);
      return (await op.commit()).ok ? next : CONFLICT;
    },
    "update the order",
    `order:${orderNumber}`,
  );
}
