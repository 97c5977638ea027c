/**
 * What the owner does: count shelves and set low-stock levels, change prices, retire and add
 * switches, change promo limits, move orders along (cancel, track, ship, deliver), look at the
 * dashboard, and back the shop up and restore it.
 */
import { type StockKey, switchIdOf, switchKey } from "../../../shared/bom.ts";
import { keys } from "../../../server/kv/keys.ts";
import type { StockRecord } from "../../../server/stock/record.ts";
import { toDollars } from "../../../shared/pricing.ts";
import { LIMITED_CODE, type Model, PER_PERSON_CODE, setPrice } from "../model.ts";
import {
  ADMIN,
  LOOSE_SWITCHES,
  PLAY_KEYS,
  POPULAR,
  STAFF_KEY_NAME,
  staffAuth,
  STARTER,
} from "../play.ts";
import { Violation, type World } from "../world.ts";
import { checkOwnerViews } from "../invariants/owner_views.ts";
import { readView } from "../view.ts";
import { expectAnswer, nth, Step } from "./base.ts";

/** The owner counts a shelf, sets its low-stock level, or both. */
export class SetShelf extends Step {
  constructor(
    readonly p: { key: number; stock: number | null; level: number | null; at: number },
  ) {
    super();
  }
  get key(): StockKey {
    return nth(PLAY_KEYS, this.p.key)!;
  }
  async act(model: Model, world: World) {
    const key = this.key;
    const body: Record<string, number> = {};
    if (this.p.stock !== null) body.stock = this.p.stock;
    if (this.p.level !== null) body.lowStockAt = this.p.level;
    if (Object.keys(body).length === 0) return;
    const id = switchIdOf(key);
    const path = id !== null
      ? `/api/admin/inventory/switches/${id}`
      : `/api/admin/inventory/components/${key}`;
    const answer = expectAnswer(
      world,
      await world.request(this.p.at, path, { ...ADMIN, method: "PUT", body }),
      [200],
      this.toString(),
    );
    if (answer.status !== 200) return;
    if (this.p.stock !== null) {
      if (answer.json.stock !== this.p.stock) {
        throw new Violation(
          `the owner counted ${this.p.stock} ${key}, the shop answered ${answer.json.stock}`,
        );
      }
      model.counted.set(key, answer.json.stock + answer.json.used);
    }
    if (this.p.level !== null) {
      model.levels.set(key, [...model.levels.get(key) ?? [], {
        step: world.step,
        level: this.p.level,
      }]);
      if (answer.json.lowStockAt !== this.p.level) {
        throw new Violation(
          `the owner set ${key}'s level to ${this.p.level}, answered ${answer.json.lowStockAt}`,
        );
      }
    }
  }
  toString() {
    const parts = [
      this.p.stock !== null ? `counts ${this.p.stock} on the shelf` : null,
      this.p.level !== null ? `sets the low-stock level to ${this.p.level}` : null,
    ].filter(Boolean);
    return `the owner ${parts.join(" and ") || "looks at"} ${this.key} (instance ${this.p.at})`;
  }
}

/**
 * The owner counts a shelf and finds fewer units than unpaid checkouts hold (breakage, a
 * miscount): the n-th component that holds any is counted below what it holds.
 */
export class CountShort extends Step {
  constructor(readonly p: { which: number; short: number; at: number }) {
    super();
  }
  async act(model: Model, world: World) {
    const held: [StockKey, StockRecord][] = [];
    for await (const e of world.store.list<StockRecord>({ prefix: keys.stocks() })) {
      if (e.value.reserved > 0 && PLAY_KEYS.includes(e.key[1] as StockKey)) {
        held.push([e.key[1] as StockKey, e.value]);
      }
    }
    const found = nth(held, this.p.which);
    if (!found) return;
    const [key, record] = found;
    const stock = Math.max(0, record.reserved - this.p.short);
    await new SetShelf({ key: PLAY_KEYS.indexOf(key), stock, level: null, at: this.p.at })
      .act(model, world);
  }
  toString() {
    return `the owner counts ${this.p.short} fewer units than are held on the ${this.p.which}th shelf holding any (instance ${this.p.at})`;
  }
}

/** Products whose price the owner changes: the two packs (both ways) and the Layout Tester. */
const PRICED = [STARTER, POPULAR, null] as const;

