/**
 * Units held by unpaid checkouts are capped per client (MAX_HELD_UNITS_PER_CLIENT), not only the
 * number of checkouts: one address must not be able to hold most of a switch's shelf for the
 * length of a hold. Clients are real connections from distinct loopback addresses.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers/test_app.ts";
import { loopback, serveOnLoopback } from "../helpers/loopback.ts";
import { STARTER } from "../helpers/shop_fixtures.ts";
import { COMPONENTS, switchKey } from "../../shared/bom.ts";
import { BODY_COLORS, CUBE_KEYCAPS } from "../../shared/pricing.ts";
import { keys } from "../../server/kv/keys.ts";
import type { StockRecord } from "../../server/stock/record.ts";

/** The switch the attacker wants; every cube below holds it. */
const TARGET = STARTER.switchIds[0];
const OTHERS = STARTER.switchIds.slice(1);

/** The `i`-th distinct Fidget Cube holding TARGET (distinct configurations are distinct lines). */
function cube(i: number, quantity: number, cartId: string | null) {
  const rest = [0, 1, 2, 3, 4].map((k) => OTHERS[(i + k) % OTHERS.length]);
  return {
    cartId,
    name: "Custom Fidget Cube",
    size: 6,
    keycaps: CUBE_KEYCAPS[Math.floor(i / OTHERS.length) % CUBE_KEYCAPS.length],
    bodyColor: BODY_COLORS[Math.floor(i / (OTHERS.length * 2)) % BODY_COLORS.length],
    switches: [TARGET, ...rest].map((id) => ({ id, quantity: 1 })),
    quantity,
  };
}

/** 150 of the target on the shelf, plenty of everything else. */
async function stockUp(t: TestApp) {
  for (const key of [...COMPONENTS, ...OTHERS.map(switchKey)]) {
    await t.writeStock(key, { stock: 10_000, reserved: 0, used: 0 });
  }
  await t.writeStock(switchKey(TARGET), { stock: 150, reserved: 0, used: 0 });
}

async function reservedOfTarget(t: TestApp): Promise<number> {
  return (await t.kv.get<StockRecord>(keys.stock(switchKey(TARGET)))).value!.reserved;
}

/** A cart of `lines` distinct cubes, `quantity` each, built from client `n`. */
async function cartOf(
  shop: ReturnType<typeof serveOnLoopback>,
  n: number,
  lines: number,
  quantity: number,
  first = 0,
): Promise<string> {
  let cartId: string | null = null;
  for (let i = 0; i < lines; i++) {
    const res = await shop.request("/api/cart/add/tester", {
      from: loopback(0, n),
      method: "POST",
      body: cube(first + i, quantity, cartId),
    });
    assert.equal(res.status, 200, res.text);
    cartId = res.json.id;
  }
  return cartId!;
}

function checkout(shop: ReturnType<typeof serveOnLoopback>, n: number, cartId: string) {
  return shop.request(`/api/cart/${cartId}/checkout/us`, { from: loopback(0, n), method: "POST" });
}

Deno.test("one address checking out cart after cart holds at most 60 units; others still buy", async () => {
  await using t = await createTestApp({ env: { PUBLIC_URL: "http://shop.test" } });
  await stockUp(t);
  await using shop = serveOnLoopback(t.app);
  // The attack: carts of 30 cubes each (three lines of 10), checked out one after another.
  const answers = [];
  for (let c = 0; c < 4; c++) {
    answers.push(await checkout(shop, 7, await cartOf(shop, 7, 3, 10, c * 3)));
  }
  assert.deepEqual(answers.map((a) => a.status), [200, 200, 429, 429]);
  assert.match(answers[2].json.error, /60 items/);
  assert.match(answers[2].json.error, /Pay for one of your checkouts|wait until/);
  // Until the first of the attacker's holds lapses (30 minutes).
  assert.equal(answers[2].headers.get("Retry-After"), "1800");
  assert.equal(await reservedOfTarget(t), 60, "the attacker holds 60 of 150");

  // A shopper at another address buys as usual.
  const other = await checkout(shop, 8, await cartOf(shop, 8, 1, 2));
  assert.equal(other.status, 200, other.text);
  assert.equal(await reservedOfTarget(t), 62);

  // Holds that lapse give the allowance back.
  t.clock.advance(31 * 60_000);
  const later = await checkout(shop, 7, await cartOf(shop, 7, 3, 10, 20));
  assert.equal(later.status, 200, later.text);
});

