/**
 * Buying from a drop: the cart's gate (a drop's target goes in only with the shopper's own,
 * admitted, unlapsed place), the per-person limit and the drop's units checked in the checkout's
 * own write, holds that lapse passing units on, payment moving held to sold. Drops and places are
 * written through the fixture (tests/helpers/drop_fixtures.ts); shoppers' networks are their
 * connection addresses.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers/test_app.ts";
import { payDemo, sessionIdOf, STARTER, US_ADDRESS } from "../helpers/shop_fixtures.ts";
import { handlePaymentEvent } from "../../server/orders/payment.ts";
import {
  dropNow,
  ledgerOf,
  personUnits,
  placeFor,
  refusals,
  scheduleDrop,
  shopper,
} from "../helpers/drop_fixtures.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { COMPONENTS, switchKey } from "../../shared/bom.ts";
import { getOrder } from "../../server/orders/store.ts";
import { sweepHolds } from "../../server/orders/expiry.ts";
import { cancelOrder } from "../../server/orders/fulfilment.ts";
import { CUSTOMER_CANCEL_REASONS } from "../../server/orders/customer_cancel.ts";
import { keys } from "../../server/kv/keys.ts";
import type { CartRecord } from "../../server/cart/store.ts";
import type { DropRecord } from "../../server/drops/record.ts";
import { loopback, serveOnLoopback } from "../helpers/loopback.ts";

/** A pack outside the drop, to make a guest's cart before the drop's target goes in. */
const OTHER = PACKS[1];

/** Plenty of every switch and part, so only the drop limits what sells. */
async function stockUp(t: TestApp) {
  const switches = new Set([...STARTER.switchIds, ...OTHER.switchIds]);
  for (const key of [...COMPONENTS, ...[...switches].map(switchKey)]) {
    await t.writeStock(key, { stock: 10_000, reserved: 0, used: 0 });
  }
}

/** A guest cart from `client` holding one pack outside the drop; answers its id. */
async function guestCart(t: TestApp, client = "192.0.2.10"): Promise<string> {
  const res = await t.request(`/api/cart/add?itemId=${OTHER.id}`, { method: "POST", client });
  assert.equal(res.status, 200, res.text);
  return res.json.id;
}

/** Adds `quantity` Starter Packs (the drop's target) with `ticket`. */
function addTarget(
  t: TestApp,
  opts: {
    cartId?: string;
    ticket?: string;
    quantity?: number;
    client?: string;
    headers?: Record<string, string>;
  },
) {
  const query = new URLSearchParams({ itemId: String(STARTER.id) });
  if (opts.quantity) query.set("quantity", String(opts.quantity));
  if (opts.cartId) query.set("cartId", opts.cartId);
  if (opts.ticket) query.set("ticket", opts.ticket);
  return t.request(`/api/cart/add?${query}`, {
    method: "POST",
    client: opts.client ?? "192.0.2.10",
    headers: opts.headers,
  });
}

/** A guest admitted to `drop` with `quantity` of its target in a cart; answers cart and place. */
async function admittedGuest(
  t: TestApp,
  drop: DropRecord,
  quantity = 1,
  client = "192.0.2.10",
): Promise<{ cartId: string; ticket: string }> {
  const cartId = await guestCart(t, client);
  const ticket = await placeFor(t, drop, `cart:${cartId}`);
  const added = await addTarget(t, { cartId, ticket, quantity, client });
  assert.equal(added.status, 200, added.text);
  return { cartId, ticket };
}

/** The checkout page's order (embedded: email and address known at the checkout). */
function checkout(
  t: TestApp,
  cartId: string,
  opts: {
    email?: string;
    address?: typeof US_ADDRESS;
    client?: string;
    headers?: Record<string, string>;
  } = {},
) {
  return t.request("/api/orders/create", {
    method: "POST",
    client: opts.client ?? "192.0.2.10",
    headers: opts.headers,
    body: {
      cartId,
      email: opts.email ?? "ann@example.com",
      customerName: "Ann Example",
      shippingAddress: opts.address ?? US_ADDRESS,
    },
  });
}

