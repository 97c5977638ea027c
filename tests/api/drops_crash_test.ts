/**
 * The drops' server as a crash, a refusing KV and a bad client meet it: nothing answers 500,
 * nothing is left half written, and the drop's counts stay equal to what the orders say.
 */
import assert from "node:assert/strict";
import { sweepAtStart } from "../../server/queue.ts";
import { adminCookie, createTestApp, TEST_EPOCH, type TestApp } from "../helpers/test_app.ts";
import { payDemo, sessionIdOf, US_ADDRESS } from "../helpers/shop_fixtures.ts";
import { ledgerOf, placeFor, scheduleDrop, shopper } from "../helpers/drop_fixtures.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { COMPONENTS, switchKey } from "../../shared/bom.ts";
import { getOrder } from "../../server/orders/store.ts";
import type { Order } from "../../server/orders/order.ts";
import type { DropRecord } from "../../server/drops/record.ts";
import { storedJobs } from "../helpers/stored_jobs.ts";
import { DROP_SWITCH, OPENS_AT, scheduleTestDrop, storedDrop } from "../helpers/drop_room.ts";

const DAY = 24 * 60 * 60_000;

Deno.test("a drop opening months ahead: one stored opening job at the opening, kept one by every start", async () => {
  await using t = await createTestApp();
  const jobs = storedJobs(t.kv);
  // The owner may plan a year ahead; a stored job has no limit on how far (Deno KV's queue took
  // at most 30 days).
  const opensAt = TEST_EPOCH + 90 * DAY;
  const id = await scheduleTestDrop(t, { opensAt: new Date(opensAt).toISOString() });
  assert.equal((await storedDrop(t, id)).opensAt, opensAt);
  assert.deepEqual((await jobs.ofType("drop-opening")).map((j) => j.at), [opensAt]);
  // Every start looks for the drops' opening jobs: two starts leave it one job, not three.
  await sweepAtStart(t);
  await sweepAtStart(t);
  assert.deepEqual((await jobs.ofType("drop-opening")).map((j) => j.at), [opensAt]);
  // Nothing runs early: a day before, nothing is due.
  t.clock.set(opensAt - DAY);
  await jobs.runDue(t);
  assert.deepEqual((await jobs.ofType("drop-opening")).map((j) => j.at), [opensAt]);
  t.clock.set(opensAt);
  await jobs.runDue(t);
  assert.deepEqual(await jobs.ofType("drop-opening"), []);
});

/** Every live switch and part in plenty, so only the order's size limits what sells. */
async function stockEverything(t: TestApp) {
  for (const key of [...COMPONENTS, ...LIVE.map((s) => switchKey(s.id))]) {
    await t.writeStock(key, { stock: 10_000, reserved: 0, used: 0 });
  }
}

/** The seeded switches (none retired in a fresh shop). */
const LIVE = SWITCHES;

/**
 * Adds custom testers holding `ids` (20 a tester, the first with `ticket`) to a new cart, from
 * `client`, signed in with `headers` when given, the place joined from `joinedFrom` (by default the
 * client's own network).
 */
async function testersCart(
  t: TestApp,
  drop: DropRecord,
  ids: number[],
  client: string,
  { headers, joinedFrom = client }: { headers?: Record<string, string>; joinedFrom?: string } = {},
): Promise<string> {
  const tester = (switches: number[], extra: Record<string, unknown> = {}) => {
    const picked = [...switches];
    // Filled up with switches other than the drop's (LIVE[0]): only the first tester takes it.
    const filler = LIVE.slice(1).map((s) => s.id).filter((id) => !picked.includes(id));
    const size = picked.length <= 10 ? 10 : picked.length <= 15 ? 15 : 20;
    while (picked.length < size) picked.push(filler.shift()!);
    return t.request("/api/cart/add/tester", {
      method: "POST",
      client,
      headers,
      body: {
        name: "Custom Switch Tester",
        size,
        keycaps: "random",
        switches: picked.map((id) => ({ id })),
        ...extra,
      },
    });
  };
  // A cart first (its id binds the place), then the drop's switch with the place, then the rest.
  const made = await tester(ids.slice(1, 21));
  assert.equal(made.status, 200, made.text);
  const cartId = made.json.id;
  const ticket = await placeFor(t, drop, `cart:${cartId}`, 0, joinedFrom);
  const first = await tester(ids.slice(0, 20), { cartId, ticket });
  assert.equal(first.status, 200, first.text);
  for (let i = 20; i < ids.length; i += 20) {
    const more = await tester(ids.slice(i, i + 20), { cartId });
    assert.equal(more.status, 200, more.text);
  }
  return cartId;
}

