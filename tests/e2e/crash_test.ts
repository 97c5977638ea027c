/**
 * Crash suite (process level): shoppers, each from its own loopback address, check out and pay
 * while the server is killed with SIGKILL at a random moment of the burst, then it restarts on
 * the same KV file. Whatever was answered 200 must still be there, every payment taken (answered
 * or not) must end as a paid order or a refund, unpaid reservations must come back to stock after
 * their (short) expiry, and the stock arithmetic must hold exactly, never below zero.
 */
import assert from "node:assert/strict";
import { type ShopProcess, startShop, tempDir } from "../helpers/shop_process.ts";
import { STARTER } from "../helpers/shop_fixtures.ts";
import type { Order } from "../../server/orders/order.ts";
import { keys } from "../../server/kv/keys.ts";
import type { StockRecord } from "../../server/stock/record.ts";
import type { DemoPayment } from "../../server/payments/demo/provider.ts";
import { switchKey } from "../../shared/bom.ts";

const TRACKED = STARTER.switchIds[0];
/** Few enough that the shoppers sell it out, so refusals are exercised too. */
const TRACKED_STOCK = 40;
const BOX_STOCK = 500;
const OTHER_STOCK = 1000;
/** 0.1 minutes: a reservation lapses 6 s after checkout. */
const RESERVATION_MINUTES = "0.1";
const SHOPPERS = 30;
/** Most shopping rounds in all, so the load is bounded even if the kill comes late. */
const MAX_ROUNDS = 120;
/**
 * The kill comes once this many checkouts and payments were answered, with requests still in flight.
 * Waiting for payments too matters on a slow machine, where the first checkouts can all be answered
 * before any payment is.
 */
const KILL_AFTER_CHECKOUTS = 25;
const KILL_AFTER_PAYMENTS = 5;

/** What one shopper saw answered. */
interface Seen {
  /** Requests that got any HTTP answer (a refusal counts: the server is up). */
  answered: number;
  checkedOut: string[];
  paid: string[];
  /** Orders whose payment was sent, answered or not. */
  payAttempts: string[];
}

/**
 * One HTTP client per shopper, each from its own loopback address (127.0.B.1 to 127.0.B.254):
 * holds are limited per address, as for real shoppers.
 */
function shopperClients(block: number, count: number): Deno.HttpClient[] {
  return Array.from(
    { length: count },
    (_, i) => Deno.createHttpClient({ localAddress: `127.0.${block}.${i + 1}` }),
  );
}

async function call(
  shop: ShopProcess,
  path: string,
  init: { method?: string; body?: unknown; admin?: boolean; client?: Deno.HttpClient } = {},
  // deno-lint-ignore no-explicit-any
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  if (init.admin) headers.Authorization = `Bearer ${shop.adminPassword}`;
  // Typed apart from the call: the DOM lib's fetch overload has no `client` for a literal to name.
  const request: RequestInit & { client?: Deno.HttpClient } = {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    client: init.client,
  };
  const res = await fetch(`${shop.url}${path}`, request);
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : {} };
}

/** Every order, as the admin API lists them. */
async function listOrders(shop: ShopProcess): Promise<{ orderNumber: string; status: string }[]> {
  const res = await call(shop, "/api/admin/orders", { admin: true });
  assert.equal(res.status, 200);
  return res.json;
}

/** Sets the stock the arithmetic starts from, through the admin API. */
async function setStock(shop: ShopProcess): Promise<void> {
  for (const id of STARTER.switchIds) {
    const stock = id === TRACKED ? TRACKED_STOCK : OTHER_STOCK;
    const res = await call(shop, `/api/admin/inventory/switches/${id}`, {
      method: "PUT",
      body: { stock },
      admin: true,
    });
    assert.equal(res.status, 200, JSON.stringify(res.json));
  }
  const res = await call(shop, "/api/admin/inventory/components/SMALL_BOX", {
    method: "PUT",
    body: { stock: BOX_STOCK },
    admin: true,
  });
  assert.equal(res.status, 200, JSON.stringify(res.json));
}

/**
 * One shopper's round: add the Starter pack, check out, and pay on even rounds (half pay). Returns false
 * once the server stops answering (it was killed).
 */
