/**
 * The shop as Deno Deploy runs it: several instances (isolates) over one KV store, each with its
 * own in-memory caches, group commit and lock turns (tests/helpers/multi_instance.ts). What one
 * instance does must hold for what the others answer: stock is sold once, a stock edit reaches
 * every instance within the trust window of the stock version, a payment is recorded once however
 * many instances see it, and a lapsed hold is released once however many instances expire it.
 */
import assert from "node:assert/strict";
import { createInstances, type Instance, type Instances } from "../helpers/multi_instance.ts";
import { DEFAULT_LATENCY } from "../helpers/remote_kv.ts";
import {
  newPackCart,
  payDemo,
  sessionIdOf,
  STARTER,
  startHostedCheckout,
  stockCounts,
} from "../helpers/shop_fixtures.ts";
import { adminCookie } from "../helpers/test_app.ts";
import { keys } from "../../server/kv/keys.ts";
import type { StockRecord } from "../../server/stock/record.ts";
import { TRUST_MS } from "../../server/kv/version.ts";
import { getOrder, listOrders } from "../../server/orders/store.ts";
import { listOutbox } from "../../server/email/outbox.ts";
import { recoverOrders } from "../../server/orders/recovery.ts";
import type { Order } from "../../server/orders/order.ts";
import type { DemoPayment } from "../../server/payments/demo/provider.ts";
import { switchKey } from "../../shared/bom.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { confirmAddress } from "../helpers/stock_alerts.ts";

const GOOD_CARD = "4242424242424242";
const SWITCH_ID = STARTER.switchIds[0];
const KEY = switchKey(SWITCH_ID);

function stockOf(h: Instances, key = KEY) {
  return stockCounts(h.kv, key);
}

/** The owner's shelf count of the Starter Pack's first switch, entered through instance `i`. */
async function setShelf(h: Instances, i: number, stock: number): Promise<void> {
  const cookie = await adminCookie(h.instances[i]);
  const res = await h.request(i, `/api/admin/inventory/switches/${SWITCH_ID}`, {
    method: "PUT",
    headers: { Cookie: cookie },
    body: { stock },
  });
  assert.equal(res.status, 200, res.text);
}

function checkout(instance: Instance, cartId: string, client: string) {
  return instance.request(`/api/cart/${cartId}/checkout/us`, { method: "POST", client });
}

/** Stock adds up: reserved is what held orders hold, and no count is below zero. */
async function assertStockAddsUp(h: Instances): Promise<void> {
  const held = new Map<string, number>();
  for (const order of await listOrders(h.kv)) {
    if (order.reservation.state !== "held") continue;
    for (const [k, n] of order.reservation.items) held.set(k, (held.get(k) ?? 0) + n);
  }
  for await (const e of h.kv.list<StockRecord>({ prefix: keys.stocks() })) {
    const key = String(e.key[1]);
    assert.equal(e.value.reserved, held.get(key) ?? 0, `reserved units of ${key}`);
    assert.ok(e.value.stock >= 0 && e.value.reserved >= 0 && e.value.used >= 0, key);
  }
}

/** How often the order entered `status`. */
function timesIn(order: Order, status: Order["status"]): number {
  return order.history.filter((h) => h.status === status).length;
}

async function demoPayment(h: Instances, sessionId: string): Promise<DemoPayment> {
  for await (const e of h.kv.list<DemoPayment>({ prefix: ["demo"] })) {
    if (e.value.id === sessionId) return e.value;
  }
  throw new Error(`no demo payment ${sessionId}`);
}

/** Confirmation emails queued for the order (each with its own outbox entry). */
async function confirmationsOf(h: Instances, orderNumber: string) {
  return (await listOutbox(h.kv)).filter((e) =>
    e.dedupeKey === `order-confirmation:${orderNumber}`
  );
}

/** Waits (a bounded while) for the queue to deliver an outbox entry. */
async function sent(h: Instances, id: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ((await listOutbox(h.kv)).find((e) => e.id === id)?.status === "sent") return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`email ${id} was not delivered`);
}