/** A test app with every part in plenty and a drop of LIVE[0] of 100 units, 100 a person. */
async function sizeShop() {
  const t = await createTestApp({ env: { MAX_HELD_UNITS_PER_CLIENT: "1000" } });
  await stockEverything(t);
  const drop = await scheduleDrop(t, {
    target: { kind: "switch", id: LIVE[0].id },
    productIds: [],
    units: 100,
    perPersonLimit: 100,
  });
  return { t, drop, [Symbol.asyncDispose]: () => t[Symbol.asyncDispose]() };
}

/** Makes a promo code for every order of a size test (10% off, uses to spare). */
async function makePromo(t: TestApp, code: string): Promise<void> {
  const made = await t.request("/api/admin/promos", {
    method: "POST",
    headers: { Cookie: await adminCookie(t) },
    body: { code, percentOff: 10, maxUses: 1000, maxUsesPerEmail: 100 },
  });
  assert.equal(made.status, 201, made.text);
}

/** How one size test checks out and pays a cart of `n` switches. */
interface EdgeWalk {
  /** The switch counts, from a cart every write takes with room to spare to past the edge. */
  sizes: [number, number];
  withDrop: boolean;
  /** The first three parts of each cart's client address. */
  net: string;
  cart?: (n: number) => { headers?: Record<string, string>; joinedFrom?: string };
  checkout(cartId: string, client: string, n: number): Promise<TestResponse>;
  /** The refusal's sentence at the checkout. */
  refused: RegExp;
  pay(started: TestResponse, n: number): Promise<TestResponse>;
}

type TestResponse = Awaited<ReturnType<TestApp["request"]>>;

/**
 * Walks carts across the edge of the checkout's size limit: each is refused at the checkout with
 * a sentence and nothing of the drop held for it, or its payment is taken and recorded, never
 * charged and left. Both must happen. Answers the paid orders.
 */
async function walkTheEdge(t: TestApp, drop: DropRecord, walk: EdgeWalk): Promise<Order[]> {
  const paid: Order[] = [];
  let refused = 0;
  for (let n = walk.sizes[0]; n <= walk.sizes[1]; n++) {
    const client = `${walk.net}.${n}`;
    const others = LIVE.slice(1, walk.withDrop ? n : n + 1).map((s) => s.id);
    const ids = walk.withDrop ? [LIVE[0].id, ...others] : others;
    const { headers, joinedFrom = client } = walk.cart?.(n) ?? {};
    const cartId = await testersCart(t, drop, ids, client, { headers, joinedFrom });
    const before = await ledgerOf(t, drop);
    const started = await walk.checkout(cartId, client, n);
    if (started.status !== 200) {
      assert.equal(started.status, 400, started.text);
      assert.match(started.json.error, walk.refused);
      assert.deepEqual(await ledgerOf(t, drop), before);
      refused++;
      continue;
    }
    const pay = await walk.pay(started, n);
    assert.equal(
      pay.status,
      200,
      `${n} switches${
        walk.withDrop ? " with the drop's" : ""
      }: the payment was taken but not recorded: ${pay.text}`,
    );
    const order = await getOrder(t.kv, started.json.orderNumber);
    assert.equal(order.status, "PAYMENT_RECEIVED");
    paid.push(order);
  }
  assert.ok(
    paid.length > 0 && refused > 0,
    `paid ${paid.length}, refused ${refused}: the edge was crossed`,
  );
  return paid;
}

/** Pays an embedded checkout's payment intent with the demo card and `body`'s other fields. */
function confirmIntent(t: TestApp, started: TestResponse, body: Record<string, unknown> = {}) {
  return t.request(`/api/demo/payment-intents/${started.json.paymentIntentId}/confirm`, {
    method: "POST",
    body: { cardNumber: "4242424242424242", ...body },
  });
}

Deno.test("a drop checkout too big for its payment's write is refused at the checkout, never after the charge", async () => {
  await using shop = await sizeShop();
  const { t, drop } = shop;
  const paid = await walkTheEdge(t, drop, {
    sizes: [72, 84],
    withDrop: true,
    net: "198.51.100",
    checkout: (cartId, client) =>
      t.request(`/api/cart/${cartId}/checkout/us`, { method: "POST", client }),
    refused: /split it into two orders/,
    // A hosted checkout learns the email and address at payment: they are counted then.
    pay: (started, n) =>
      payDemo(t, sessionIdOf(started.json.url), {
        cardNumber: "4242424242424242",
        email: `buyer${n}@example.com`,
        address: { ...US_ADDRESS, street: `${n} Main St` },
      }),
  });
  assert.deepEqual(await ledgerOf(t, drop), { holding: 0, sold: paid.length });
});