/** Pays an embedded checkout's payment with the demo card. */
async function pay(t: TestApp, paymentIntentId: string) {
  const res = await t.request(`/api/demo/payment-intents/${paymentIntentId}/confirm`, {
    method: "POST",
    body: { cardNumber: "4242424242424242" },
  });
  assert.equal(res.status, 200, res.text);
}

Deno.test("adding a drop's target without a place in line is refused with the way in", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const soon = await scheduleDrop(t, { opensIn: 3_600_000 });
  const refused = await addTarget(t, {});
  assert.equal(refused.status, 409, refused.text);
  assert.match(
    refused.json.error,
    /Starter Pack is part of a drop opening .* UTC; join the waiting room/,
  );
  const cartId = await guestCart(t);
  assert.equal((await addTarget(t, { cartId })).status, 409, "with a cart too");
  assert.equal(await refusals(t, soon, "no admitted ticket"), 2);
  // Another pack sells as usual.
  assert.equal(
    (await t.request(`/api/cart/add?itemId=${OTHER.id}`, { method: "POST" })).status,
    200,
  );
});

Deno.test("a place not yet let in, or whose turn lapsed, cannot add the target", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t);
  const cartId = await guestCart(t);
  const waiting = await placeFor(t, drop, `cart:${cartId}`, null);
  const early = await addTarget(t, { cartId, ticket: waiting });
  assert.equal(early.status, 409, early.text);
  assert.match(early.json.error, /not your turn/);

  const other = await guestCart(t);
  const lapsed = await placeFor(t, drop, `cart:${other}`, 11 * 60_000);
  const late = await addTarget(t, { cartId: other, ticket: lapsed });
  assert.equal(late.status, 409, late.text);
  assert.match(late.json.error, /lapsed/);
  assert.equal(await refusals(t, drop, "admission lapsed"), 1);
  const cart = (await t.kv.get<CartRecord>(keys.cart(other))).value!;
  assert.equal(cart.lines.length, 1, "nothing of the drop went in");
});

Deno.test("a place belongs to its cart or account: another cart or user is refused 403", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t);
  const mine = await guestCart(t);
  const ticket = await placeFor(t, drop, `cart:${mine}`);
  const theirs = await guestCart(t, "192.0.2.11");
  const stolen = await addTarget(t, { cartId: theirs, ticket, client: "192.0.2.11" });
  assert.equal(stolen.status, 403, stolen.text);
  assert.equal(stolen.json.error, "This place in line belongs to another shopper");

  const ann = await shopper(t, "ann@example.com");
  const bob = await shopper(t, "bob@example.com");
  const annsPlace = await placeFor(t, drop, `user:${ann.userId}`);
  const taken = await addTarget(t, { ticket: annsPlace, headers: bob.headers });
  assert.equal(taken.status, 403, taken.text);
  assert.equal(await refusals(t, drop, "transferred ticket"), 2);
  // Each owner uses their own.
  assert.equal((await addTarget(t, { cartId: mine, ticket })).status, 200);
  const own = await addTarget(t, { ticket: annsPlace, headers: ann.headers });
  assert.equal(own.status, 200, own.text);
});

Deno.test("an admitted place adds the target; the line keeps it; past the limit is refused early", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { perPersonLimit: 2 });
  const { cartId, ticket } = await admittedGuest(t, drop, 1);
  const cart = (await t.kv.get<CartRecord>(keys.cart(cartId))).value!;
  assert.deepEqual(cart.lines.find((l) => l.lineId === String(STARTER.id))?.dropTicket, {
    dropId: drop.id,
    ticket,
  });
  // One more with the line's own place (no ticket in the call) is fine; a third is not.
  assert.equal((await addTarget(t, { cartId })).status, 200);
  const third = await addTarget(t, { cartId, ticket });
  assert.equal(third.status, 409, third.text);
  assert.match(third.json.error, /The drop allows 2 per person; you have 2 held or bought/);
  const raise = await t.request(`/api/cart/${cartId}/items/${STARTER.id}?quantity=3`, {
    method: "PUT",
  });
  assert.equal(raise.status, 409, raise.text);
  assert.equal(await refusals(t, drop, "per-person limit"), 2);
});