/** The owner changes a price. */
export class SetPrice extends Step {
  constructor(readonly p: { product: number; cents: number; at: number }) {
    super();
  }
  async act(model: Model, world: World) {
    const pack = nth(PRICED, this.p.product);
    const path = pack ? `/api/admin/catalog/packs/${pack.id}` : "/api/admin/catalog/items/1";
    const answer = expectAnswer(
      world,
      await world.request(this.p.at, path, {
        ...ADMIN,
        method: "PATCH",
        body: { price: toDollars(this.p.cents) },
      }),
      [200],
      this.toString(),
    );
    if (answer.status !== 200) return;
    const now = world.clock.now();
    if (pack) {
      setPrice(model, pack.id, this.p.cents, now);
      setPrice(model, pack.idWithKeycaps, this.p.cents + 200, now);
    } else setPrice(model, 1, this.p.cents, now);
  }
  toString() {
    const pack = nth(PRICED, this.p.product);
    return `the owner prices ${pack ? pack.title : "the Layout Tester"} at ${
      toDollars(this.p.cents)
    } dollars (instance ${this.p.at})`;
  }
}

/** The owner retires a switch no pack holds, or puts it back on sale. */
export class RetireSwitch extends Step {
  constructor(readonly p: { switch: number; retired: boolean; at: number }) {
    super();
  }
  async act(_model: Model, world: World) {
    const id = nth(LOOSE_SWITCHES, this.p.switch)!;
    expectAnswer(
      world,
      await world.request(this.p.at, `/api/admin/catalog/switches/${id}`, {
        ...ADMIN,
        method: "PATCH",
        body: { retired: this.p.retired },
      }),
      [200],
      this.toString(),
    );
  }
  toString() {
    return `the owner ${this.p.retired ? "retires" : "brings back"} switch ${
      nth(LOOSE_SWITCHES, this.p.switch)
    } (instance ${this.p.at})`;
  }
}

/** The owner adds a new switch with some units on the shelf. */
export class AddSwitch extends Step {
  constructor(readonly p: { stock: number; at: number }) {
    super();
  }
  async act(model: Model, world: World) {
    const answer = expectAnswer(
      world,
      await world.request(this.p.at, "/api/admin/catalog/switches", {
        ...ADMIN,
        method: "POST",
        body: {
          name: `Sim ${world.step}`,
          brand: "Simulated",
          type: "linear",
          force: "45g",
          extraPrice: 0,
          stock: this.p.stock,
        },
      }),
      [201, 409],
      this.toString(),
    );
    if (answer.status === 201) model.counted.set(switchKey(answer.json.id), this.p.stock);
  }
  toString() {
    return `the owner adds a switch with ${this.p.stock} on the shelf (instance ${this.p.at})`;
  }
}

/** The owner raises or lowers a promo code's limit (total for one code, per person for the other). */
export class EditPromo extends Step {
  constructor(readonly p: { perPerson: boolean; limit: number; at: number }) {
    super();
  }
  async act(model: Model, world: World) {
    const code = this.p.perPerson ? PER_PERSON_CODE : LIMITED_CODE;
    const field = this.p.perPerson ? "maxUsesPerEmail" : "maxUses";
    const answer = expectAnswer(
      world,
      await world.request(this.p.at, `/api/admin/promos/${code}`, {
        ...ADMIN,
        method: "PATCH",
        body: { [field]: this.p.limit },
      }),
      [200],
      this.toString(),
    );
    if (answer.status !== 200) return;
    model.promos.get(code)![field] = this.p.limit;
  }
  toString() {
    return `the owner sets ${this.p.perPerson ? PER_PERSON_CODE : LIMITED_CODE}'s limit${
      this.p.perPerson ? " per person" : ""
    } to ${this.p.limit} (instance ${this.p.at})`;
  }
}

/** An order the owner acts on: any checkout of the history. */
function orderOf(model: Model, n: number): string | undefined {
  return nth(model.checkouts, n)?.orderNumber;
}

