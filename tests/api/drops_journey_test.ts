/**
 * A drop from end to end through the shop's own routes, the room and the purchase together: the
 * owner schedules it, shoppers join, the opening lets in as many as the units allow, an admitted
 * shopper buys, a lapsed hold lets the next one in, and when the last unit is paid every place
 * still waiting is told it sold out.
 */
import assert from "node:assert/strict";
import { adminCookie, createTestApp, type TestApp } from "../helpers/test_app.ts";
import { STARTER, US_ADDRESS } from "../helpers/shop_fixtures.ts";
import { COMPONENTS, switchKey } from "../../shared/bom.ts";
import { sweepHolds } from "../../server/orders/expiry.ts";

const MINUTE = 60_000;

/** Plenty of every part of the Starter Pack, so only the drop limits what sells. */
async function stockUp(t: TestApp) {
  for (const key of [...COMPONENTS, ...STARTER.switchIds.map(switchKey)]) {
    await t.writeStock(key, { stock: 10_000, reserved: 0, used: 0 });
  }
}

/** Schedules a drop of the Starter Pack opening ten minutes ahead; answers its id and opening. */
async function scheduleStarter(
  t: TestApp,
  fields: { units: number; perPersonLimit: number; holdMinutes?: number },
): Promise<{ id: string; opensAt: number }> {
  const opensAt = t.clock.now() + 10 * MINUTE;
  const scheduled = await t.request("/api/admin/drops", {
    method: "POST",
    headers: { Cookie: await adminCookie(t) },
    body: {
      target: { kind: "pack", id: STARTER.id },
      opensAt: new Date(opensAt).toISOString(),
      ...fields,
    },
  });
  assert.equal(scheduled.status, 201, scheduled.text);
  return { id: scheduled.json.id, opensAt };
}

interface Place {
  client: string;
  ticket: string;
  cartId: string;
}

async function joinAs(t: TestApp, dropId: string, client: string): Promise<Place> {
  const res = await t.request(`/api/drops/${dropId}/join`, { method: "POST", client });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.state, "waiting");
  return { client, ticket: res.json.ticket, cartId: res.json.cartId };
}

async function poll(t: TestApp, dropId: string, place: Place) {
  const res = await t.request(
    `/api/drops/${dropId}/tickets/${place.ticket}?cartId=${place.cartId}`,
    { client: place.client },
  );
  assert.equal(res.status, 200, res.text);
  return res.json;
}

async function buy(t: TestApp, place: Place, street: string, email: string) {
  const added = await t.request(
    `/api/cart/add?itemId=${STARTER.id}&quantity=1&cartId=${place.cartId}&ticket=${place.ticket}`,
    { method: "POST", client: place.client },
  );
  assert.equal(added.status, 200, added.text);
  const order = await t.request("/api/orders/create", {
    method: "POST",
    client: place.client,
    body: {
      cartId: place.cartId,
      email,
      customerName: "A Shopper",
      shippingAddress: { ...US_ADDRESS, street },
    },
  });
  assert.equal(order.status, 200, order.text);
  return order.json as { orderNumber: string; paymentIntentId: string };
}

async function pay(t: TestApp, paymentIntentId: string) {
  const res = await t.request(`/api/demo/payment-intents/${paymentIntentId}/confirm`, {
    method: "POST",
    body: { cardNumber: "4242424242424242" },
  });
  assert.equal(res.status, 200, res.text);
}