Deno.test("a drop called off or sold out lets its target sell as usual again", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t);
  await t.kv.set(keys.drop(drop.id), { ...drop, cancelledAt: t.clock.now() });
  const added = await addTarget(t, {});
  assert.equal(added.status, 200, added.text);

  await t.kv.set(keys.drop(drop.id), drop);
  await t.kv.set(keys.dropLedger(drop.id), { holding: 0, sold: drop.units });
  const after = await addTarget(t, { quantity: 3 });
  assert.equal(after.status, 200, after.text);
  const order = await checkout(t, after.json.id);
  assert.equal(order.status, 200, order.text);
  assert.equal((await getOrder(t.kv, order.json.orderNumber)).dropHold ?? null, null);
});

Deno.test("checkout holds the drop's units and counts every person key; payment sells them", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { units: 2, perPersonLimit: 2 });
  const { cartId, ticket } = await admittedGuest(t, drop, 2, "192.0.2.10");
  const started = await checkout(t, cartId, { client: "192.0.2.10" });
  assert.equal(started.status, 200, started.text);
  const order = await getOrder(t.kv, started.json.orderNumber);
  assert.equal(order.dropHold?.units, 2);
  assert.equal(order.dropHold?.ticket, ticket);
  assert.equal(order.dropHold?.state, "holding");
  assert.deepEqual(await ledgerOf(t, drop), { holding: 2, sold: 0 });
  assert.equal(await personUnits(t, drop, "network:192.0.2.10"), 2);
  assert.equal(await personUnits(t, drop, "email:ann@example.com"), 2);
  assert.equal(order.reservation.expiresAt, t.clock.now() + 10 * 60_000, "the drop's hold");

  await pay(t, started.json.paymentIntentId);
  assert.deepEqual(await ledgerOf(t, drop), { holding: 0, sold: 2 });
  assert.equal((await dropNow(t, drop)).soldOutAt, t.clock.now(), "sold out when the last is paid");
  assert.equal((await getOrder(t.kv, order.orderNumber)).dropHold?.state, "sold");
  // Sold out: the target sells as usual from the shelf again.
  assert.equal((await addTarget(t, {})).status, 200);
});

/** A signed-in shopper admitted to `drop` who adds `quantity` and checks out from `client`. */
async function buyAs(
  t: TestApp,
  drop: DropRecord,
  who: { userId: string; headers: Record<string, string> },
  client: string,
  email: string,
  quantity: number,
) {
  const ticket = await placeFor(t, drop, `user:${who.userId}`);
  const added = await addTarget(t, { ticket, quantity, headers: who.headers, client });
  assert.equal(added.status, 200, added.text);
  return await checkout(t, added.json.id, { client, email, headers: who.headers });
}

Deno.test("two accounts at one address get no more than one person's limit", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { perPersonLimit: 2 });
  const ann = await shopper(t, "ann@example.com");
  const bob = await shopper(t, "bob@example.com");
  const first = await buyAs(t, drop, ann, "198.51.100.1", "ann@example.com", 2);
  assert.equal(first.status, 200, first.text);
  const second = await buyAs(t, drop, bob, "198.51.100.2", "bob@example.com", 1);
  assert.equal(second.status, 409, second.text);
  assert.equal(second.json.error, "The drop allows 2 per person; you have 2 held or bought");
  assert.deepEqual(await ledgerOf(t, drop), { holding: 2, sold: 0 }, "nothing half-held");
  assert.equal(await refusals(t, drop, "per-person limit"), 1);
});

