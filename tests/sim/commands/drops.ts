/**
 * Drops in a history: the owner schedules a limited run of a pack, an item or a switch that opens
 * at once, the waiting room lets a shopper in (or not yet), and the shopper adds the drop's
 * target with their place. Scheduling and the waiting room are written straight through the
 * store's keys, as the owner's route and the room would write them: this simulation stands in
 * for them so that the purchase (the cart's gate, the checkout's write, holds, payments) meets
 * every other step of the shop. Shoppers without a place meet the gate through the usual adds.
 */
import { keys } from "../../../server/kv/keys.ts";
import type { DropLedger, DropRecord, TicketRecord } from "../../../server/drops/record.ts";
import type { DropTarget } from "../../../shared/drops.ts";
import { PRODUCTS } from "../../../shared/catalog/products.ts";
import { sharedProduct } from "../../../server/drops/overlap.ts";
import { addTo, type Model, noteState } from "../model.ts";
import { ADMIN, POPULAR, STARTER } from "../play.ts";
import type { World } from "../world.ts";
import { expectAnswer, nth, Step } from "./base.ts";

/** A switch both packs in play hold: a drop of it meets packs and custom testers alike. */
const SHARED_SWITCH = STARTER.switchIds.find((id) => POPULAR.switchIds.includes(id)) ??
  STARTER.switchIds[0];

/** What a history's drops sell, and the product a shopper adds to buy from each. */
const DROP_TARGETS: { target: DropTarget; name: string; productIds: number[]; buy: number }[] = [
  {
    target: { kind: "pack", id: STARTER.id },
    name: STARTER.title,
    productIds: [STARTER.id, STARTER.idWithKeycaps],
    buy: STARTER.id,
  },
  { target: { kind: "item", id: 1 }, name: "Layout Tester", productIds: [1], buy: 1 },
  {
    target: { kind: "switch", id: SHARED_SWITCH },
    name: `switch ${SHARED_SWITCH}`,
    productIds: [],
    buy: STARTER.id,
  },
];

/** The drops of the history (newest last), as stored. */
async function dropsNow(world: World): Promise<DropRecord[]> {
  const found: DropRecord[] = [];
  for await (const e of world.store.list<DropRecord>({ prefix: keys.drops() })) {
    found.push(e.value);
  }
  return found.sort((a, b) => a.createdAt - b.createdAt);
}

/** Whether a drop still sells through its room (not called off, not every unit sold). */
async function running(world: World, drop: DropRecord): Promise<boolean> {
  const ledger = (await world.store.get<DropLedger>(keys.dropLedger(drop.id))).value;
  return drop.cancelledAt === null && (ledger?.sold ?? 0) < drop.units;
}

/** The owner schedules a drop that opens now (one running drop per target and per product). */
export class ScheduleDrop extends Step {
  constructor(
    readonly p: { target: number; units: number; limit: number; holdMinutes: number },
  ) {
    super();
  }
  async act(_model: Model, world: World) {
    const what = nth(DROP_TARGETS, this.p.target)!;
    // As the owner's route refuses: a second drop of the target, or one sharing a product with a
    // drop still running (the Starter Pack and its switch).
    for (const drop of await dropsNow(world)) {
      const same = drop.target.kind === what.target.kind && drop.target.id === what.target.id;
      if (!same && !sharedProduct(drop, what, PRODUCTS)) continue;
      if (await running(world, drop)) return;
    }
    // A millisecond on, so orders made before the drop are told apart from those made with it.
    world.clock.advance(1);
    const now = world.clock.now();
    const drop: DropRecord = {
      id: `sim-drop-${world.step}`,
      target: what.target,
      name: what.name,
      productIds: what.productIds,
      units: this.p.units,
      opensAt: now,
      perPersonLimit: this.p.limit,
      holdMinutes: this.p.holdMinutes,
      signedInOnly: false,
      createdAt: now,
      cancelledAt: null,
      soldOutAt: null,
    };
    await world.own.atomic().set(keys.drop(drop.id), drop)
      .set(keys.dropByTarget(`${what.target.kind}:${what.target.id}`), drop.id).commit();
  }
  toString() {
    const what = nth(DROP_TARGETS, this.p.target)!;
    return `the owner opens a drop of ${this.p.units} ${what.name}, ${this.p.limit} per person, holds of ${this.p.holdMinutes} min`;
  }
}