/** The owner moves an order along: cancels it, adds tracking, ships it or marks it delivered. */
export class OwnerMove extends Step {
  constructor(
    readonly p: { move: "cancel" | "track" | "ship" | "deliver"; which: number; at: number },
  ) {
    super();
  }
  override get steps() {
    return ["stop payment", "record payment", "cancel paid order", "refund"];
  }
  async act(model: Model, world: World) {
    const orderNumber = orderOf(model, this.p.which);
    if (!orderNumber) return;
    const { path, body } = {
      cancel: { path: `/api/admin/orders/${orderNumber}/cancel`, body: undefined },
      track: {
        path: `/api/admin/orders/${orderNumber}/tracking`,
        body: { trackingNumber: "9400 1000 0000 0000 0000 01" },
      },
      ship: { path: "/api/admin/orders/ship-processed", body: { orderNumbers: [orderNumber] } },
      deliver: { path: `/api/admin/orders/${orderNumber}/delivered`, body: undefined },
    }[this.p.move];
    expectAnswer(
      world,
      await world.request(this.p.at, path, { ...ADMIN, method: "POST", body }),
      [200, 409, ...(world.faults.stop ? [503] : [])],
      this.toString(),
    );
  }
  toString() {
    return `the owner ${
      { cancel: "cancels", track: "adds tracking to", ship: "ships", deliver: "marks delivered" }[
        this.p.move
      ]
    } checkout ${this.p.which} of the history (instance ${this.p.at})`;
  }
}

/** What the packing script (a staff API key) tries: the orders' work, or the owner's. */
export type StaffAct = "track" | "ship" | "deliver" | "cancel" | "price" | "promo";

/** Acts a staff key may do; the others are the owner's alone (refused, 403, nothing changed). */
const STAFF_MAY: readonly StaffAct[] = ["track", "ship", "deliver"];

/**
 * The packing script moves an order along with its staff key, or tries what only the owner may
 * (cancel and refund, a price, a promo limit): refused with 403 and a sentence, whatever the fault,
 * and nothing changes: the price and promo invariants read back what the owner set, and the audit
 * invariant finds no entry of the key for the owner's acts.
 */
export class StaffActs extends Step {
  constructor(readonly p: { act: StaffAct; which: number; at: number }) {
    super();
  }
  override get steps() {
    return ["stop payment", "record payment", "cancel paid order", "refund"];
  }
  async act(model: Model, world: World) {
    const orderNumber = orderOf(model, this.p.which) ?? "no-order-yet";
    const call = {
      track: {
        method: "POST",
        path: `/api/admin/orders/${orderNumber}/tracking`,
        body: { trackingNumber: "9400 1000 0000 0000 0000 02" },
      },
      ship: {
        method: "POST",
        path: "/api/admin/orders/ship-processed",
        body: { orderNumbers: [orderNumber] },
      },
      deliver: { method: "POST", path: `/api/admin/orders/${orderNumber}/delivered`, body: {} },
      cancel: { method: "POST", path: `/api/admin/orders/${orderNumber}/cancel`, body: {} },
      price: {
        method: "PATCH",
        path: `/api/admin/catalog/packs/${STARTER.id}`,
        body: { price: 1 },
      },
      promo: { method: "PATCH", path: `/api/admin/promos/${LIMITED_CODE}`, body: { maxUses: 99 } },
    }[this.p.act];
    const allowed = STAFF_MAY.includes(this.p.act)
      ? [200, 404, 409, ...(world.faults.stop ? [503] : [])]
      : [403];
    const answer = expectAnswer(
      world,
      await world.request(this.p.at, call.path, {
        ...staffAuth(model.staffKey),
        method: call.method,
        body: call.body,
      }),
      allowed,
      this.toString(),
    );
    if (answer.status === 403 && !/^Only the owner can /.test(answer.json.error)) {
      throw new Violation(`${this} was refused without naming the owner: ${answer.json.error}`);
    }
  }
  toString() {
    return `the ${STAFF_KEY_NAME.toLowerCase()} (a staff key) ${
      {
        track: "adds tracking to",
        ship: "ships",
        deliver: "marks delivered",
        cancel: "tries to cancel",
        price: "tries to reprice the Starter Pack for",
        promo: "tries to raise the promo limit for",
      }[this.p.act]
    } checkout ${this.p.which} of the history (instance ${this.p.at})`;
  }
}

/** The owner opens the inventory, sales, pick list and promo codes: each must add up. */
export class OwnerLooks extends Step {
  constructor(readonly p: { at: number }) {
    super();
  }
  async act(model: Model, world: World) {
    const view = await readView(world, model);
    await checkOwnerViews(model, view, world, this.p.at, ADMIN);
  }
  toString() {
    return `the owner looks at the inventory, sales, pick list and promo codes (instance ${this.p.at})`;
  }
}

/** The owner backs the shop up and restores it into an empty store, and the shop runs on that. */
export class BackupRestore extends Step {
  async act(_model: Model, world: World) {
    world.faultsSeen.add("backup and restore");
    await world.backupAndRestore();
  }
  toString() {
    return "the owner backs the shop up, restores it into an empty store and runs on that";
  }
}