Deno.test("two addresses from one network get no more than one person's limit", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { perPersonLimit: 2 });
  const a = await admittedGuest(t, drop, 2, "198.51.100.7");
  assert.equal((await checkout(t, a.cartId, { client: "198.51.100.7" })).status, 200);
  const b = await admittedGuest(t, drop, 1, "198.51.100.7");
  const refused = await checkout(t, b.cartId, {
    client: "198.51.100.7",
    email: "other@example.com",
    address: { ...US_ADDRESS, street: "99 Elm St", zipCode: "62702" },
  });
  assert.equal(refused.status, 409, refused.text);
  assert.match(refused.json.error, /allows 2 per person/);
});

Deno.test("one account from two networks gets no more than its limit", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { perPersonLimit: 2 });
  const ann = await shopper(t, "ann@example.com");
  const place = await placeFor(t, drop, `user:${ann.userId}`);
  const first = await addTarget(t, {
    ticket: place,
    quantity: 2,
    headers: ann.headers,
    client: "198.51.100.20",
  });
  assert.equal(first.status, 200, first.text);
  const cartId = first.json.id;
  const held = await checkout(t, cartId, { client: "198.51.100.20", headers: ann.headers });
  assert.equal(held.status, 200, held.text);
  // A second cart of the same account, from another network and with another email and address.
  const other = await guestCart(t, "203.0.113.50");
  const otherPlace = await placeFor(t, drop, `cart:${other}`);
  const added = await addTarget(t, { cartId: other, ticket: otherPlace, client: "203.0.113.50" });
  assert.equal(added.status, 200, added.text);
  const refused = await checkout(t, other, {
    client: "203.0.113.50",
    headers: ann.headers,
    email: "ann.other@example.org",
    address: { ...US_ADDRESS, street: "5 Far Rd", zipCode: "10001" },
  });
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.json.error, "The drop allows 2 per person; you have 2 held or bought");
});

Deno.test("parallel checkouts from distinct clients sell exactly the drop's units", async () => {
  await using t = await createTestApp({ env: { PUBLIC_URL: "http://shop.test" } });
  await stockUp(t);
  const drop = await scheduleDrop(t, { units: 5, perPersonLimit: 1 });
  await using shop = serveOnLoopback(t.app);
  const shoppers = 12;
  const carts: string[] = [];
  for (let n = 1; n <= shoppers; n++) {
    const from = loopback(3, n);
    const made = await shop.request(`/api/cart/add?itemId=${OTHER.id}`, { from, method: "POST" });
    assert.equal(made.status, 200, made.text);
    const ticket = await placeFor(t, drop, `cart:${made.json.id}`);
    const added = await shop.request(
      `/api/cart/add?itemId=${STARTER.id}&cartId=${made.json.id}&ticket=${ticket}`,
      { from, method: "POST" },
    );
    assert.equal(added.status, 200, added.text);
    carts.push(made.json.id);
  }
  const answers = await Promise.all(carts.map((cartId, i) =>
    shop.request("/api/orders/create", {
      from: loopback(3, i + 1),
      method: "POST",
      body: {
        cartId,
        email: `shopper${i}@example.com`,
        customerName: "A Shopper",
        shippingAddress: { ...US_ADDRESS, street: `${i + 1} Main St` },
      },
    })
  ));
  const statuses = answers.map((a) => a.status).sort();
  assert.deepEqual(
    statuses,
    [...Array(5).fill(200), ...Array(7).fill(409)],
    answers.map((a) => a.text).join("\n"),
  );
  assert.ok(
    answers.filter((a) => a.status === 409).every((a) => a.json.error === "The drop has sold out"),
  );
  assert.deepEqual(await ledgerOf(t, drop), { holding: 5, sold: 0 });
  // Every winner pays at once: exactly the drop's units sold, and it is sold out.
  await Promise.all(
    answers.filter((a) => a.status === 200).map((a) => pay(t, a.json.paymentIntentId)),
  );
  assert.deepEqual(await ledgerOf(t, drop), { holding: 0, sold: 5 });
  assert.notEqual((await dropNow(t, drop)).soldOutAt, null);
});

