/**
 * Ending an unpaid order: its held stock and promo use go back, its client's hold and cart pointer
 * free.
 */
import { jobInto } from "../kv/jobs.ts";
import { NotFound } from "../errors.ts";
import { freeHoldInto, type HoldsEntry } from "../stock/holds.ts";
import { keys } from "../kv/keys.ts";
import { findOrderEntry, writeOrderTo } from "./store.ts";
import { readUsage, type UsageRead } from "../promos/store.ts";
import {
  giveBackUse,
  ledgerOf,
  ledgerSize,
  usageClaims,
  writeLedgerInto,
} from "../promos/rules.ts";
import { type Order, orderClaims, withStatus } from "./order.ts";
import { type JobPlan, runStockJob } from "../stock/batch.ts";
import { applyMove } from "../stock/record.ts";
import type { OrderDeps } from "./steps.ts";
import { count } from "../telemetry.ts";
import type { PaymentRef } from "../payments/provider.ts";
import { stopJob } from "./stop_job.ts";
import type { Actor } from "../audit/actor.ts";
import { AUDIT_MUTATIONS, auditEntry, auditInto } from "../audit/log.ts";
import {
  dropClaims,
  type DropRead,
  dropWriteSize,
  readDropCounts,
  wantsOf,
  writeDropCounts,
} from "../drops/counts_store.ts";
import { copyCounts, giveBackHeld } from "../drops/purchase_rules.ts";

/**
 * Gives an unpaid order's held stock back and moves it to EXPIRED or CANCELLED. Idempotent: an
 * order that no longer holds stock is answered as it is. Callers stop its payment first.
 */
export async function releaseOrder(
  deps: OrderDeps,
  orderNumber: string,
  to: "EXPIRED" | "CANCELLED",
  reason: string,
  /** Its payment, when the provider could not be asked to stop it: a job stops it later. */
  stopLater?: PaymentRef,
  /** Who cancels it in the dashboard, recorded in the same write; none when the shop releases it. */
  actor?: Actor,
): Promise<Order> {
  const { kv } = deps;
  let entry: Deno.KvEntry<Order>;
  let holds: HoldsEntry;
  let pending: Deno.KvEntryMaybe<string>;
  let usage: UsageRead | null;
  let drops: Map<string, DropRead>;
  // Whether the last plan (the one committed) released the hold: a repeat answers the order as is.
  let freed = false;
  const order = await runStockJob(deps.kv, deps.clock, {
    async prepare() {
      const found = await findOrderEntry(kv, orderNumber);
      if (!found) throw new NotFound("Order not found");
      entry = found;
      const order = found.value;
      // A drop's units it holds go back in this write (to the next admitted shopper).
      const dropWants = order.dropHold?.state === "holding" ? wantsOf(order.dropHold) : new Map();
      [[holds, pending], usage, drops] = await Promise.all([
        kv.getMany<[never, string]>([
          keys.holds(order.holdClient ?? ""),
          keys.pendingCheckout(order.cartId),
        ]) as Promise<[HoldsEntry, Deno.KvEntryMaybe<string>]>,
        order.promoHold ? readUsage(kv, [order.promoHold]) : null,
        readDropCounts(kv, dropWants),
      ]);
      return {
        stock: order.reservation.items.map(([k]) => k),
        exclusive: [
          ...orderClaims(order),
          ...(usage ? usageClaims(usage) : []),
          ...dropClaims(dropWants),
        ],
      };
    },
    plan(stock, now): JobPlan<Order> {
      freed = false;
      const order = entry.value;
      if (order.reservation.state !== "held" || order.status !== "STARTED") {
        return { stock: new Map(), checks: 0, mutations: 0, result: order, write() {} };
      }
      const released = applyMove(stock, order.reservation.items, "release");
      const ledger = usage ? ledgerOf(usage) : null;
      if (ledger && order.promoHold) giveBackUse(ledger, order.promoHold, order.orderNumber);
      const hold = order.dropHold?.state === "holding" ? order.dropHold : null;
      const dropRead = hold ? drops.get(hold.dropId) : undefined;
      const counts = dropRead ? copyCounts(dropRead.counts) : null;
      if (hold && counts) giveBackHeld(counts, hold);
      const next: Order = {
        ...withStatus(order, to, now),
        reservation: { ...order.reservation, state: "released" },
        promoHold: null,
        ...(hold ? { dropHold: { ...hold, state: "returned" as const } } : {}),
        cancelReason: reason,
      };
      const promoSize = ledger ? ledgerSize(ledger) : { checks: 0, mutations: 0 };
      const dropSize = dropWriteSize(drops);
      freed = true;
      return {
        stock: released.ok ? released.next : new Map(),
        checks: 4 + promoSize.checks + dropSize.checks,
        mutations: 8 + promoSize.mutations + dropSize.mutations + (actor ? AUDIT_MUTATIONS : 0),
        result: next,
        write(op) {
          writeOrderTo(op, next, entry.versionstamp);
          if (dropRead && counts) writeDropCounts(op, dropRead, counts, now);
          if (ledger) writeLedgerInto(op, ledger);
          freeHoldInto(op, order.holdClient, holds, order.orderNumber, now);
          if (pending.value === order.orderNumber) op.check(pending).delete(pending.key);
          if (stopLater) jobInto(op, stopJob(order.orderNumber, stopLater, now), { at: now });
          if (actor) {
            auditInto(
              op,
              auditEntry(deps.clock, actor, {
                kind: "orders",
                action: "order.cancelled",
                target: order.orderNumber,
                changes: { status: { from: order.status, to: next.status } },
              }),
            );
          }
        },
      };
    },
  });
  if (freed && to === "EXPIRED") count("holdsExpired");
  return order;
}