Deno.test("one cart bigger than the cap is refused with what to do; checking out again replaces", async () => {
  await using t = await createTestApp({ env: { PUBLIC_URL: "http://shop.test" } });
  await stockUp(t);
  await using shop = serveOnLoopback(t.app);
  const big = await cartOf(shop, 9, 7, 10);
  const refused = await checkout(shop, 9, big);
  assert.equal(refused.status, 409, refused.text);
  assert.match(refused.json.error, /at most 60 items/);
  assert.match(refused.json.error, /70/);
  assert.equal(await reservedOfTarget(t), 0, "nothing held by the refused checkout");

  // 60 in one cart is fine, and checking the same cart out again replaces its hold.
  const fits = await cartOf(shop, 9, 6, 10, 7);
  assert.equal((await checkout(shop, 9, fits)).status, 200);
  assert.equal((await checkout(shop, 9, fits)).status, 200, "a replaced hold does not count twice");
  assert.equal(await reservedOfTarget(t), 60);
});

Deno.test("parallel checkouts from one address cannot pass the unit cap together", async () => {
  await using t = await createTestApp({
    env: { PUBLIC_URL: "http://shop.test", MAX_HOLDS_PER_CLIENT: "10" },
  });
  await stockUp(t);
  await using shop = serveOnLoopback(t.app);
  const carts = [];
  for (let c = 0; c < 6; c++) carts.push(await cartOf(shop, 11, 2, 10, c * 2));
  const answers = await Promise.all(carts.map((id) => checkout(shop, 11, id)));
  const statuses = answers.map((a) => a.status).sort();
  assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429], JSON.stringify(statuses));
  assert.equal(await reservedOfTarget(t), 60);
});

Deno.test("MAX_HELD_UNITS_PER_CLIENT sets the cap", async () => {
  await using t = await createTestApp({
    env: { PUBLIC_URL: "http://shop.test", MAX_HELD_UNITS_PER_CLIENT: "5" },
  });
  await stockUp(t);
  await using shop = serveOnLoopback(t.app);
  assert.equal((await checkout(shop, 12, await cartOf(shop, 12, 1, 3))).status, 200);
  const over = await checkout(shop, 12, await cartOf(shop, 12, 1, 3, 1));
  assert.equal(over.status, 429);
  assert.match(over.json.error, /5 items/);
});

Deno.test("one cart line holds at most 10 of a thing, by add or by quantity change", async () => {
  await using t = await createTestApp({ env: { PUBLIC_URL: "http://shop.test" } });
  await stockUp(t);
  await using shop = serveOnLoopback(t.app);
  const eleven = await shop.request("/api/cart/add/tester", {
    from: loopback(0, 13),
    method: "POST",
    body: cube(0, 11, null),
  });
  assert.equal(eleven.status, 400);
  assert.match(eleven.json.error, /1 to 10/);
  const pack = await shop.request(`/api/cart/add?itemId=${STARTER.id}&quantity=11`, {
    from: loopback(0, 13),
    method: "POST",
  });
  assert.equal(pack.status, 400);
  const cartId = await cartOf(shop, 13, 1, 10);
  const more = await shop.request("/api/cart/add/tester", {
    from: loopback(0, 13),
    method: "POST",
    body: cube(0, 1, cartId),
  });
  assert.equal(more.status, 400);
  assert.match(more.json.error, /at most 10 of one item/);
  const lineId =
    (await shop.request(`/api/cart/${cartId}`, { from: loopback(0, 13) })).json.items[0].item.id;
  const put = await shop.request(`/api/cart/${cartId}/items/${lineId}?quantity=11`, {
    from: loopback(0, 13),
    method: "PUT",
  });
  assert.equal(put.status, 400);
  assert.equal(
    (await shop.request(`/api/cart/${cartId}`, { from: loopback(0, 13) })).json.items[0].quantity,
    10,
  );
});