Deno.test("a custom tester holding a drop's switch goes in with the place in the body", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const switchId = STARTER.switchIds[0];
  const drop = await scheduleDrop(t, { target: { kind: "switch", id: switchId }, productIds: [] });
  const cartId = await guestCart(t);
  const ticket = await placeFor(t, drop, `cart:${cartId}`);
  const tester = {
    cartId,
    name: "Custom Switch Tester",
    size: 10,
    keycaps: "none",
    bodyColor: "white",
    switches: STARTER.switchIds.map((id) => ({ id, quantity: 1 })),
    quantity: 1,
  };
  const refused = await t.request("/api/cart/add/tester", { method: "POST", body: tester });
  assert.equal(refused.status, 409, refused.text);
  assert.match(refused.json.error, /join the waiting room/);
  const bad = await t.request("/api/cart/add/tester", {
    method: "POST",
    body: { ...tester, ticket: "not a ticket!" },
  });
  assert.equal(bad.status, 400, bad.text);
  const added = await t.request("/api/cart/add/tester", {
    method: "POST",
    body: { ...tester, ticket },
  });
  assert.equal(added.status, 200, added.text);
  // The pack holds the switch too: it needs the place as well, and both count toward the limit.
  assert.equal((await addTarget(t, { cartId })).status, 409);
  const started = await checkout(t, cartId);
  assert.equal(started.status, 200, started.text);
  assert.equal((await getOrder(t.kv, started.json.orderNumber)).dropHold?.units, 1);
});

Deno.test("a lapsed drop hold gives its units back at once; the next admitted shopper buys them", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { units: 2, perPersonLimit: 2, holdMinutes: 5 });
  const first = await admittedGuest(t, drop, 2, "192.0.2.30");
  const held = await checkout(t, first.cartId, { client: "192.0.2.30" });
  assert.equal(held.status, 200, held.text);
  const second = await admittedGuest(t, drop, 2, "192.0.2.31");
  const full = await checkout(t, second.cartId, {
    client: "192.0.2.31",
    email: "bo@example.com",
    address: { ...US_ADDRESS, street: "7 Oak St" },
  });
  assert.equal(full.status, 409, full.text);
  assert.equal(full.json.error, "The drop has sold out");

  t.clock.advance(5 * 60_000 + 1);
  await sweepHolds(t);
  assert.equal((await getOrder(t.kv, held.json.orderNumber)).status, "EXPIRED");
  assert.deepEqual(await ledgerOf(t, drop), { holding: 0, sold: 0 });
  assert.equal(await personUnits(t, drop, "network:192.0.2.30"), 0);
  // The second shopper's place was let in just now (the room admits the next as units free up).
  await t.kv.set(keys.dropTicket(drop.id, second.ticket), {
    ...(await t.kv.get<Record<string, unknown>>(keys.dropTicket(drop.id, second.ticket))).value,
    admittedAt: t.clock.now(),
  });
  const bought = await checkout(t, second.cartId, {
    client: "192.0.2.31",
    email: "bo@example.com",
    address: { ...US_ADDRESS, street: "7 Oak St" },
  });
  assert.equal(bought.status, 200, bought.text);
  await pay(t, bought.json.paymentIntentId);
  assert.deepEqual(await ledgerOf(t, drop), { holding: 0, sold: 2 });
});

