/**
 * Promo codes. A code's paid uses never pass its limits: after every step, the uses paid of a
 * code (and of one person, however they spell their mailbox) are at most what they were before
 * the step or the limit in force, whichever is more (uses paid under an older, higher limit
 * stay). The stored counts agree with the orders: uses are the orders ever paid with the code,
 * holds the unpaid checkouts holding one of a limited code's uses. The limits read back as set.
 */
import { addTo, type Model, personOf } from "../model.ts";
import type { View } from "../view.ts";
import { Violation } from "../world.ts";
import { wasPaid } from "./money.ts";

export function checkPromos(model: Model, view: View): void {
  const uses = new Map<string, number>();
  const byPerson = new Map<string, Map<string, number>>();
  const held = new Map<string, string[]>();
  for (const order of view.orders.values()) {
    const code = order.promoCode;
    if (!code) continue;
    if (wasPaid(order)) {
      addTo(uses, code, 1);
      if (order.email) {
        if (!byPerson.has(code)) byPerson.set(code, new Map());
        addTo(byPerson.get(code)!, personOf(order.email), 1);
      }
    }
    if (order.status === "STARTED" && order.reservation.state === "held" && order.promoHold) {
      held.set(code, [...held.get(code) ?? [], order.orderNumber]);
    }
  }
  for (const promo of model.promos.values()) {
    const now = uses.get(promo.code) ?? 0;
    if (promo.maxUses !== null && now > Math.max(promo.uses, promo.maxUses)) {
      throw new Violation(
        `${promo.code} has ${now} paid uses, over its limit of ${promo.maxUses} (${promo.uses} before this step)`,
      );
    }
    promo.uses = now;
    for (const [person, n] of byPerson.get(promo.code) ?? []) {
      const before = promo.usesByPerson.get(person) ?? 0;
      if (promo.maxUsesPerEmail !== null && n > Math.max(before, promo.maxUsesPerEmail)) {
        throw new Violation(
          `${promo.code} was paid ${n} times by ${person}, over its limit of ${promo.maxUsesPerEmail} per person`,
        );
      }
      promo.usesByPerson.set(person, n);
    }
    const stored = view.promoUses.get(promo.code) ?? 0;
    if (stored !== now) {
      throw new Violation(`${promo.code} counts ${stored} uses, but ${now} paid orders used it`);
    }
    const record = view.promos.get(promo.code);
    if (record?.maxUses !== promo.maxUses || record?.maxUsesPerEmail !== promo.maxUsesPerEmail) {
      throw new Violation(
        `${promo.code}'s limits read ${record?.maxUses}/${record?.maxUsesPerEmail}, the owner set ${promo.maxUses}/${promo.maxUsesPerEmail}`,
      );
    }
    if (promo.maxUses === null) continue;
    // A hosted checkout's code is held by the charge before its order learns of it: such a hold
    // belongs to an order whose payment event waits to be handled.
    const waiting = new Set(view.inbox.map((e) => e.event.orderNumber));
    const holds = view.promoHolds.get(promo.code) ?? [];
    const holding = held.get(promo.code) ?? [];
    for (const orderNumber of holding) {
      if (!holds.includes(orderNumber)) {
        throw new Violation(`${orderNumber} holds a use of ${promo.code} the code does not count`);
      }
    }
    for (const orderNumber of holds) {
      if (!holding.includes(orderNumber) && !waiting.has(orderNumber)) {
        const order = view.orders.get(orderNumber);
        throw new Violation(
          `${promo.code} counts a use held by ${orderNumber}, which is ${order?.status} and holds none`,
        );
      }
    }
  }
}