Deno.test("a drop from scheduling to sold out: admitted in turn, a lapsed hold passes on, the rest told at once", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const owner = { Cookie: await adminCookie(t) };
  const { id, opensAt } = await scheduleStarter(t, { units: 2, perPersonLimit: 1, holdMinutes: 5 });

  // Before the room opens, the target cannot be bought at all.
  const early = await t.request(`/api/cart/add?itemId=${STARTER.id}`, {
    method: "POST",
    client: "192.0.2.50",
  });
  assert.equal(early.status, 409, early.text);

  t.clock.set(opensAt - MINUTE);
  const places: Place[] = [];
  for (let i = 1; i <= 4; i++) places.push(await joinAs(t, id, `192.0.2.${i}`));
  for (const place of places) assert.equal((await poll(t, id, place)).drawAtOpening, true);

  // The opening: as many let in as the units allow (limit 1, 2 units: two), the others in line.
  t.clock.set(opensAt + 1_000);
  const states: { state: string; position?: number }[] = [];
  for (const place of places) states.push(await poll(t, id, place));
  const admitted = places.filter((_, i) => states[i].state === "admitted");
  const waiting = places.filter((_, i) => states[i].state === "waiting");
  assert.equal(admitted.length, 2, JSON.stringify(states));
  assert.deepEqual(
    waiting.map((p) => states[places.indexOf(p)].position).sort(),
    [1, 2],
  );
  let view = await t.request(`/api/admin/drops/${id}`, { headers: owner });
  assert.equal(view.status, 200, view.text);
  assert.equal(view.json.waiting, 2);
  assert.equal(view.json.admitted, 2);

  // The first admitted buys and pays; the second holds and walks away.
  const paid = await buy(t, admitted[0], "1 Elm St", "first@example.com");
  await pay(t, paid.paymentIntentId);
  await buy(t, admitted[1], "2 Elm St", "second@example.com");
  view = await t.request(`/api/admin/drops/${id}`, { headers: owner });
  assert.equal(view.json.sold, 1);
  assert.equal(view.json.holding, 1);

  // Its hold lapses: the unit goes to the first in line at the room's next look.
  t.clock.advance(5 * MINUTE + 1_000);
  await sweepHolds(t);
  const next = waiting.find((p) => states[places.indexOf(p)].position === 1)!;
  const last = waiting.find((p) => p !== next)!;
  assert.equal((await poll(t, id, next)).state, "admitted");
  assert.equal((await poll(t, id, last)).state, "waiting");
  assert.equal((await poll(t, id, admitted[1])).state, "expired");

  // The lapsed place cannot come back for the unit it let go.
  const replay = await t.request(
    `/api/cart/add?itemId=${STARTER.id}&cartId=${admitted[1].cartId}&ticket=${admitted[1].ticket}`,
    { method: "POST", client: admitted[1].client },
  );
  assert.equal(replay.status, 409, replay.text);

  const lastSale = await buy(t, next, "3 Elm St", "third@example.com");
  await pay(t, lastSale.paymentIntentId);
  t.clock.advance(1_000);
  assert.equal((await poll(t, id, last)).state, "soldOut");
  view = await t.request(`/api/admin/drops/${id}`, { headers: owner });
  assert.equal(view.json.sold, 2);
  assert.equal(view.json.holding, 0);
  assert.ok(view.json.soldOutAt, "the report has the sell-out time");
  assert.equal(typeof view.json.secondsToSellOut, "number");
});

Deno.test("places of a person who bought the limit take no turn: the shopper behind them is let in at once", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const { id, opensAt } = await scheduleStarter(t, { units: 3, perPersonLimit: 1 });
  t.clock.set(opensAt - MINUTE);
  // One person at one door with three carts takes three places; an honest shopper arrives late.
  const hoard: Place[] = [];
  for (let i = 0; i < 3; i++) hoard.push(await joinAs(t, id, "192.0.2.9"));
  t.clock.set(opensAt + MINUTE);
  const honest = await joinAs(t, id, "192.0.2.77");

  // Three units, one each: the three hoarding places are let in first (they came first).
  for (const place of hoard) assert.equal((await poll(t, id, place)).state, "admitted");
  assert.deepEqual(await poll(t, id, honest), {
    ...(await poll(t, id, honest)),
    state: "waiting",
    position: 1,
  });
  // The person buys the limit through one place: the two others can buy nothing more, so they
  // stop taking room, and the honest shopper is let in at the room's next look.
  const bought = await buy(t, hoard[0], "9 Hoard Rd", "hoarder@example.com");
  await pay(t, bought.paymentIntentId);
  t.clock.advance(1_000);
  assert.equal((await poll(t, id, hoard[1])).state, "limitReached");
  assert.equal((await poll(t, id, hoard[2])).state, "limitReached");
  assert.equal((await poll(t, id, honest)).state, "admitted");
  // And the other places cannot buy through the gate either.
  const again = await t.request(
    `/api/cart/add?itemId=${STARTER.id}&cartId=${hoard[1].cartId}&ticket=${hoard[1].ticket}`,
    { method: "POST", client: hoard[1].client },
  );
  assert.equal(again.status, 409, again.text);
  assert.match(again.json.error, /per person/);
});

Deno.test("a pack drop whose parts other products used up lets in only what the stock can make, then tells the rest it sold out", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const { id, opensAt } = await scheduleStarter(t, { units: 5, perPersonLimit: 1 });
  t.clock.set(opensAt - MINUTE);
  const places: Place[] = [];
  for (let i = 1; i <= 4; i++) places.push(await joinAs(t, id, `192.0.2.${i}`));
  // Meanwhile the boxes every pack needs ran down to one (a custom tester may use them too).
  await t.writeStock("SMALL_BOX", { stock: 1, reserved: 0, used: 0 });
  t.clock.set(opensAt + 1_000);
  const states: string[] = [];
  for (const place of places) states.push((await poll(t, id, place)).state);
  // One can be made: one shopper is let in, not five units' worth of shoppers.
  assert.equal(states.filter((s) => s === "admitted").length, 1, states.join());
  const buyer = places[states.indexOf("admitted")];
  const order = await buy(t, buyer, "1 Box St", "box@example.com");
  await pay(t, order.paymentIntentId);
  t.clock.advance(1_000);
  // Nothing more can be made and nothing is held: everyone still waiting hears it at once.
  for (const place of places.filter((p) => p !== buyer)) {
    assert.equal((await poll(t, id, place)).state, "soldOut");
  }
});