Deno.test("a drop's hold is extended by its own minutes, not the shop's, and its units pass on at the new end", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { units: 1, perPersonLimit: 1, holdMinutes: 2 });
  const first = await admittedGuest(t, drop, 1, "192.0.2.40");
  const held = await checkout(t, first.cartId, { client: "192.0.2.40" });
  assert.equal(held.status, 200, held.text);
  const { orderNumber, paymentIntentId } = held.json;
  const view = (await t.request(`/api/orders/${orderNumber}`)).json;
  assert.equal(view.holdSecondsLeft, 2 * 60);
  assert.equal(
    view.holdExtendMinutes,
    2,
    "the page offers the drop's 2 minutes, not the shop's 10",
  );

  t.clock.advance(90_000);
  const extended = await t.request(`/api/orders/${orderNumber}/extend-hold`, {
    method: "POST",
    body: { paymentId: paymentIntentId },
  });
  assert.equal(extended.status, 200, extended.text);
  assert.equal(extended.json.holdSecondsLeft, 30 + 2 * 60, "30 s were left, now 2 min 30 s");
  // Twice the drop's minutes after the checkout, the units go back to the drop.
  t.clock.advance(2 * 60_000 + 30_000 + 1);
  await sweepHolds(t);
  assert.equal((await getOrder(t.kv, orderNumber)).status, "EXPIRED");
  assert.deepEqual(await ledgerOf(t, drop), { holding: 0, sold: 0 });
});

Deno.test("checking out again replaces the hold: the drop's units are counted once", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { units: 3, perPersonLimit: 2 });
  const { cartId } = await admittedGuest(t, drop, 2);
  assert.equal((await checkout(t, cartId)).status, 200);
  const again = await checkout(t, cartId);
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(await ledgerOf(t, drop), { holding: 2, sold: 0 });
  assert.equal(await personUnits(t, drop, "email:ann@example.com"), 2);
});

Deno.test("a paid drop order cancelled while the drop sells gives its units back to the drop", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { units: 4, perPersonLimit: 2 });
  const { cartId } = await admittedGuest(t, drop, 2);
  const started = await checkout(t, cartId);
  await pay(t, started.json.paymentIntentId);
  assert.deepEqual(await ledgerOf(t, drop), { holding: 0, sold: 2 });
  await cancelOrder(t, started.json.orderNumber, CUSTOMER_CANCEL_REASONS);
  assert.deepEqual(await ledgerOf(t, drop), { holding: 0, sold: 0 });
  assert.equal(await personUnits(t, drop, "email:ann@example.com"), 0);
  assert.equal((await getOrder(t.kv, started.json.orderNumber)).dropHold?.state, "returned");
});

Deno.test("a place whose turn lapsed after its units were bought cannot be replayed", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { units: 10, perPersonLimit: 2 });
  const { cartId, ticket } = await admittedGuest(t, drop, 1);
  const started = await checkout(t, cartId);
  await pay(t, started.json.paymentIntentId);
  t.clock.advance(11 * 60_000);
  const replay = await addTarget(t, { cartId, ticket });
  assert.equal(replay.status, 409, replay.text);
  assert.match(replay.json.error, /lapsed/);
});

Deno.test("a line added before the drop cannot be checked out while the drop runs", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const before = await addTarget(t, {});
  assert.equal(before.status, 200);
  const drop = await scheduleDrop(t);
  const refused = await checkout(t, before.json.id);
  assert.equal(refused.status, 409, refused.text);
  assert.match(refused.json.error, /join the waiting room/);
  assert.deepEqual(await ledgerOf(t, drop), { holding: 0, sold: 0 });
});

Deno.test("a hosted checkout's email and address count at payment: past the limit is refunded", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { units: 10, perPersonLimit: 2 });
  const card = { cardNumber: "4242424242424242", name: "Ann Example", address: US_ADDRESS };
  const first = await admittedGuest(t, drop, 2, "198.51.100.40");
  const one = await t.request(`/api/cart/${first.cartId}/checkout/us`, {
    method: "POST",
    client: "198.51.100.40",
  });
  assert.equal(one.status, 200, one.text);
  const paidOne = await payDemo(t, sessionIdOf(one.json.url), {
    ...card,
    email: "ann@example.com",
  });
  assert.equal(paidOne.status, 200, paidOne.text);
  // Another network, another email, the same door.
  const second = await admittedGuest(t, drop, 1, "203.0.113.41");
  const two = await t.request(`/api/cart/${second.cartId}/checkout/us`, {
    method: "POST",
    client: "203.0.113.41",
  });
  assert.equal(two.status, 200, two.text, "the provider's page has not asked for the address yet");
  await payDemo(t, sessionIdOf(two.json.url), { ...card, email: "other@example.org" });
  const refused = await getOrder(t.kv, two.json.orderNumber);
  assert.equal(refused.status, "CANCELLED");
  assert.equal(refused.refund?.state !== undefined, true, "the payment is owed back");
  assert.match(refused.cancelReason ?? "", /per person/);
  assert.deepEqual(await ledgerOf(t, drop), { holding: 0, sold: 2 });
});