Deno.test("a signed-in shopper whose place joined on another network, paying on the checkout page with another address: the largest drop checkout allowed is recorded", async () => {
  await using shop = await sizeShop();
  const { t, drop } = shop;
  const { headers } = await shopper(t, "ann@example.com");
  // Every person key at once: the account, the checkout's network and the one the place joined
  // from, the email, the address given at the checkout and the other one given when paying.
  const paid = await walkTheEdge(t, drop, {
    sizes: [78, 86],
    withDrop: true,
    net: "198.51.103",
    cart: (n) => ({ headers, joinedFrom: `203.0.113.${n}` }),
    checkout: (cartId, client) =>
      t.request("/api/orders/create", {
        method: "POST",
        client,
        headers,
        body: {
          cartId,
          email: "ann@example.com",
          customerName: "Ann Example",
          shippingAddress: US_ADDRESS,
        },
      }),
    refused: /split it into two orders/,
    pay: (started, n) =>
      confirmIntent(t, started, { address: { ...US_ADDRESS, street: `${n} Harbour Rd` } }),
  });
  assert.deepEqual(await ledgerOf(t, drop), { holding: 0, sold: paid.length });
});

Deno.test("an order with a promo code, with or without a drop's item, is refused at the checkout when its payment could not be recorded", async () => {
  await using shop = await sizeShop();
  const { t, drop } = shop;
  await makePromo(t, "TENOFF");
  for (const withDrop of [false, true]) {
    await walkTheEdge(t, drop, {
      sizes: [72, 87],
      withDrop,
      net: `198.51.${withDrop ? 101 : 102}`,
      checkout: (cartId, client, n) =>
        t.request("/api/orders/create", {
          method: "POST",
          client,
          body: {
            cartId,
            email: `promo${n}@example.com`,
            customerName: "Ann Example",
            shippingAddress: US_ADDRESS,
            promoCode: "TENOFF",
          },
        }),
      refused: /split it into two orders/,
      pay: (started) => confirmIntent(t, started),
    });
  }
});

Deno.test("a hosted checkout paid with a promo code typed on the payment page is recorded at the largest size the checkout allows", async () => {
  await using shop = await sizeShop();
  const { t, drop } = shop;
  await makePromo(t, "PAGECODE");
  for (const withDrop of [false, true]) {
    const paid = await walkTheEdge(t, drop, {
      sizes: [72, 87],
      withDrop,
      net: `198.51.${withDrop ? 104 : 105}`,
      checkout: (cartId, client) =>
        t.request(`/api/cart/${cartId}/checkout/us`, { method: "POST", client }),
      refused: /a payment page that takes promo codes/,
      // The code the cart never had, typed on the payment page: its use is counted at payment.
      pay: (started, n) =>
        payDemo(t, sessionIdOf(started.json.url), {
          cardNumber: "4242424242424242",
          email: `page${n}@example.com`,
          address: { ...US_ADDRESS, street: `${n} Page St` },
          promoCode: "PAGECODE",
        }),
    });
    for (const order of paid) assert.equal(order.promoCode, "PAGECODE");
  }
});

Deno.test("at the very millisecond a turn lapses, the room, the cart and the next shopper agree", async () => {
  await using t = await createTestApp();
  const id = await scheduleTestDrop(t, { units: 1, perPersonLimit: 1, holdMinutes: 2 });
  t.clock.set(OPENS_AT - 60_000);
  const join = async (client: string) => {
    const res = await t.request(`/api/drops/${id}/join`, { method: "POST", client });
    assert.equal(res.status, 200, res.text);
    return { client, ticket: res.json.ticket as string, cartId: res.json.cartId as string };
  };
  const poll = async (place: { client: string; ticket: string; cartId: string }) => {
    const res = await t.request(`/api/drops/${id}/tickets/${place.ticket}?cartId=${place.cartId}`, {
      client: place.client,
    });
    assert.equal(res.status, 200, res.text);
    return res.json;
  };
  const places = [await join("192.0.2.31"), await join("192.0.2.32")];
  t.clock.set(OPENS_AT);
  const answers = await Promise.all(places.map(poll));
  const first = places[answers.findIndex((a) => a.state === "admitted")];
  const second = places.find((p) => p !== first)!;
  // The first turn's last moment: two minutes after it was let in.
  t.clock.set(OPENS_AT + 2 * 60_000);
  assert.equal((await poll(first)).state, "expired", "the room says the turn lapsed");
  assert.equal((await poll(second)).state, "admitted", "and lets the next shopper in");
  await stockEverything(t);
  const switches = [DROP_SWITCH.id, ...LIVE.slice(1, 10).map((s) => s.id)].map((id) => ({ id }));
  const late = await t.request("/api/cart/add/tester", {
    method: "POST",
    client: first.client,
    body: {
      name: "Custom Switch Tester",
      size: 10,
      keycaps: "none",
      switches,
      cartId: first.cartId,
      ticket: first.ticket,
    },
  });
  assert.equal(late.status, 409, `the lapsed turn buys nothing: ${late.text}`);
  assert.match(late.json.error, /lapsed/);
});
