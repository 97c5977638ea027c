/** What shoppers do: fill carts, check out, pay (well, badly, late, twice), cancel, sign up. */
import { lineIdOf } from "../../../server/cart/rules.ts";
import { computeTotals } from "../../../shared/policy.ts";
import { customTesterCents } from "../../../shared/pricing.ts";
import { keys } from "../../../server/kv/keys.ts";
import type { Order } from "../../../server/orders/order.ts";
import type { OutboxEntry } from "../../../server/email/outbox.ts";
import { type DemoPayment, getDemoPayment } from "../../../server/payments/demo/provider.ts";
import type { StockRecord } from "../../../server/stock/record.ts";
import { switchKey } from "../../../shared/bom.ts";
import {
  addTo,
  type CartModel,
  type CheckoutModel,
  LIMITED_CODE,
  linesText,
  type Model,
  noteState,
  OPEN_CODE,
  PER_PERSON_CODE,
  pricesAt,
  type ShopperModel,
  spellings,
} from "../model.ts";
import {
  ABROAD,
  DECLINED_CARD,
  GOOD_CARD,
  PASSWORD,
  PLAY_PRODUCTS,
  PLAY_SWITCHES,
  switchData,
  testerSwitches,
  US,
} from "../play.ts";
import { Violation, type World } from "../world.ts";
import { observePayments } from "../invariants/carts.ts";
import { readView } from "../view.ts";
import { expectAnswer, nth, Step } from "./base.ts";

/** Codes a shopper may type: none, the open one, the limited one, the once-per-person one. */
const CODES = [null, OPEN_CODE, LIMITED_CODE, PER_PERSON_CODE] as const;

function shopperOf(model: Model, n: number): ShopperModel {
  return model.shoppers[n % model.shoppers.length];
}

function cartOf(model: Model, shopper: ShopperModel): CartModel | undefined {
  return shopper.cartId ? model.carts.get(shopper.cartId) : undefined;
}

/** The shopper's cart after an add answered with `cartId` (a new one when it had none). */
function cartAfterAdd(model: Model, shopper: ShopperModel, cartId: string): CartModel {
  if (shopper.cartId !== cartId) {
    shopper.cartId = cartId;
    model.carts.set(cartId, {
      id: cartId,
      shopper: shopper.index,
      lines: new Map(),
      put: new Map(),
      bought: new Map(),
      states: [linesText([])],
    });
  }
  return model.carts.get(cartId)!;
}

function put(cart: CartModel, lineId: string, n: number): void {
  addTo(cart.lines, lineId, n);
  addTo(cart.put, lineId, n);
  noteState(cart);
}

/** A shopper adds a product (a pack, a pack with keycaps, an item). */
export class AddProduct extends Step {
  constructor(readonly p: { shopper: number; product: number; quantity: number; at: number }) {
    super();
  }
  async act(model: Model, world: World) {
    const shopper = shopperOf(model, this.p.shopper);
    const id = nth(PLAY_PRODUCTS, this.p.product)!;
    const cart = shopper.cartId ? `&cartId=${shopper.cartId}` : "";
    const answer = expectAnswer(
      world,
      await world.request(
        this.p.at,
        `/api/cart/add?itemId=${id}&quantity=${this.p.quantity}${cart}`,
        { method: "POST", client: shopper.client },
      ),
      [200, 400, 404, 409, 429],
      this.toString(),
    );
    if (answer.status === 200) {
      put(cartAfterAdd(model, shopper, answer.json.id), String(id), this.p.quantity);
    }
  }
  toString() {
    const id = nth(PLAY_PRODUCTS, this.p.product);
    return `shopper ${this.p.shopper} adds ${this.p.quantity} of product ${id} (instance ${this.p.at})`;
  }
}

/** A shopper adds a custom tester of ten switches. */
export class AddTester extends Step {
  constructor(readonly p: { shopper: number; pick: number; at: number }) {
    super();
  }
  async act(model: Model, world: World) {
    const shopper = shopperOf(model, this.p.shopper);
    const switchIds = testerSwitches(this.p.pick);
    const answer = expectAnswer(
      world,
      await world.request(this.p.at, "/api/cart/add/tester", {
        method: "POST",
        client: shopper.client,
        body: {
          cartId: shopper.cartId,
          name: "Custom Switch Tester",
          size: 10,
          keycaps: "none",
          switches: switchIds.map((id) => ({ id, quantity: 1 })),
          quantity: 1,
          bodyColor: "white",
        },
      }),
      [200, 400, 404, 409, 429],
      this.toString(),
    );
    if (answer.status !== 200) return;
    const lineId = lineIdOf({
      kind: "custom",
      size: 10,
      keycaps: "none",
      bodyColor: "white",
      switchIds,
    });
    put(cartAfterAdd(model, shopper, answer.json.id), lineId, 1);
  }
  toString() {
    return `shopper ${this.p.shopper} adds a custom tester of [${
      testerSwitches(this.p.pick).join(", ")
    }] (instance ${this.p.at})`;
  }
}

