/**
 * Drops, after every step:
 * - a drop never sells or holds more than its units (sold + holding <= units);
 * - its ledger is the sum over its orders' drop holds: holding what unpaid checkouts still hold,
 *   sold what paid orders bought (and kept: a paid order cancelled while the drop still sold gave
 *   its units back to the drop);
 * - each person key (account, mailbox, address, network) holds the units of the holds counted
 *   under it, and none passes the drop's limit;
 * - each place in line holds the units of the holds made with it (what the room and the cart's
 *   gate read as "this place already bought");
 * - no checkout holding stock, and no paid order, took a running drop's units without a drop
 *   hold (made between the drop's scheduling and its selling out, not called off).
 */
import type { DropRecord } from "../../../server/drops/record.ts";
import type { Order } from "../../../server/orders/order.ts";
import { switchKey } from "../../../shared/bom.ts";
import type { View } from "../view.ts";
import { Violation } from "../world.ts";
import { wasPaid } from "./money.ts";

/** The units an order's items take of a drop (as the shop's rule counts them). */
function unitsOf(drop: DropRecord, order: Order): number {
  if (drop.target.kind === "switch") {
    const key = switchKey(drop.target.id);
    return order.reservation.items.find(([k]) => k === key)?.[1] ?? 0;
  }
  return order.items
    .filter((i) => i.productId !== null && drop.productIds.includes(i.productId))
    .reduce((sum, i) => sum + i.quantity, 0);
}

export function checkDrops(view: View): void {
  for (const drop of view.drops.values()) {
    const ledger = view.dropLedgers.get(drop.id) ?? { holding: 0, sold: 0 };
    if (ledger.sold + ledger.holding > drop.units) {
      throw new Violation(
        `drop ${drop.id} sold ${ledger.sold} and holds ${ledger.holding} of ${drop.units} units`,
      );
    }
    let holding = 0;
    let sold = 0;
    const persons = new Map<string, number>();
    const places = new Map<string, number>();
    for (const order of view.orders.values()) {
      const hold = order.dropHold;
      if (hold?.dropId === drop.id && hold.state !== "returned") {
        if (hold.state === "holding") {
          if (order.status !== "STARTED" || order.reservation.state !== "held") {
            throw new Violation(
              `${order.orderNumber} is ${order.status} (${order.reservation.state}) but counts as holding drop ${drop.id}`,
            );
          }
          holding += hold.units;
        } else {
          if (!wasPaid(order)) {
            throw new Violation(`${order.orderNumber} counts as sold in drop ${drop.id}, unpaid`);
          }
          sold += hold.units;
        }
        for (const p of hold.persons) persons.set(p, (persons.get(p) ?? 0) + hold.units);
        places.set(hold.ticket, (places.get(hold.ticket) ?? 0) + hold.units);
      }
      tookWithoutHold(drop, order);
    }
    if (ledger.holding !== holding || ledger.sold !== sold) {
      throw new Violation(
        `drop ${drop.id}'s ledger reads ${ledger.holding} holding, ${ledger.sold} sold; its orders hold ${holding} and bought ${sold}`,
      );
    }
    for (const ticket of (view.dropTickets.get(drop.id) ?? new Map()).values()) {
      if (ticket.units !== (places.get(ticket.ticket) ?? 0)) {
        throw new Violation(
          `drop ${drop.id}'s place ${ticket.ticket} counts ${ticket.units} units, whose orders hold or bought ${
            places.get(ticket.ticket) ?? 0
          }`,
        );
      }
    }
    const stored = view.dropPersons.get(drop.id) ?? new Map<string, number>();
    for (const key of new Set([...stored.keys(), ...persons.keys()])) {
      const have = stored.get(key) ?? 0;
      if (have !== (persons.get(key) ?? 0)) {
        throw new Violation(
          `drop ${drop.id} counts ${have} for ${key}, whose orders hold or bought ${
            persons.get(key) ?? 0
          }`,
        );
      }
      if (have > drop.perPersonLimit) {
        throw new Violation(
          `${key} holds or bought ${have} of drop ${drop.id}, over its limit of ${drop.perPersonLimit}`,
        );
      }
    }
  }
}

/** A checkout or paid order made while `drop` sold through its room must hold its units. */
function tookWithoutHold(drop: DropRecord, order: Order): void {
  const holding = order.status === "STARTED" && order.reservation.state === "held";
  const paid = wasPaid(order) && order.status !== "CANCELLED";
  if (!holding && !paid) return;
  const end = Math.min(drop.soldOutAt ?? Infinity, drop.cancelledAt ?? Infinity);
  if (order.createdAt < drop.createdAt || order.createdAt >= end) return;
  if (unitsOf(drop, order) === 0) return;
  if (order.dropHold?.dropId !== drop.id) {
    throw new Violation(
      `${order.orderNumber} (${order.status}) took ${
        unitsOf(drop, order)
      } units of drop ${drop.id} without a place in its line`,
    );
  }
}