async function shopOnce(
  shop: ShopProcess,
  round: number,
  seen: Seen,
  client: Deno.HttpClient,
): Promise<boolean> {
  try {
    const add = await call(shop, `/api/cart/add?itemId=${STARTER.id}`, { method: "POST", client });
    seen.answered++;
    // 409: sold out while reservations hold the rest; a correct answer under load.
    if (add.status !== 200) return true;
    const checkout = await call(shop, `/api/cart/${add.json.id}/checkout/us`, {
      method: "POST",
      client,
    });
    // 409 sold out, 429 this shopper already holds three unpaid checkouts: correct answers.
    if (checkout.status !== 200) return true;
    const orderNumber = checkout.json.orderNumber;
    seen.checkedOut.push(orderNumber);
    if (round % 2 === 1) return true; // leaves without paying
    const sessionId = checkout.json.url.replace("/demo-checkout/", "");
    seen.payAttempts.push(orderNumber);
    const pay = await call(shop, `/api/demo/checkout-sessions/${sessionId}/pay`, {
      method: "POST",
      body: { cardNumber: "4242424242424242" },
      client,
    });
    if (pay.status === 200) seen.paid.push(orderNumber);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs SHOPPERS concurrent shoppers, each from its own address in block `block`, until `stop()`
 * says so or the round budget is spent.
 */
async function load(
  shop: ShopProcess,
  seen: Seen,
  block: number,
  stop: () => boolean,
): Promise<void> {
  let round = 0;
  const clients = shopperClients(block, SHOPPERS);
  try {
    await Promise.all(clients.map(async (client) => {
      while (!stop() && round < MAX_ROUNDS) {
        if (!await shopOnce(shop, round++, seen, client)) return;
      }
    }));
  } finally {
    for (const client of clients) client.close();
  }
}

async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | null>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

Deno.test({
  name: "SIGKILL under load: answered orders survive, paid stay paid, unpaid stock comes back",
  async fn() {
    const env = { RESERVATION_MINUTES };
    // The test's own KV folder (removed at the end): both servers use it, then the test reads it.
    await using kvDir = await tempDir("shop-crash-kv-");
    const kvPath = `${kvDir.path}/shop.kv`;
    let shop = await startShop({ env, kvPath });
    const seen: Seen = { answered: 0, checkedOut: [], paid: [], payAttempts: [] };
    try {
      await setStock(shop);

      // Phase 1: load, and SIGKILL in the middle of it.
      let killed = false;
      const first = shop;
      const loading = load(first, seen, 1, () => killed);
      await waitFor(
        "checkouts and payments before the kill",
        20_000,
        () =>
          Promise.resolve(
            seen.checkedOut.length >= KILL_AFTER_CHECKOUTS &&
              seen.paid.length >= KILL_AFTER_PAYMENTS
              ? true
              : null,
          ),
      );
      // A random moment of the burst, so runs stop the server at different steps.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 300));
      await first.kill("SIGKILL");
      killed = true;
      await loading;
      assert.ok(seen.paid.length > 0, "some payments were answered before the kill");

      // Phase 2: restart on the same file, and more shoppers while reservations still hold.
      shop = await startShop({ env, kvPath });
      const answeredBefore = seen.answered;
      let rounds = 0;
      await load(shop, seen, 2, () => rounds++ >= SHOPPERS * 2);
      assert.ok(seen.answered > answeredBefore, "the restarted server answers shoppers");

      // Everything answered 200 is there, and every answered payment is recorded.
      const paidSet = new Set(seen.paid);
      for (const orderNumber of seen.checkedOut) {
        const res = await call(shop, `/api/orders/${orderNumber}`);
        assert.equal(res.status, 200, `order ${orderNumber} answered 200 but is missing`);
        const items = res.json.items.map((i: { name: string; quantity: number }) => [
          i.name,
          i.quantity,
        ]);
        assert.deepEqual(items, [[STARTER.title, 1]], `items of ${orderNumber}`);
        if (paidSet.has(orderNumber)) {
          assert.equal(res.json.status, "PAYMENT_RECEIVED", `paid order ${orderNumber}`);
        }
      }

      // Unpaid reservations lapse (start-up sweep or the delayed queue job), with no help.
      await waitFor("every unpaid reservation to expire", 20_000, async () => {
        const all = await listOrders(shop);
        return all.some((o) => o.status === "STARTED") ? null : all;
      });

      // The stock that came back sells again.
      const paidBefore = seen.paid.length;
      const [lastShopper] = shopperClients(3, 1);
      assert.ok(await shopOnce(shop, 0, seen, lastShopper));
      lastShopper.close();
      assert.equal(seen.paid.length, paidBefore + 1, "a shopper buys from the released stock");
      const orders = await listOrders(shop);
      for (const o of orders) {
        assert.ok(
          ["PAYMENT_RECEIVED", "EXPIRED", "CANCELLED"].includes(o.status),
          `order ${o.orderNumber} ended ${o.status}`,
        );
      }
      const listed = new Set(orders.map((o) => o.orderNumber));
      for (const orderNumber of seen.checkedOut) assert.ok(listed.has(orderNumber), orderNumber);

      // Stock arithmetic, exactly: what was sold is used, the rest is back on the shelf.
      const paidUnits = orders.filter((o) => o.status === "PAYMENT_RECEIVED").length;
      assert.ok(paidUnits <= TRACKED_STOCK, "never sold more than there was");
      const inventory = await call(shop, "/api/admin/inventory", { admin: true });
      type Counts = { stock: number; reserved: number; used: number };
      const switches = inventory.json.switches as (Counts & { id: number })[];
      const components = inventory.json.inventory as (Counts & { name: string })[];
      const tracked = switches.find((s) => s.id === TRACKED)!;
      const box = components.find((c) => c.name === "SMALL_BOX")!;
      assert.deepEqual(
        { stock: tracked.stock, reserved: tracked.reserved, used: tracked.used },
        { stock: TRACKED_STOCK - paidUnits, reserved: 0, used: paidUnits },
        "tracked switch",
      );
      assert.deepEqual(
        { stock: box.stock, reserved: box.reserved, used: box.used },
        { stock: BOX_STOCK - paidUnits, reserved: 0, used: paidUnits },
        "SMALL_BOX",
      );
      for (const s of switches) assert.ok(s.stock >= 0 && s.used >= 0, `switch ${s.id}`);
      for (const c of components) assert.ok(c.stock >= 0 && c.used >= 0, c.name);
    } finally {
      await shop.stop();
    }

    // With the server stopped, the file itself: no reservation is left held, every order's
    // reservation matches its status, and every payment the provider took (whether or not its
    // answer reached the shopper) ended as a paid order or a refund.
    const kv = await Deno.openKv(kvPath);
    try {
      let paid = 0;
      const orders = new Map<string, Order>();
      for await (const { value: order } of kv.list<Order>({ prefix: keys.orders() })) {
        orders.set(order.orderNumber, order);
        const expected = order.status === "PAYMENT_RECEIVED" ? "committed" : "released";
        assert.equal(order.reservation.state, expected, `${order.orderNumber} ${order.status}`);
        if (order.status === "PAYMENT_RECEIVED") paid++;
        if (order.status === "CANCELLED") {
          assert.equal(order.refund?.state, "refunded", `${order.orderNumber} refunded`);
        }
      }
      let taken = 0;
      for await (const { value: payment } of kv.list<DemoPayment>({ prefix: ["demo"] })) {
        const order = orders.get(payment.orderNumber)!;
        if (payment.status === "succeeded") {
          taken++;
          assert.equal(order.status, "PAYMENT_RECEIVED", `charged ${payment.id}: a paid order`);
        } else if (payment.status === "refunded") {
          taken++;
          assert.equal(order.status, "CANCELLED", `refunded ${payment.id}: a cancelled order`);
        } else {
          assert.notEqual(order.status, "PAYMENT_RECEIVED", `${payment.id} paid without a charge`);
        }
      }
      assert.ok(taken >= seen.paid.length, "every answered payment was taken");
      for (const orderNumber of seen.payAttempts) assert.ok(orders.has(orderNumber), orderNumber);
      const tracked = (await kv.get<StockRecord>(keys.stock(switchKey(TRACKED)))).value!;
      assert.deepEqual(tracked, { stock: TRACKED_STOCK - paid, reserved: 0, used: paid });
    } finally {
      kv.close();
    }
  },
});