/** A shopper changes a line's quantity (0 removes it). */
export class SetQuantity extends Step {
  constructor(readonly p: { shopper: number; line: number; quantity: number; at: number }) {
    super();
  }
  async act(model: Model, world: World) {
    const shopper = shopperOf(model, this.p.shopper);
    const cart = cartOf(model, shopper);
    const lineId = cart && nth([...cart.lines.keys()], this.p.line);
    if (!cart || !lineId) return;
    const answer = expectAnswer(
      world,
      await world.request(
        this.p.at,
        `/api/cart/${cart.id}/items/${lineId}?quantity=${this.p.quantity}`,
        { method: "PUT", client: shopper.client },
      ),
      [200, 400, 404, 409, 429],
      this.toString(),
    );
    if (answer.status !== 200) return;
    const before = cart.lines.get(lineId) ?? 0;
    if (this.p.quantity <= 0) cart.lines.delete(lineId);
    else {
      cart.lines.set(lineId, this.p.quantity);
      addTo(cart.put, lineId, Math.max(0, this.p.quantity - before));
    }
    noteState(cart);
  }
  toString() {
    return `shopper ${this.p.shopper} sets line ${this.p.line} of their cart to ${this.p.quantity} (instance ${this.p.at})`;
  }
}

/**
 * The unit prices a line may be charged at now: the owner's (or one they replaced less than
 * 250 ms ago, which another process may still answer from).
 */
function unitPrices(model: Model, item: Order["items"][number], now: number): number[] {
  if (item.kind !== "custom") return pricesAt(model, item.productId!, now);
  return [
    customTesterCents(10, "none", item.switches.map((s) => switchData(s.id).extraPriceCents)),
  ];
}

/** A shopper checks out: hosted (US or abroad) or on the /checkout page, maybe with a code. */
export class Checkout extends Step {
  constructor(
    readonly p: { shopper: number; kind: number; code: number; spelling: number; at: number },
  ) {
    super();
  }
  get kind(): "us" | "international" | "embedded" {
    return (["us", "international", "embedded"] as const)[this.p.kind % 3];
  }
  override get steps() {
    return ["load cart", "reserve", "create payment", "attach payment"];
  }
  async act(model: Model, world: World) {
    const shopper = shopperOf(model, this.p.shopper);
    const cart = cartOf(model, shopper);
    if (!cart) return;
    const email = nth(spellings(shopper.email), this.p.spelling)!;
    const code = this.kind === "embedded" ? nth(CODES, this.p.code)! : null;
    // The order must hold the cart as it was at some moment while this checkout ran.
    const since = cart.states.length - 1;
    const answer = expectAnswer(
      world,
      this.kind === "embedded"
        ? await world.request(this.p.at, "/api/orders/create", {
          method: "POST",
          client: shopper.client,
          body: {
            cartId: cart.id,
            email,
            customerName: `Shopper ${shopper.index}`,
            shippingAddress: US,
            promoCode: code,
          },
        })
        : await world.request(this.p.at, `/api/cart/${cart.id}/checkout/${this.kind}`, {
          method: "POST",
          client: shopper.client,
        }),
      [200, 400, 404, 409, 429, ...(world.faults.create ? [503] : [])],
      this.toString(),
    );
    if (answer.status !== 200) return;
    const orderNumber: string = answer.json.orderNumber;
    const order = (await world.store.get<Order>(keys.order(orderNumber))).value;
    if (!order) throw new Violation(`checkout answered ${orderNumber}, which is not stored`);
    const holds = linesText(order.items.map((i): [string, number] => [i.lineId, i.quantity]));
    // A payment made while this checkout ran (another action of this step) took its lines out.
    observePayments(model, await readView(world, model));
    if (!cart.states.slice(since).includes(holds)) {
      throw new Violation(
        `checkout ${orderNumber} holds ${holds}, but while it ran the cart held ${
          cart.states.slice(since).join(" then ")
        }`,
      );
    }
    const checkout: CheckoutModel = {
      orderNumber,
      cartId: cart.id,
      shopper: shopper.index,
      mode: this.kind === "embedded" ? "embedded" : "hosted",
      region: this.kind === "international" ? "international" : "us",
      paymentId: this.kind === "embedded"
        ? answer.json.paymentIntentId
        : String(answer.json.url).replace("/demo-checkout/", ""),
    };
    model.checkouts.push(checkout);
    for (const item of order.items) {
      const allowed = unitPrices(model, item, world.clock.now());
      if (!allowed.includes(item.priceCents)) {
        throw new Violation(
          `checkout ${orderNumber} prices ${item.name} at ${item.priceCents} cents; the owner's price is ${
            allowed.join(" or ")
          }`,
        );
      }
    }
    const subtotal = order.items.reduce((sum, i) => sum + i.priceCents * i.quantity, 0);
    const promo = code ? model.promos.get(code) : null;
    const totals = computeTotals(subtotal, checkout.region, promo?.percentOff ?? 0);
    if (order.subtotalCents !== subtotal || order.totalCents !== totals.totalCents) {
      throw new Violation(
        `checkout ${orderNumber} charges ${order.subtotalCents}/${order.totalCents} cents; its lines and code make ${subtotal}/${totals.totalCents}`,
      );
    }
  }
  toString() {
    const code = this.kind === "embedded" ? nth(CODES, this.p.code) : null;
    return `shopper ${this.p.shopper} checks out (${this.kind}${
      code ? `, code ${code}` : ""
    }, email spelling ${this.p.spelling % 4}) (instance ${this.p.at})`;
  }
}

