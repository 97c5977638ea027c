/**
 * The Sales tab's figures and the print day's pick list, checked against orders built here
 * through the shop's own API: every figure equals the orders to the cent.
 */
import assert from "node:assert/strict";
import { adminCookie, createTestApp, type TestApp } from "../helpers/test_app.ts";
import { DEMO_PAY_BODY, sessionIdOf, STARTER } from "../helpers/shop_fixtures.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { getOrder } from "../../server/orders/store.ts";
import type { Order } from "../../server/orders/order.ts";

type Line =
  | { product: number }
  | { tester: Record<string, unknown> };

let clients = 10;

/** One shopper (an address of their own) buys `lines`; answers the paid order. */
async function buy(
  t: TestApp,
  lines: Line[],
  options: { region?: "us" | "international"; promoCode?: string; pay?: boolean } = {},
): Promise<Order> {
  const client = `127.0.1.${clients++}`;
  let cartId: string | undefined;
  for (const line of lines) {
    const res = "product" in line
      ? await t.request(
        `/api/cart/add?itemId=${line.product}${cartId ? `&cartId=${cartId}` : ""}`,
        { method: "POST", client },
      )
      : await t.request("/api/cart/add/tester", {
        method: "POST",
        body: { ...line.tester, cartId },
        client,
      });
    assert.equal(res.status, 200, res.text);
    cartId = res.json.id;
  }
  const region = options.region ?? "us";
  const checkout = await t.request(`/api/cart/${cartId}/checkout/${region}`, {
    method: "POST",
    client,
  });
  assert.equal(checkout.status, 200, checkout.text);
  if (options.pay !== false) {
    const body = region === "us" ? DEMO_PAY_BODY : {
      ...DEMO_PAY_BODY,
      address: { street: "1 Rue de Rivoli", city: "Paris", zipCode: "75001", country: "FR" },
    };
    const paid = await t.request(
      `/api/demo/checkout-sessions/${sessionIdOf(checkout.json.url)}/pay`,
      {
        method: "POST",
        body: { ...body, promoCode: options.promoCode },
        client,
      },
    );
    assert.equal(paid.status, 200, paid.text);
  }
  return await getOrder(t.kv, checkout.json.orderNumber);
}

const ids = (n: number, from = 0) => SWITCHES.slice(from, from + n).map((s) => ({ id: s.id }));
const tester = (size: number, keycaps: string) => ({
  tester: { name: "Custom Switch Tester", size, keycaps, switches: ids(size, 30) },
});
const cube = (bodyColor: string) => ({
  tester: { name: "Custom Fidget Cube", keycaps: "white", switches: ids(6, 60), bodyColor },
});

async function get(t: TestApp, cookie: string, path: string) {
  return await t.request(path, { headers: { Cookie: cookie } });
}

Deno.test("sales: revenue as charged per UTC day, sales only, best sellers and promo use", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const dayOne = Date.UTC(2026, 10, 20, 23, 59, 0);
  t.clock.set(dayOne);
  const a = await buy(t, [{ product: STARTER.id }, { product: STARTER.id }]);
  const b = await buy(t, [tester(15, "transparent")], { promoCode: "LATEDELIVERY" });
  t.clock.set(dayOne + 2 * 60_000); // past midnight: the next UTC day
  const c = await buy(t, [cube("black"), cube("white")], { region: "international" });
  const cancelled = await buy(t, [{ product: STARTER.id }]);
  await t.request(`/api/admin/orders/${cancelled.orderNumber}/cancel`, {
    method: "POST",
    headers: { Cookie: await adminCookie(t) },
  });
  const unpaid = await buy(t, [{ product: STARTER.id }], { pay: false });
  assert.equal(unpaid.status, "STARTED");
  assert.equal(c.taxCents, 0, "no US sales tax on an export");

  const res = await get(t, await adminCookie(t), "/api/admin/sales?from=2026-11-20&to=2026-11-22");
  assert.equal(res.status, 200, res.text);
  const cents = (orders: Order[]) => orders.reduce((s, o) => s + o.totalCents, 0);
  assert.deepEqual(res.json.days, [
    { date: "2026-11-20", orders: 2, revenue: cents([a, b]) / 100 },
    { date: "2026-11-21", orders: 1, revenue: cents([c]) / 100 },
    { date: "2026-11-22", orders: 0, revenue: 0 },
  ]);
  assert.deepEqual(res.json.totals, {
    orders: 3,
    revenue: cents([a, b, c]) / 100,
    averageOrder: Math.round(cents([a, b, c]) / 3) / 100,
  });
  assert.deepEqual(res.json.bestSellers.packs, [{ name: STARTER.title, quantity: 2 }]);
  // Every switch that left the shelf for a sale, counted from the orders themselves.
  const sold = new Map<number, number>();
  for (const o of [a, b, c]) {
    for (const [key, n] of o.reservation.items) {
      if (key.startsWith("switch:")) {
        sold.set(Number(key.slice(7)), (sold.get(Number(key.slice(7))) ?? 0) + n);
      }
    }
  }
  const most = Math.max(...sold.values());
  const top = res.json.bestSellers.switches;
  assert.equal(top.length, Math.min(10, sold.size));
  assert.equal(top[0].quantity, most);
  for (const row of top) assert.equal(row.quantity, sold.get(row.id), row.name);
  assert.ok(
    top.every((r: { quantity: number }, i: number) => i === 0 || top[i - 1].quantity >= r.quantity),
  );
  assert.deepEqual(res.json.promoCodes, [
    { code: "LATEDELIVERY", orders: 1, discount: b.discountCents / 100 },
  ]);
  const mix = Object.fromEntries(
    res.json.mix.map((m: { kind: string; quantity: number }) => [m.kind, m.quantity]),
  );
  assert.deepEqual(mix, { pack: 2, custom: 1, cube: 2, item: 0 });

  const one = await get(t, cookie, "/api/admin/sales?from=2026-11-21&to=2026-11-21");
  assert.deepEqual(one.json.totals.orders, 1, "the day after midnight alone");
});

