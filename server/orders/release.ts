/** Ending an unpaid order: its held stock goes back, its client's hold and cart pointer free. */
import { NotFound } from "../errors.ts";
import { freeHoldInto, type HoldsEntry } from "../db/holds.ts";
import { keys } from "../db/keys.ts";
import { findOrderEntry, writeOrderTo } from "../db/orders.ts";
import { type Order, orderClaims, withStatus } from "./order.ts";
import { type JobPlan, runStockJob } from "../db/stock_batch.ts";
import { applyMove } from "./stock_moves.ts";
import type { OrderDeps } from "./steps.ts";

/**
 * Gives an unpaid order's held stock back and moves it to EXPIRED or CANCELLED. Idempotent: an
 * order that no longer holds stock is answered as it is. Callers stop its payment first.
 */
export async function releaseOrder(
  deps: OrderDeps,
  orderNumber: string,
  to: "EXPIRED" | "CANCELLED",
  reason: string,
): Promise<Order> {
  const { kv } = deps;
  let entry: Deno.KvEntry<Order>;
  let holds: HoldsEntry;
  let pending: Deno.KvEntryMaybe<string>;
  return await runStockJob(deps.kv, deps.clock, {
    async prepare() {
      const found = await findOrderEntry(kv, orderNumber);
      if (!found) throw new NotFound("Order not found");
      entry = found;
      [holds, pending] = await kv.getMany<[never, string]>([
        keys.holds(found.value.holdClient ?? ""),
        keys.pendingCheckout(found.value.cartId),
      ]) as [HoldsEntry, Deno.KvEntryMaybe<string>];
      const order = found.value;
      return {
        stock: order.reservation.items.map(([k]) => k),
        exclusive: orderClaims(order),
      };
    },
    plan(stock, now): JobPlan<Order> {
      const order = entry.value;
      if (order.reservation.state !== "held" || order.status !== "STARTED") {
        return { stock: new Map(), checks: 0, mutations: 0, result: order, write() {} };
      }
      const released = applyMove(stock, order.reservation.items, "release");
      const next: Order = {
        ...withStatus(order, to, now),
        reservation: { ...order.reservation, state: "released" },
        cancelReason: reason,
      };
      return {
        stock: released.ok ? released.next : new Map(),
        checks: 4,
        mutations: 6,
        result: next,
        write(op) {
          writeOrderTo(op, next, entry.versionstamp);
          freeHoldInto(op, order.holdClient, holds, order.orderNumber, now);
          if (pending.value === order.orderNumber) op.check(pending).delete(pending.key);
        },
      };
    },
  });
}