/** The provider's record of a checkout's payment. */
async function demoPayment(world: World, checkout: CheckoutModel): Promise<DemoPayment | null> {
  return await getDemoPayment(world.store, checkout.paymentId);
}

/** The shopper's checkouts, newest first. */
function checkoutsOf(model: Model, shopper: ShopperModel): CheckoutModel[] {
  return model.checkouts.filter((c) => c.shopper === shopper.index).reverse();
}

/**
 * A shopper pays one of their checkouts (0: the latest; others were replaced), with a good or a
 * declined card, maybe typing a code on the hosted page; paying again is paying twice.
 */
export class Pay extends Step {
  constructor(
    readonly p: {
      shopper: number;
      which: number;
      declined: boolean;
      spelling: number;
      code: number;
      at: number;
    },
  ) {
    super();
  }
  override get steps() {
    return ["charge", "record payment", "refund"];
  }
  async act(model: Model, world: World) {
    const shopper = shopperOf(model, this.p.shopper);
    const checkout = nth(checkoutsOf(model, shopper), this.p.which);
    if (!checkout) return;
    const card = this.p.declined ? DECLINED_CARD : GOOD_CARD;
    const before = await demoPayment(world, checkout);
    let answer;
    if (checkout.mode === "embedded") {
      answer = await world.request(
        this.p.at,
        `/api/demo/payment-intents/${checkout.paymentId}/confirm`,
        { method: "POST", client: shopper.client, body: { cardNumber: card } },
      );
    } else {
      const email = nth(spellings(shopper.email), this.p.spelling)!;
      answer = await world.request(
        this.p.at,
        `/api/demo/checkout-sessions/${checkout.paymentId}/pay`,
        {
          method: "POST",
          client: shopper.client,
          body: {
            cardNumber: card,
            email,
            name: `Shopper ${shopper.index}`,
            address: checkout.region === "us" ? US : ABROAD,
            promoCode: nth(CODES, this.p.code),
          },
        },
      );
    }
    expectAnswer(world, answer, [200, 400, 402, 404, 409], this.toString());
    if (answer.status === 402 && !this.p.declined) {
      throw new Violation(`a good card was declined: ${answer.text}`);
    }
    // Paying a payment taken before is harmless (its event again); a declined card pays nothing.
    const takenBefore = before?.status === "succeeded" || before?.status === "refunded";
    if (answer.status === 200 && this.p.declined && !takenBefore && !world.dying) {
      throw new Violation(`a declined card paid checkout ${checkout.orderNumber}`);
    }
  }
  toString() {
    const code = nth(CODES, this.p.code);
    return `shopper ${this.p.shopper} pays checkout ${this.p.which} (0 = latest) with a ${
      this.p.declined ? "declined" : "good"
    } card${code ? ` and code ${code} on the hosted page` : ""} (instance ${this.p.at})`;
  }
}