Deno.test("sales ranges are checked", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  for (
    const query of [
      "",
      "?from=2026-11-20",
      "?from=2026-11-22&to=2026-11-20",
      "?from=2025-01-01&to=2026-11-20",
      "?from=2026-13-01&to=2026-13-02",
    ]
  ) {
    const res = await get(t, cookie, `/api/admin/sales${query}`);
    assert.equal(res.status, 400, query);
    assert.equal(typeof res.json.error, "string");
  }
  assert.equal((await t.request("/api/admin/sales?from=2026-11-20&to=2026-11-20")).status, 401);
  assert.equal((await t.request("/api/admin/pick-list")).status, 401);
});

Deno.test("pick list: boxes by size, bodies by colour, keycaps by kind, switches by brand", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  await buy(t, [{ product: STARTER.id }]);
  await buy(t, [tester(20, "random"), tester(10, "transparent")]);
  const cubes = await buy(t, [cube("black"), cube("black"), cube("white")]);
  const shipped = await buy(t, [{ product: STARTER.id }]);
  await buy(t, [{ product: STARTER.id }], { pay: false });
  // A shipped order is packed already; a processing one is not.
  const h = { Cookie: cookie };
  for (const o of [shipped, cubes]) {
    await t.request(`/api/admin/orders/${o.orderNumber}/tracking`, {
      method: "POST",
      body: { trackingNumber: "9400 1" },
      headers: h,
    });
  }
  await t.request("/api/admin/orders/ship-processed", {
    method: "POST",
    body: { orderNumbers: [shipped.orderNumber] },
    headers: h,
  });

  const res = await get(t, cookie, "/api/admin/pick-list");
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.json.components, [
    { name: "SMALL_BOX", quantity: 2 },
    { name: "LARGE_BOX", quantity: 1 },
    { name: "TRANSPARENT_KEYCAP", quantity: 10 },
    { name: "RANDOM_KEYCAP", quantity: 20 },
    { name: "CUBE_BODY (black)", quantity: 2 },
    { name: "CUBE_BODY (white)", quantity: 1 },
  ]);
  const total = res.json.switches.reduce((n: number, s: { quantity: number }) => n + s.quantity, 0);
  assert.equal(total, 10 + 20 + 10 + 3 * 6, "every switch of the pack, testers and cubes");
  const names = res.json.switches.map((s: { name: string }) => s.name);
  const brands = res.json.switches.map((s: { id: number }) =>
    SWITCHES.find((x) => x.id === s.id)!.brand
  );
  assert.deepEqual(brands, [...brands].sort((x, y) => x.localeCompare(y)), "by brand");
  assert.ok(names.every((n: string, i: number) => n.startsWith(brands[i])));
});

Deno.test("ship a chosen set: only those ship, each told once, the rest reported", async () => {
  await using t = await createTestApp();
  const h = { Cookie: await adminCookie(t) };
  const [one, two, three] = [
    await buy(t, [{ product: STARTER.id }]),
    await buy(t, [{ product: STARTER.id }]),
    await buy(t, [{ product: STARTER.id }]),
  ];
  for (const o of [one, two, three]) {
    await t.request(`/api/admin/orders/${o.orderNumber}/tracking`, {
      method: "POST",
      body: { trackingNumber: "9400 7" },
      headers: h,
    });
  }
  const res = await t.request("/api/admin/orders/ship-processed", {
    method: "POST",
    body: { orderNumbers: [one.orderNumber, two.orderNumber, "STNOSUCHORDER"] },
    headers: h,
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.shippedCount, 2);
  assert.deepEqual(res.json.skipped, [{ orderNumber: "STNOSUCHORDER", reason: "No such order" }]);
  const again = await t.request("/api/admin/orders/ship-processed", {
    method: "POST",
    body: { orderNumbers: [one.orderNumber] },
    headers: h,
  });
  assert.deepEqual(again.json, {
    shippedCount: 0,
    skipped: [{ orderNumber: one.orderNumber, reason: "It is SHIPPED, not PROCESSING" }],
  });
  assert.equal((await getOrder(t.kv, three.orderNumber)).status, "PROCESSING", "not chosen");
  await t.deliverEmails();
  const shippedMails = t.mailer.sent.filter((e) => e.subject.includes("has shipped"));
  assert.deepEqual(
    shippedMails.map((e) => e.subject.match(/ST\w+/)![0]).sort(),
    [one.orderNumber, two.orderNumber].sort(),
  );
  const empty = await t.request("/api/admin/orders/ship-processed", {
    method: "POST",
    body: { orderNumbers: [] },
    headers: h,
  });
  assert.equal(empty.status, 400);
});