// Without delays the instances' KV calls interleave finely; with the remote store's delays their
// commits overlap for milliseconds, as on Deploy, and more of them lose races and retry.
for (const [where, latency] of [["", undefined], [" with KV delays", DEFAULT_LATENCY]] as const) {
  Deno.test(`20 shoppers on 3 instances race for the last 5 units${where}: 5 hold them, 15 are told`, async () => {
    await using h = await createInstances({ instances: 3, latency });
    await setShelf(h, 0, 5);
    const carts = await Promise.all(Array.from({ length: 20 }, () => newPackCart(h.next())));
    const results = await Promise.all(
      carts.map((cart, i) => checkout(h.instances[i % 3], cart, `127.0.0.${i + 2}`)),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    assert.equal(ok.length, 5, results.map((r) => `${r.status} ${r.text}`).join("\n"));
    for (const r of refused) {
      assert.equal(r.status, 409, r.text);
      assert.equal(r.json.error, "Some items are no longer in stock");
      assert.deepEqual(r.json.insufficientStock, { [STARTER.title]: 0 });
    }
    assert.deepEqual(await stockOf(h), { stock: 5, reserved: 5, used: 0 });
    const live = (await listOrders(h.kv)).filter((o) => o.status === "STARTED");
    assert.deepEqual(
      live.map((o) => o.orderNumber).sort(),
      ok.map((r) => r.json.orderNumber).sort(),
      "the orders answered 200 are the ones holding stock",
    );
    await assertStockAddsUp(h);
  });
}

Deno.test("a stock edit on one instance reaches the others' catalogue within TRUST_MS of their clock", async () => {
  // The owner's stock count: what availability of the switch and of every product made with it
  // shows.
  await using h = await createInstances({ instances: 2 });
  const available = async (i: number) => {
    const switches = await h.request(i, "/api/switches");
    const products = await h.request(i, "/api/products");
    const tester = await h.request(i, `/api/testers/${STARTER.id}/availability`);
    return {
      switch: switches.json.find((s: { id: number }) => s.id === SWITCH_ID).available,
      product: products.json.find((p: { id: number }) => p.id === STARTER.id).available,
      tester: tester.json.available,
    };
  };
  const yes = { switch: true, product: true, tester: true };
  const no = { switch: false, product: false, tester: false };
  assert.deepEqual(await available(1), yes, "instance 1 has read (and trusts) the stock version");

  await setShelf(h, 0, 0);
  assert.deepEqual(await available(0), no, "the instance that wrote sees its write at once");
  // Instance 1 may answer from what it read for up to TRUST_MS after that read (stale, by design:
  // it cannot learn of another isolate's write sooner). The window is measured on the app's
  // injected clock, so here it lapses only when the test moves the clock.
  h.clock.advance(TRUST_MS);
  assert.deepEqual(await available(1), no, "the other instance sees it once the window lapsed");

  // And back the other way, from the other instance.
  assert.deepEqual(await available(0), no);
  await setShelf(h, 1, 3);
  assert.deepEqual(await available(1), yes);
  h.clock.advance(TRUST_MS);
  assert.deepEqual(await available(0), yes);
});

Deno.test("a catalogue edit on one instance reaches the others within TRUST_MS of their clock", async () => {
  await using h = await createInstances({ instances: 2 });
  const cookie = await adminCookie(h.instances[0]);
  const switchOf = async (i: number) =>
    (await h.request(i, "/api/switches")).json.find((s: { id: number }) => s.id === SWITCH_ID);
  const packTitle = async (i: number) =>
    (await h.request(i, `/api/packs/${STARTER.slug}`)).json.title;
  const before = await switchOf(1);
  assert.equal(await packTitle(1), STARTER.title, "instance 1 has read (and trusts) the version");

  const edit = await h.request(0, `/api/admin/catalog/switches/${SWITCH_ID}`, {
    method: "PATCH",
    headers: { Cookie: cookie },
    body: { extraPrice: 1.25 },
  });
  assert.equal(edit.status, 200, edit.text);
  const title = await h.request(0, `/api/admin/catalog/packs/${STARTER.id}`, {
    method: "PATCH",
    headers: { Cookie: cookie },
    body: { title: "Starter Pack, Refreshed" },
  });
  assert.equal(title.status, 200, title.text);
  assert.equal((await switchOf(0)).extraPrice, 1.25, "the editing instance sees it at once");
  assert.equal(await packTitle(0), "Starter Pack, Refreshed");

  h.clock.advance(TRUST_MS);
  assert.equal((await switchOf(1)).extraPrice, 1.25, "the other sees it once the window lapsed");
  assert.notEqual(before.extraPrice, 1.25);
  assert.equal(await packTitle(1), "Starter Pack, Refreshed");

  // A switch no pack holds, retired on instance 1: gone from instance 0's list once the window
  // lapsed.
  const loose = SWITCHES.find((s) => !PACKS.some((p) => p.switchIds.includes(s.id)))!;
  const listed = async (i: number) =>
    (await h.request(i, "/api/switches")).json.some((s: { id: number }) => s.id === loose.id);
  assert.equal(await listed(0), true);
  const cookie1 = await adminCookie(h.instances[1]);
  const retire = await h.request(1, `/api/admin/catalog/switches/${loose.id}`, {
    method: "PATCH",
    headers: { Cookie: cookie1 },
    body: { retired: true },
  });
  assert.equal(retire.status, 200, retire.text);
  h.clock.advance(TRUST_MS);
  assert.equal(await listed(0), false);
});

Deno.test("a payment on one instance while another polls its session: paid once, one email", async () => {
  // Instance 0 stops after taking the money until instance 1's poll (the success page, which
  // asks the provider and records what it learns) has answered, then finishes its own handling.
  let pollDone!: () => void;
  const polled = new Promise<void>((resolve) => (pollDone = resolve));
  let charged!: () => void;
  const charge = new Promise<void>((resolve) => (charged = resolve));
  let armed = false;
  await using h = await createInstances({
    instances: 2,
    onStep: async (instance, step) => {
      if (armed && instance === 0 && step === "charge") {
        armed = false;
        charged();
        await polled;
      }
    },
  });
  const [a, b] = h.instances;
  const { orderNumber, sessionId } = await startHostedCheckout(a);
  const before = await stockOf(h);
  armed = true;
  const paying = payDemo(a, sessionId, { cardNumber: GOOD_CARD, email: "ann@example.com" });
  await charge;
  const poll = await b.request(`/api/orders/session/${sessionId}`);
  pollDone();
  const paid = await paying;
  assert.equal(poll.status, 200, poll.text);
  assert.equal(poll.json.status, "PAYMENT_RECEIVED", "the poll recorded the payment");
  assert.equal(paid.status, 200, paid.text);
  assert.equal(paid.json.status, "PAYMENT_RECEIVED");

  const order = await getOrder(h.kv, orderNumber);
  assert.equal(order.status, "PAYMENT_RECEIVED");
  assert.equal(timesIn(order, "PAYMENT_RECEIVED"), 1);
  assert.deepEqual(await stockOf(h), {
    stock: before.stock - 1,
    reserved: before.reserved - 1,
    used: before.used + 1,
  }, "the held unit left the shelf once");
  assert.equal((await demoPayment(h, sessionId)).status, "succeeded");
  const emails = await confirmationsOf(h, orderNumber);
  assert.equal(emails.length, 1, "one confirmation queued");

  // The queue delivers it to one instance; delivered again to each in turn, it is not resent.
  h.startQueue();
  await sent(h, emails[0].id);
  for (const instance of h.instances) await instance.runJob({ type: "email", id: emails[0].id });
  const confirmations = (i: (typeof h.instances)[number]) =>
    i.mailer.sent.filter((e) => e.subject === emails[0].email.subject).length;
  assert.deepEqual(h.instances.map(confirmations).sort(), [0, 1]);
  assert.equal((await listOrders(h.kv)).filter((o) => o.refund).length, 0, "nothing refunded");
  await assertStockAddsUp(h);
});

Deno.test("payments racing polls on 3 instances: every order paid once, stock moved once", async () => {
  await using h = await createInstances({ instances: 3 });
  const checkouts: { orderNumber: string; sessionId: string }[] = [];
  for (let i = 0; i < 8; i++) {
    const cart = await newPackCart(h.next());
    const res = await checkout(h.next(), cart, `127.0.0.${i + 2}`);
    assert.equal(res.status, 200, res.text);
    checkouts.push({ orderNumber: res.json.orderNumber, sessionId: sessionIdOf(res.json.url) });
  }
  const before = await stockOf(h);
  await Promise.all(checkouts.flatMap(({ sessionId }) => [
    payDemo(h.instances[0], sessionId, { cardNumber: GOOD_CARD, email: "bo@example.com" })
      .then((r) => assert.equal(r.status, 200, r.text)),
    // The success page polls on other instances before, during and after the payment.
    ...[1, 2, 1, 2].map((i) =>
      h.request(i, `/api/orders/session/${sessionId}`).then((r) => assert.equal(r.status, 200))
    ),
  ]));
  // The polls that came before the charge saw it unpaid; one more on each instance sees it paid.
  for (const { orderNumber, sessionId } of checkouts) {
    for (const i of [1, 2]) {
      const poll = await h.request(i, `/api/orders/session/${sessionId}`);
      assert.equal(poll.json.status, "PAYMENT_RECEIVED");
    }
    const order = await getOrder(h.kv, orderNumber);
    assert.equal(timesIn(order, "PAYMENT_RECEIVED"), 1, orderNumber);
    assert.equal((await confirmationsOf(h, orderNumber)).length, 1, orderNumber);
  }
  assert.deepEqual(await stockOf(h), {
    stock: before.stock - 8,
    reserved: before.reserved - 8,
    used: before.used + 8,
  });
  await assertStockAddsUp(h);
});

Deno.test("lapsed holds expired by every instance at once are released once each", async () => {
  await using h = await createInstances({ instances: 3 });
  const before = await stockOf(h);
  const checkouts: { orderNumber: string; sessionId: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await checkout(
      h.instances[i],
      await newPackCart(h.instances[i]),
      `127.0.0.${i + 2}`,
    );
    assert.equal(res.status, 200, res.text);
    checkouts.push({ orderNumber: res.json.orderNumber, sessionId: sessionIdOf(res.json.url) });
  }
  assert.equal((await stockOf(h)).reserved, before.reserved + 3);

  h.clock.advance(h.config.reservationMinutes * 60_000);
  // Every order's expiry job is delivered to every instance, each instance starting with a
  // different order (so different orders' releases race for the same stock entry), while every
  // instance's start-up sweep meets the same lapsed holds.
  await Promise.all([
    ...h.instances.map(async (instance, i) => {
      for (let k = 0; k < checkouts.length; k++) {
        const { orderNumber } = checkouts[(i + k) % checkouts.length];
        await instance.runJob({ type: "reservation-expiry", orderNumber });
      }
    }),
    ...h.instances.map((instance) => recoverOrders(instance.deps)),
  ]);
  for (const { orderNumber, sessionId } of checkouts) {
    const order = await getOrder(h.kv, orderNumber);
    assert.equal(order.status, "EXPIRED", orderNumber);
    assert.equal(order.reservation.state, "released");
    assert.equal(timesIn(order, "EXPIRED"), 1, orderNumber);
    assert.equal((await demoPayment(h, sessionId)).status, "canceled", "its payment stopped");
  }
  assert.deepEqual(await stockOf(h), before, "every held unit is back, once");
  await assertStockAddsUp(h);

  // The stopped payment cannot be taken on any instance, and the expiry stays done.
  const late = await payDemo(h.instances[1], checkouts[0].sessionId, { cardNumber: GOOD_CARD });
  assert.equal(late.status, 409, late.text);
  await h.runJobEverywhere({ type: "reservation-expiry", orderNumber: checkouts[0].orderNumber });
  assert.deepEqual(await stockOf(h), before);
});

// On Deploy every isolate's start runs deliverPending over the whole outbox (server/queue.ts), so
// a cold start while the queue delivers a fresh confirmation makes deliveries of one entry overlap.
Deno.test({
  name: "an email delivered by the queue while other instances start sends it once",
  fn: async () => {
    await using h = await createInstances({ instances: 3, latency: DEFAULT_LATENCY });
    const { orderNumber, sessionId } = await startHostedCheckout(h.instances[0]);
    const paid = await payDemo(h.instances[0], sessionId, {
      cardNumber: GOOD_CARD,
      email: "ann@example.com",
    });
    assert.equal(paid.status, 200, paid.text);
    const [email] = await confirmationsOf(h, orderNumber);
    await Promise.all([
      h.runJob(0, { type: "email", id: email.id }),
      h.instances[1].deliverEmails(),
      h.instances[2].deliverEmails(),
    ]);
    const sends = h.instances.reduce(
      (n, i) => n + i.mailer.sent.filter((e) => e.subject === email.email.subject).length,
      0,
    );
    assert.equal(sends, 1, `the confirmation was sent ${sends} times`);
  },
});

Deno.test("instances whose views of the stock differ tell a waiting shopper once per return", async () => {
  // Found by the simulation: each instance judged "back in stock" from its own view of the stock
  // version, so within its trust window an instance that had not seen a sell-out yet said "back"
  // after another said "sold out", and each "back" was an email.
  await using h = await createInstances({ instances: 2 });
  const { sendStockAlerts } = await import("../../server/stock/back_in_stock/alerts.ts");
  await setShelf(h, 0, 1);
  const held = await startHostedCheckout(h.instances[0]);
  const signUp = await h.request(0, "/api/stock-alerts", {
    method: "POST",
    body: { email: "wait@example.com", switchId: SWITCH_ID },
  });
  assert.equal(signUp.status, 200, signUp.text);
  await confirmAddress(h.instances[0], "wait@example.com");
  // The hold is given up: one unit is back. Instance 1 reads the stock now, then keeps that view.
  const cookie = await adminCookie(h.instances[0]);
  const cancelled = await h.request(0, `/api/admin/orders/${held.orderNumber}/cancel`, {
    method: "POST",
    headers: { Cookie: cookie },
  });
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal((await h.request(1, "/api/build-stock")).status, 200);
  await sendStockAlerts(h.instances[0].deps);
  // Sold out again on instance 0, within instance 1's trust window.
  await startHostedCheckout(h.instances[0]);
  for (let i = 0; i < 4; i++) await sendStockAlerts(h.instances[i % 2].deps);
  const told = (await listOutbox(h.kv)).filter((e) =>
    e.email.to === "wait@example.com" && /is back in stock$/.test(e.email.subject)
  );
  assert.equal(told.length, 1, told.map((e) => e.email.subject).join(", "));
});