/** A shopper cancels one of their orders with its email. */
export class CustomerCancel extends Step {
  constructor(readonly p: { shopper: number; which: number; at: number }) {
    super();
  }
  override get steps() {
    return ["stop payment", "record payment", "cancel paid order", "refund"];
  }
  async act(model: Model, world: World) {
    const shopper = shopperOf(model, this.p.shopper);
    const checkout = nth(checkoutsOf(model, shopper), this.p.which);
    const order = checkout &&
      (await world.store.get<Order>(keys.order(checkout.orderNumber))).value;
    if (!checkout || !order?.email) return;
    expectAnswer(
      world,
      await world.request(this.p.at, `/api/orders/${checkout.orderNumber}/cancel`, {
        method: "POST",
        client: shopper.client,
        body: { email: order.email },
      }),
      [200, 404, 409, 429, ...(world.faults.stop ? [503] : [])],
      this.toString(),
    );
  }
  toString() {
    return `shopper ${this.p.shopper} cancels their checkout ${this.p.which} (instance ${this.p.at})`;
  }
}

/**
 * A shopper keeps one of their checkouts' holds longer (the payment page's one extension), with
 * the payment id the page holds; the shop must never say yes twice for one order.
 */
export class ExtendHold extends Step {
  constructor(readonly p: { shopper: number; which: number; at: number }) {
    super();
  }
  override get steps() {
    return ["extend payment", "extend hold"];
  }
  async act(model: Model, world: World) {
    // Their own checkout, or (when they have none) the latest anyone started, as its shopper:
    // a history where this shopper never checked out still extends someone's hold.
    const own = nth(checkoutsOf(model, shopperOf(model, this.p.shopper)), this.p.which);
    const checkout = own ?? nth([...model.checkouts].reverse(), this.p.which);
    if (!checkout) return;
    const shopper = shopperOf(model, checkout.shopper);
    const answer = expectAnswer(
      world,
      await world.request(this.p.at, `/api/orders/${checkout.orderNumber}/extend-hold`, {
        method: "POST",
        client: shopper.client,
        body: { paymentId: checkout.paymentId },
      }),
      // 404: the order is gone with a restore into an empty store; 503: the provider refuses.
      [200, 404, 409, 429, ...(world.faults.stop ? [503] : [])],
      this.toString(),
    );
    if (answer.status !== 200 || world.dying) return;
    if (model.extended.has(checkout.orderNumber)) {
      throw new Violation(`the hold of ${checkout.orderNumber} was extended a second time`);
    }
    model.extended.add(checkout.orderNumber);
  }
  toString() {
    return `shopper ${this.p.shopper} extends the hold of checkout ${this.p.which} (instance ${this.p.at})`;
  }
}

/** A shopper signs up. */
export class SignUp extends Step {
  constructor(readonly p: { shopper: number; at: number }) {
    super();
  }
  async act(model: Model, world: World) {
    const shopper = shopperOf(model, this.p.shopper);
    if (shopper.password) return;
    const answer = expectAnswer(
      world,
      await world.request(this.p.at, "/auth/register", {
        method: "POST",
        client: shopper.client,
        body: { email: shopper.email, password: PASSWORD },
      }),
      [201, 400, 429],
      this.toString(),
    );
    if (answer.status === 201) shopper.password = PASSWORD;
  }
  toString() {
    return `shopper ${this.p.shopper} signs up (instance ${this.p.at})`;
  }
}

/** A shopper asks for a password reset link (owed when they have an account, 3 an hour). */
export class ResetPassword extends Step {
  constructor(readonly p: { shopper: number; at: number }) {
    super();
  }
  async act(model: Model, world: World) {
    const shopper = shopperOf(model, this.p.shopper);
    const answer = expectAnswer(
      world,
      await world.request(this.p.at, "/auth/password-reset", {
        method: "POST",
        client: shopper.client,
        body: { email: shopper.email },
      }),
      [200, 429],
      this.toString(),
    );
    if (answer.status !== 200) return;
    const window = `${shopper.email} ${Math.floor(world.clock.now() / 3_600_000)}`;
    addTo(model.resetWindows, window, 1);
    if (shopper.password && model.resetWindows.get(window)! <= 3) {
      addTo(model.resetsOwed, shopper.email, 1);
    }
  }
  toString() {
    return `shopper ${this.p.shopper} asks for a password reset link (instance ${this.p.at})`;
  }
}

/**
 * The token of the newest link matching `link` (its first group) in the mail sent to `email`, as
 * its recipient reads it in the outbox, or null.
 */