/**
 * The waiting room lets a shopper's cart in (or keeps it waiting), and the shopper adds the
 * drop's target with that place: refused (409, 403) unless let in and within the limit.
 */
export class BuyFromDrop extends Step {
  constructor(
    readonly p: { shopper: number; drop: number; admitted: boolean; quantity: number; at: number },
  ) {
    super();
  }
  async act(model: Model, world: World) {
    const shopper = model.shoppers[this.p.shopper % model.shoppers.length];
    const drops = await dropsNow(world);
    const drop = nth(drops, this.p.drop);
    if (!drop || !shopper.cartId) return;
    const holder = `cart:${shopper.cartId}`;
    const ticket = await placeOf(world, drop, holder, this.p.admitted);
    const what = DROP_TARGETS.find((d) =>
      d.target.kind === drop.target.kind && d.target.id === drop.target.id
    )!;
    const answer = expectAnswer(
      world,
      await world.request(
        this.p.at,
        `/api/cart/add?itemId=${what.buy}&quantity=${this.p.quantity}&cartId=${shopper.cartId}&ticket=${ticket}`,
        { method: "POST", client: shopper.client },
      ),
      [200, 400, 403, 404, 409, 429],
      this.toString(),
    );
    if (answer.status === 200) {
      const cart = model.carts.get(shopper.cartId)!;
      addTo(cart.lines, String(what.buy), this.p.quantity);
      addTo(cart.put, String(what.buy), this.p.quantity);
      noteState(cart);
    }
  }
  toString() {
    return `shopper ${this.p.shopper} ${
      this.p.admitted ? "is let in to" : "waits in"
    } drop ${this.p.drop}'s room and adds ${this.p.quantity} (instance ${this.p.at})`;
  }
}

/**
 * The owner calls a drop off through the dashboard's route, before or while it sells: checkouts
 * holding its units keep them until paid or released, and the target sells as usual again.
 */
export class CallOffDrop extends Step {
  constructor(readonly p: { drop: number; at: number }) {
    super();
  }
  async act(_model: Model, world: World) {
    const drop = nth(await dropsNow(world), this.p.drop);
    if (!drop) return;
    expectAnswer(
      world,
      await world.request(this.p.at, `/api/admin/drops/${drop.id}`, {
        ...ADMIN,
        method: "DELETE",
      }),
      [200, 409],
      this.toString(),
    );
  }
  toString() {
    return `the owner calls drop ${this.p.drop} off (instance ${this.p.at})`;
  }
}

/**
 * The holder's place in `drop`'s line, as the room keeps it: one per holder, let in now when the
 * step says so and it was not let in yet.
 */
async function placeOf(
  world: World,
  drop: DropRecord,
  holder: string,
  admit: boolean,
): Promise<string> {
  const now = world.clock.now();
  const known = (await world.store.get<string>(keys.dropTicketOf(drop.id, holder))).value;
  if (known) {
    const entry = await world.store.get<TicketRecord>(keys.dropTicket(drop.id, known));
    if (admit && entry.value && entry.value.admittedAt === null) {
      await world.own.atomic().check(entry)
        .set(entry.key, { ...entry.value, admittedAt: now }).commit();
    }
    return known;
  }
  const ticket: TicketRecord = {
    ticket: `simticket${world.step}x${holder.replace(/[^A-Za-z0-9]/g, "")}`.slice(0, 60),
    dropId: drop.id,
    holder,
    // Each holder joined from a network of its own, as shoppers at their own doors do.
    network: `sim:${holder}`,
    joinedAt: now,
    early: false,
    lottery: "",
    admittedAt: admit ? now : null,
    units: 0,
  };
  await world.own.atomic().set(keys.dropTicket(drop.id, ticket.ticket), ticket)
    .set(keys.dropTicketOf(drop.id, holder), ticket.ticket).commit();
  return ticket.ticket;
}