Deno.test("a late payment of a lapsed drop hold sells only units the drop still has", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { units: 2, perPersonLimit: 2, holdMinutes: 5 });
  const late = await admittedGuest(t, drop, 2, "192.0.2.50");
  const lapsing = await checkout(t, late.cartId, { client: "192.0.2.50" });
  assert.equal(lapsing.status, 200, lapsing.text);
  const order = await getOrder(t.kv, lapsing.json.orderNumber);
  t.clock.advance(5 * 60_000 + 1);
  await sweepHolds(t);
  const next = await admittedGuest(t, drop, 2, "192.0.2.51");
  const held = await checkout(t, next.cartId, {
    client: "192.0.2.51",
    email: "bo@example.com",
    address: { ...US_ADDRESS, street: "8 Pine St" },
  });
  assert.equal(held.status, 200, held.text);
  const answer = await handlePaymentEvent(t, {
    id: "evt_drop_late",
    type: "paid",
    orderNumber: order.orderNumber,
    paymentId: order.payment!.id,
    paymentKind: "embedded",
  });
  assert.equal(answer?.status, "CANCELLED", "the units went to the next shopper");
  assert.deepEqual(await ledgerOf(t, drop), { holding: 2, sold: 0 }, "never oversold");
});

Deno.test("a guest's place stays with its line when the cart joins the account's at sign-in", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const ann = await shopper(t, "ann@example.com");
  // Ann's account put a Starter Pack in its cart before the drop: the guest's line joins it.
  const own = await addTarget(t, { headers: ann.headers });
  assert.equal(own.status, 200, own.text);
  const drop = await scheduleDrop(t);
  const guest = await admittedGuest(t, drop, 1);
  const login = await t.request("/auth/login", {
    method: "POST",
    client: "192.0.2.9",
    body: { email: "ann@example.com", password: "The-Right-Password-1", cartId: guest.cartId },
  });
  assert.equal(login.status, 200, login.text);
  assert.equal(login.json.cartId, own.json.id);
  const joined = (await t.kv.get<CartRecord>(keys.cart(own.json.id))).value!;
  const line = joined.lines.find((l) => l.lineId === String(STARTER.id));
  assert.equal(line?.quantity, 2);
  assert.deepEqual(line?.dropTicket, { dropId: drop.id, ticket: guest.ticket });
  const headers = { Authorization: `Bearer ${login.json.token}` };
  const started = await checkout(t, own.json.id, { headers });
  assert.equal(started.status, 200, started.text);
  assert.equal((await getOrder(t.kv, started.json.orderNumber)).dropHold?.units, 2);
});

Deno.test("a paid drop order cancelled after the drop sold out leaves the drop's count as it ended", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { units: 2, perPersonLimit: 2 });
  const { cartId } = await admittedGuest(t, drop, 2);
  const started = await checkout(t, cartId);
  await pay(t, started.json.paymentIntentId);
  const soldOutAt = (await dropNow(t, drop)).soldOutAt;
  assert.notEqual(soldOutAt, null);
  await cancelOrder(t, started.json.orderNumber, CUSTOMER_CANCEL_REASONS);
  assert.deepEqual(await ledgerOf(t, drop), { holding: 0, sold: 2 }, "the report stays true");
  assert.equal((await dropNow(t, drop)).soldOutAt, soldOutAt);
  // The units went back on the shelf, where the target sells as usual.
  assert.equal((await addTarget(t, { quantity: 2 })).status, 200);
});