async function newestLinkToken(world: World, email: string, link: RegExp): Promise<string | null> {
  let token: string | null = null;
  for await (const e of world.store.list<OutboxEntry>({ prefix: keys.outboxAll() })) {
    if (e.value.email.to !== email) continue;
    token = e.value.email.text.match(link)?.[1] ?? token;
  }
  return token;
}

/** A shopper follows the newest reset link they were sent (read from the outbox) and sets a password. */
export class ConfirmReset extends Step {
  constructor(readonly p: { shopper: number; at: number }) {
    super();
  }
  async act(model: Model, world: World) {
    const shopper = shopperOf(model, this.p.shopper);
    const token = await newestLinkToken(world, shopper.email, /token=([A-Za-z0-9_-]+)/);
    if (!token) return;
    expectAnswer(
      world,
      await world.request(this.p.at, "/auth/password-reset/confirm", {
        method: "POST",
        client: shopper.client,
        body: { token, password: PASSWORD },
      }),
      [200, 400, 429],
      this.toString(),
    );
  }
  toString() {
    return `shopper ${this.p.shopper} follows their newest reset link (instance ${this.p.at})`;
  }
}

/** A shopper facing a sold-out switch asks to hear when it is back. */
export class NotifyMe extends Step {
  constructor(readonly p: { shopper: number; switch: number; at: number }) {
    super();
  }
  async act(model: Model, world: World) {
    const shopper = shopperOf(model, this.p.shopper);
    // The shopper meets one of the switches sold out now (opening counts are rarely 0, so a
    // switch picked at random was seldom sold out, and sign-ups seldom happened).
    const soldOut: number[] = [];
    for (const id of PLAY_SWITCHES) {
      const record = (await world.store.get<StockRecord>(keys.stock(switchKey(id)))).value;
      if (!record || record.stock - record.reserved <= 0) soldOut.push(id);
    }
    const id = nth(soldOut, this.p.switch);
    if (id === undefined) return;
    const answer = expectAnswer(
      world,
      await world.request(this.p.at, "/api/stock-alerts", {
        method: "POST",
        client: shopper.client,
        body: { email: shopper.email, switchId: id },
      }),
      [200, 400, 429],
      this.toString(),
    );
    if (answer.status !== 200) return;
    // Anonymous: it waits for a confirmation even when the address confirmed before, and may
    // send one.
    addTo(model.alertConfirmations, shopper.email, 1);
    const data = switchData(id);
    model.alerts.push({
      email: shopper.email,
      switchId: id,
      name: `${data.brand} ${data.name}`,
      step: world.step,
    });
  }
  toString() {
    return `shopper ${this.p.shopper} asks to hear when sold-out switch ${this.p.switch} (counted among those sold out then) is back (instance ${this.p.at})`;
  }
}

/**
 * A shopper follows the newest back-in-stock confirmation link they were sent (read from the
 * outbox) and presses its button.
 */
export class ConfirmStockAlert extends Step {
  constructor(readonly p: { shopper: number; at: number }) {
    super();
  }
  async act(model: Model, world: World) {
    const shopper = shopperOf(model, this.p.shopper);
    const token = await newestLinkToken(
      world,
      shopper.email,
      /stock-alerts\/confirm\?token=([A-Za-z0-9_-]+)/,
    );
    if (!token) return;
    const answer = await world.request(this.p.at, `/stock-alerts/confirm?token=${token}`, {
      method: "POST",
      client: shopper.client,
    });
    if (world.dying) return;
    if (answer.status === 200) {
      // Puts in force the sign-ups made up to now; later ones wait for the next.
      model.alertConfirmed.set(shopper.email, world.step);
    } else if (answer.status !== 404 || !/expired or was already used/.test(answer.text)) {
      throw new Violation(`${this} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    }
  }
  toString() {
    return `shopper ${this.p.shopper} confirms back-in-stock emails from their newest link (instance ${this.p.at})`;
  }
}

/** A shopper writes to the shop. */
export class Contact extends Step {
  constructor(readonly p: { shopper: number; at: number }) {
    super();
  }
  async act(model: Model, world: World) {
    const shopper = shopperOf(model, this.p.shopper);
    const answer = expectAnswer(
      world,
      await world.request(this.p.at, "/api/sendMessage", {
        method: "POST",
        client: shopper.client,
        body: { topic: "Order question", message: "Where is my tester?", userEmail: shopper.email },
      }),
      [200, 429],
      this.toString(),
    );
    if (answer.status === 200) model.contactsOwed++;
  }
  toString() {
    return `shopper ${this.p.shopper} sends a contact message (instance ${this.p.at})`;
  }
}
