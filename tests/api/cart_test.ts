import assert from "node:assert/strict";
import { switchKey } from "../../shared/bom.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import {
  cubeCents,
  customTesterCents,
  packCents,
  TESTER_SIZES,
  type TesterKeycaps,
  type TesterSize,
  toDollars,
} from "../../shared/pricing.ts";
import { CART_TTL_MS } from "../../server/cart/store.ts";
import { MAX_CART_LINES } from "../../server/cart/rules.ts";
import { addToCart } from "../../server/cart/edits.ts";
import { MAX_LINE_QUANTITY } from "../../shared/policy.ts";
import { keys } from "../../server/kv/keys.ts";
import { commitStockChange } from "../../server/kv/version.ts";
import { createTestApp, setStock, type TestApp } from "../helpers/test_app.ts";
type Res = Awaited<ReturnType<TestApp["request"]>>;
// deno-lint-ignore no-explicit-any
type Json = any;

const DAY_MS = 24 * 60 * 60 * 1000;
const byId = new Map(SWITCHES.map((s) => [s.id, s]));
const extraOf = (id: number) => byId.get(id)!.extraPriceCents;

/**
 * Twenty well-stocked switches whose extra prices are negative, positive and zero, so every priced
 * configuration below exercises all three.
 */
const stocked = SWITCHES.filter((s) => s.initialStock >= 40);
const PICK: number[] = [
  ...stocked.filter((s) => s.extraPriceCents < 0).slice(0, 3),
  ...stocked.filter((s) => s.extraPriceCents > 0).slice(0, 7),
  ...stocked.filter((s) => s.extraPriceCents === 0).slice(0, 10),
].map((s) => s.id);
/** First n switches of PICK, interleaved so even 6 or 10 include every kind of extra. */
const ORDERED = [0, 3, 10, 1, 4, 11, 2, 5, 12, 6, 13, 7, 14, 8, 15, 9, 16, 17, 18, 19].map((i) =>
  PICK[i]
);
const pick = (n: number) => ORDERED.slice(0, n);

const SOLD_OUT = SWITCHES.find((s) => s.initialStock === 0)!;
const AESTHETIC = PACKS.find((p) => p.slug === "aesthetic")!;

/** Asserts a 4xx answer is JSON with a non-empty error a person can act on. */
function assertError(res: Res, status: number, pattern?: RegExp): string {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${res.text}`);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(typeof res.json?.error, "string", res.text);
  assert.ok(res.json.error.trim().length > 5, `unhelpful error: ${res.json.error}`);
  assert.doesNotMatch(res.json.error, /undefined|\[object|Error:|ZodError|at \w+ \(/);
  if (pattern) assert.match(res.json.error, pattern);
  return res.json.error;
}

function addProduct(
  t: TestApp,
  itemId: number | string,
  quantity?: number | string,
  cartId?: string,
) {
  const query = new URLSearchParams({ itemId: String(itemId) });
  if (quantity !== undefined) query.set("quantity", String(quantity));
  if (cartId !== undefined) query.set("cartId", cartId);
  return t.request(`/api/cart/add?${query}`, { method: "POST" });
}

function testerBody(
  size: TesterSize,
  keycaps: TesterKeycaps,
  switchIds = pick(size),
  extra: Record<string, unknown> = {},
) {
  return {
    cartId: null,
    name: "Custom Switch Tester",
    size,
    keycaps,
    switches: switchIds.map((id) => ({ id, quantity: 1 })),
    quantity: 1,
    bodyColor: "white",
    ...extra,
  };
}

function cubeBody(switchIds = pick(6), extra: Record<string, unknown> = {}) {
  return {
    cartId: null,
    name: "Custom Fidget Cube",
    size: 6,
    keycaps: "white",
    bodyColor: "black",
    switches: switchIds.map((id) => ({ id, quantity: 1 })),
    quantity: 1,
    ...extra,
  };
}

function addTester(t: TestApp, body: unknown) {
  return t.request("/api/cart/add/tester", { method: "POST", body });
}

function getCart(t: TestApp, cartId: string) {
  return t.request(`/api/cart/${cartId}`);
}

function putQuantity(t: TestApp, cartId: string, lineId: string, quantity: number | string) {
  return t.request(`/api/cart/${cartId}/items/${lineId}?quantity=${quantity}`, { method: "PUT" });
}

function deleteLine(t: TestApp, cartId: string, lineId: string) {
  return t.request(`/api/cart/${cartId}/items/${lineId}`, { method: "DELETE" });
}

/** The cart's invariants: line prices x quantities add up to the subtotal, counts match. */
function assertCartConsistent(cart: Json) {
  assert.equal(typeof cart.id, "string");
  assert.ok(Array.isArray(cart.items));
  let sum = 0;
  let count = 0;
  for (const line of cart.items) {
    assert.ok(Number.isInteger(line.quantity) && line.quantity >= 1);
    assert.ok(Number.isInteger(line.item.priceCents));
    assert.equal(line.item.price, toDollars(line.item.priceCents));
    sum += line.item.priceCents * line.quantity;
    count += line.quantity;
  }
  assert.equal(cart.subtotalCents, sum);
  assert.equal(cart.subtotal, toDollars(sum));
  assert.equal(cart.itemCount, count);
  assert.equal(cart.lineCount, cart.items.length);
}

/** The cart part of an add answer (everything but the toast message). */
function withoutMessage(res: Json) {
  const { message: _, ...cart } = res;
  return cart;
}

Deno.test("test data: picked switches are in stock with negative, positive and zero extras", () => {
  assert.equal(new Set(PICK).size, 20);
  for (const n of [6, 10]) {
    const extras = pick(n).map(extraOf);
    assert.ok(extras.some((e) => e < 0) && extras.some((e) => e > 0) && extras.includes(0));
  }
});

// ---------------------------------------------------------------------------------------------
// Simple adds

Deno.test("POST /api/cart/add without a cart id creates a cart", async () => {
  await using t = await createTestApp();
  const res = await addProduct(t, 384, 1);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.message, "Item added to cart");
  assert.match(res.json.id, /^[A-Za-z0-9_-]{8,64}$/);
  assert.equal(res.json.items.length, 1);
  const [line] = res.json.items;
  assert.equal(line.quantity, 1);
  assert.equal(line.item.id, "384");
  assert.equal(line.item.name, "Starter Pack");
  assert.equal(line.item.price, 9.99);
  assert.equal(line.item.priceCents, packCents(false));
  assert.equal(typeof line.item.image, "string");
  assertCartConsistent(res.json);

  const again = await getCart(t, res.json.id);
  assert.equal(again.status, 200);
  assert.deepEqual(again.json, withoutMessage(res.json));
});

Deno.test("POST /api/cart/add without quantity adds one, and an empty cartId starts a cart", async () => {
  await using t = await createTestApp();
  const res = await t.request("/api/cart/add?itemId=1&cartId=", { method: "POST" });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.items[0].quantity, 1);
});

Deno.test("adding the same product again with the cart id increments its quantity", async () => {
  await using t = await createTestApp();
  const first = await addProduct(t, 380, 2);
  const cartId = first.json.id;
  const second = await addProduct(t, 380, 3, cartId);
  assert.equal(second.status, 200);
  assert.equal(second.json.id, cartId);
  assert.equal(second.json.items.length, 1);
  assert.equal(second.json.items[0].quantity, 5);
  assert.equal(second.json.subtotalCents, 5 * 999);
  assert.equal(second.json.subtotal, 49.95);
  assertCartConsistent(second.json);
});

Deno.test("packs with keycaps, the layout tester and the cube case are priced from the catalogue", async () => {
  await using t = await createTestApp();
  const { json: c1 } = await addProduct(t, 385);
  const cartId = c1.id;
  await addProduct(t, 1, 2, cartId);
  const { json: cart } = await addProduct(t, 2, 1, cartId);
  const byLine = new Map(cart.items.map((l: Json) => [l.item.id, l]));
  const pack: Json = byLine.get("385");
  const layout: Json = byLine.get("1");
  const cubeCase: Json = byLine.get("2");
  assert.equal(pack.item.price, 11.99);
  assert.equal(pack.item.priceCents, packCents(true));
  assert.equal(pack.item.keycaps, "transparent");
  assert.equal(layout.item.name, "Layout Tester");
  assert.equal(layout.item.price, 7.99);
  assert.equal(layout.quantity, 2);
  assert.equal(cubeCase.item.name, "Fidget Cube Case");
  assert.equal(cubeCase.item.price, 3.99);
  assert.equal(cart.subtotalCents, 1199 + 2 * 799 + 399);
  assert.equal(cart.itemCount, 4);
  assert.equal(cart.lineCount, 3);
  assertCartConsistent(cart);
});

Deno.test("an edited catalogue price shows in the cart at once", async () => {
  await using t = await createTestApp();
  const { json } = await addProduct(t, 1);
  const entry = await t.kv.get<Json>(keys.product(1));
  // As every catalogue writer does: with the stock version, so cached catalogue views rebuild.
  const edit = t.kv.atomic().set(keys.product(1), { ...entry.value, priceCents: 849 });
  assert.ok(await commitStockChange(t.kv, edit, t.clock.now()));
  const res = await getCart(t, json.id);
  assert.equal(res.json.items[0].item.price, 8.49);
  assert.equal(res.json.subtotalCents, 849);
});

// ---------------------------------------------------------------------------------------------
// Custom testers and cubes

Deno.test("custom testers of every size, keycaps none and transparent, are priced exactly", async () => {
  await using t = await createTestApp();
  for (const size of TESTER_SIZES) {
    for (const keycaps of ["none", "transparent"] as const) {
      const ids = pick(size);
      const res = await addTester(t, testerBody(size, keycaps, ids));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.message, "Custom Switch Tester added to cart");
      assert.equal(typeof res.json.id, "string");
      const expected = customTesterCents(size, keycaps, ids.map(extraOf));
      const [line] = res.json.items;
      assert.equal(line.quantity, 1);
      assert.equal(line.item.name, "Custom Switch Tester");
      assert.equal(line.item.priceCents, expected, `${size}/${keycaps}`);
      assert.equal(line.item.price, toDollars(expected), `${size}/${keycaps}`);
      assert.equal(line.item.size, size);
      assert.equal(line.item.keycaps, keycaps);
      assert.equal(line.item.bodyColor, "white");
      assert.equal(typeof line.item.id, "string");
      assert.deepEqual(line.item.switches.map((s: Json) => s.id), ids);
      for (const s of line.item.switches) {
        assert.equal(s.quantity, 1);
        assert.equal(s.name, byId.get(s.id)!.name);
      }
      assert.equal(res.json.subtotalCents, expected);
    }
  }
});

Deno.test("random keycaps are priced at $0.50 a switch and accepted while in stock", async () => {
  await using t = await createTestApp();
  const ids = pick(15);
  const res = await addTester(t, testerBody(15, "random", ids));
  assert.equal(res.status, 200, res.text);
  assert.equal(
    res.json.items[0].item.priceCents,
    customTesterCents(15, "random", ids.map(extraOf)),
  );
  await setStock(t, "RANDOM_KEYCAP", 14);
  const refused = await addTester(t, testerBody(20, "random"));
  assertError(refused, 409, /Only 14 random keycaps are left, fewer than the 20 this tester needs/);
});

Deno.test("a fidget cube is priced as cubeCents, with its keycaps and body colour", async () => {
  await using t = await createTestApp();
  const ids = pick(6);
  const res = await addTester(t, cubeBody(ids, { keycaps: "pastel" }));
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.message, "Custom Fidget Cube added to cart");
  const [line] = res.json.items;
  assert.equal(line.item.name, "Custom Fidget Cube");
  assert.equal(line.item.priceCents, cubeCents(ids.map(extraOf)));
  assert.equal(line.item.price, toDollars(cubeCents(ids.map(extraOf))));
  assert.equal(line.item.size, 6);
  assert.equal(line.item.keycaps, "pastel");
  assert.equal(line.item.bodyColor, "black");
  assert.deepEqual(line.item.switches.map((s: Json) => s.id), ids);
  // A cube without a size field is still a cube of six.
  const { size: _, ...noSize } = cubeBody(ids, { keycaps: "white", cartId: res.json.id });
  const second = await addTester(t, noSize);
  assert.equal(second.status, 200, second.text);
  assert.equal(second.json.items.length, 2);
  assertCartConsistent(second.json);
});

Deno.test("the body colour defaults to white when absent or null", async () => {
  await using t = await createTestApp();
  const { bodyColor: _, ...tester } = testerBody(10, "none");
  const a = await addTester(t, tester);
  assert.equal(a.status, 200, a.text);
  assert.equal(a.json.items[0].item.bodyColor, "white");
  const b = await addTester(t, cubeBody(pick(6), { bodyColor: null }));
  assert.equal(b.status, 200, b.text);
  assert.equal(b.json.items[0].item.bodyColor, "white");
});

Deno.test("a price sent by the browser is ignored", async () => {
  await using t = await createTestApp();
  const ids = pick(10);
  const res = await addTester(
    t,
    testerBody(10, "transparent", ids, {
      price: 0.01,
      priceCents: 1,
      total: 0,
      switches: ids.map((id) => ({ id, quantity: 1, extraPrice: -100 })),
    }),
  );
  assert.equal(res.status, 200, res.text);
  const expected = customTesterCents(10, "transparent", ids.map(extraOf));
  assert.equal(res.json.items[0].item.priceCents, expected);
  assert.equal(res.json.subtotalCents, expected);
  const cube = await addTester(t, cubeBody(pick(6), { price: 0, cartId: res.json.id }));
  assert.equal(cube.json.items[1].item.priceCents, cubeCents(pick(6).map(extraOf)));
  const simple = await t.request(`/api/cart/add?itemId=384&price=0.01&cartId=${res.json.id}`, {
    method: "POST",
  });
  assert.equal(simple.status, 200);
  assert.equal(simple.json.items[2].item.priceCents, 999);
});

Deno.test("identical configurations merge into one line, in any switch order", async () => {
  await using t = await createTestApp();
  const ids = pick(10);
  const first = await addTester(t, testerBody(10, "transparent", ids));
  const cartId = first.json.id;
  const second = await addTester(
    t,
    testerBody(10, "transparent", [...ids].reverse(), { cartId, quantity: 2 }),
  );
  assert.equal(second.status, 200, second.text);
  assert.equal(second.json.items.length, 1);
  assert.equal(second.json.items[0].quantity, 3);
  assert.equal(second.json.items[0].item.id, first.json.items[0].item.id);
  const cube1 = await addTester(t, cubeBody(pick(6), { cartId }));
  const cube2 = await addTester(t, cubeBody([...pick(6)].reverse(), { cartId }));
  assert.equal(cube2.json.items.length, 2);
  assert.equal(cube2.json.items[1].quantity, 2);
  assert.equal(cube1.json.items[1].item.id, cube2.json.items[1].item.id);
  assertCartConsistent(cube2.json);
});

Deno.test("different configurations make different lines", async () => {
  await using t = await createTestApp();
  const ids = pick(10);
  const { json } = await addTester(t, testerBody(10, "none", ids));
  const cartId = json.id;
  const variants = [
    testerBody(10, "transparent", ids, { cartId }),
    testerBody(10, "none", ids, { cartId, bodyColor: "black" }),
    testerBody(10, "none", [...ids.slice(0, 9), ORDERED[10]], { cartId }),
    testerBody(15, "none", pick(15), { cartId }),
    cubeBody(pick(6), { cartId }),
    cubeBody(pick(6), { cartId, keycaps: "pastel" }),
    cubeBody(pick(6), { cartId, bodyColor: "white" }),
  ];
  let cart: Json = json;
  for (const body of variants) {
    const res = await addTester(t, body);
    assert.equal(res.status, 200, res.text);
    cart = res.json;
  }
  assert.equal(cart.items.length, 1 + variants.length);
  assert.equal(new Set(cart.items.map((l: Json) => l.item.id)).size, cart.items.length);
  assertCartConsistent(cart);
});

// ---------------------------------------------------------------------------------------------
// GET, PUT and DELETE

Deno.test("GET /api/cart/{id} answers the same priced cart as the last change", async () => {
  await using t = await createTestApp();
  const { json: a } = await addProduct(t, 384);
  await addTester(t, testerBody(20, "transparent", pick(20), { cartId: a.id }));
  const last = await addTester(t, cubeBody(pick(6), { cartId: a.id, quantity: 3 }));
  const res = await getCart(t, a.id);
  assert.equal(res.status, 200);
  assert.deepEqual(res.json, withoutMessage(last.json));
  assertCartConsistent(res.json);
  assert.equal(
    res.json.subtotalCents,
    999 + customTesterCents(20, "transparent", pick(20).map(extraOf)) +
      3 * cubeCents(pick(6).map(extraOf)),
  );
});

Deno.test("PUT changes a line's quantity and answers the full cart", async () => {
  await using t = await createTestApp();
  const { json } = await addProduct(t, 384);
  const cartId = json.id;
  const { json: withTester } = await addTester(t, testerBody(10, "none", pick(10), { cartId }));
  const testerLine = withTester.items[1].item.id;
  const res = await putQuantity(t, cartId, testerLine, 4);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.id, cartId);
  assert.equal(res.json.items.length, 2);
  assert.equal(res.json.items[0].quantity, 1);
  assert.equal(res.json.items[1].quantity, 4);
  assert.equal(
    res.json.subtotalCents,
    999 + 4 * customTesterCents(10, "none", pick(10).map(extraOf)),
  );
  assertCartConsistent(res.json);
  const down = await putQuantity(t, cartId, "384", 2);
  assert.equal(down.json.items[0].quantity, 2);
  assert.deepEqual((await getCart(t, cartId)).json, down.json);
});

Deno.test("PUT with quantity 0 or less removes the line", async () => {
  await using t = await createTestApp();
  const { json } = await addProduct(t, 384);
  const cartId = json.id;
  await addProduct(t, 1, 1, cartId);
  await addProduct(t, 2, 1, cartId);
  const zero = await putQuantity(t, cartId, "384", 0);
  assert.equal(zero.status, 200, zero.text);
  assert.deepEqual(zero.json.items.map((l: Json) => l.item.id), ["1", "2"]);
  const negative = await putQuantity(t, cartId, "1", -1);
  assert.equal(negative.status, 200, negative.text);
  assert.deepEqual(negative.json.items.map((l: Json) => l.item.id), ["2"]);
  assertCartConsistent(negative.json);
  // The removed line is gone for good.
  assertError(await putQuantity(t, cartId, "384", 1), 404);
});

Deno.test("DELETE removes a line and answers the cart; the cart may become empty", async () => {
  await using t = await createTestApp();
  const { json } = await addTester(t, cubeBody());
  const cartId = json.id;
  const { json: two } = await addProduct(t, 386, 1, cartId);
  const cubeLine = two.items[0].item.id;
  const res = await deleteLine(t, cartId, cubeLine);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.json.items.map((l: Json) => l.item.id), ["386"]);
  const empty = await deleteLine(t, cartId, "386");
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.json.items, []);
  assert.equal(empty.json.subtotalCents, 0);
  assert.equal(empty.json.itemCount, 0);
  const again = await getCart(t, cartId);
  assert.equal(again.status, 200);
  assert.deepEqual(again.json.items, []);
});

// ---------------------------------------------------------------------------------------------
// Bad input

Deno.test("an unknown cart answers 404 on every endpoint", async () => {
  await using t = await createTestApp();
  const ghost = "AAAAAAAAAAAAAAAAAAAAAA";
  assertError(await getCart(t, ghost), 404, /Cart not found/);
  assertError(await getCart(t, "bad!id"), 404, /Cart not found/);
  assertError(await putQuantity(t, ghost, "384", 2), 404, /Cart not found/);
  assertError(await deleteLine(t, ghost, "384"), 404, /Cart not found/);
  assertError(await addProduct(t, 384, 1, ghost), 404, /Cart not found/);
  assertError(await addTester(t, testerBody(10, "none", pick(10), { cartId: ghost })), 404);
  assertError(await getCart(t, "x".repeat(65)), 400);
});

Deno.test("an unknown item id on add answers 404 naming it", async () => {
  await using t = await createTestApp();
  assertError(await addProduct(t, 99999), 404, /99999/);
  // A switch id is not a product sold on its own.
  assertError(await addProduct(t, SWITCHES[0].id), 404);
  // An unknown switch inside a tester.
  assertError(await addTester(t, testerBody(10, "none", [...pick(9), 9999])), 404, /9999/);
  assertError(await addTester(t, cubeBody([...pick(5), 9998])), 404, /9998/);
});

Deno.test("an unknown line on DELETE or PUT answers 404", async () => {
  await using t = await createTestApp();
  const { json } = await addProduct(t, 384);
  assertError(await deleteLine(t, json.id, "385"), 404, /385/);
  assertError(await putQuantity(t, json.id, "custom-deadbeef", 2), 404);
  // The cart is unchanged.
  assert.equal((await getCart(t, json.id)).json.items.length, 1);
});

Deno.test("an out-of-stock switch in a tester or cube answers 409 naming it", async () => {
  await using t = await createTestApp();
  const name = new RegExp(`Out of stock: .*${SOLD_OUT.name}`);
  assertError(await addTester(t, testerBody(10, "none", [...pick(9), SOLD_OUT.id])), 409, name);
  assertError(await addTester(t, cubeBody([SOLD_OUT.id, ...pick(5)])), 409, name);
});

Deno.test("an out-of-stock product answers 409 naming what is missing", async () => {
  await using t = await createTestApp();
  const soldOut = byId.get(AESTHETIC.switchIds[0])!;
  await setStock(t, switchKey(soldOut.id), 0);
  assertError(await addProduct(t, AESTHETIC.id), 409, new RegExp(soldOut.name));
  assertError(await addProduct(t, AESTHETIC.idWithKeycaps), 409);
  await setStock(t, "SMALL_BOX", 2);
  assertError(await addProduct(t, 1, 3), 409, /Small tester box \(2 left\)/);
  const ok = await addProduct(t, 1, 2);
  assert.equal(ok.status, 200);
  // Raising the quantity beyond stock is refused too; the cart keeps what it had.
  assertError(await putQuantity(t, ok.json.id, "1", 3), 409, /Small tester box/);
  assertError(await addProduct(t, 1, 1, ok.json.id), 409);
  assert.equal((await getCart(t, ok.json.id)).json.items[0].quantity, 2);
  // Lowering it is always allowed.
  assert.equal((await putQuantity(t, ok.json.id, "1", 1)).json.items[0].quantity, 1);
});

Deno.test("a tester quantity beyond a switch's stock answers 409 with what is left", async () => {
  await using t = await createTestApp();
  const scarce = SWITCHES.find((s) => s.initialStock > 0 && s.initialStock < 5)!;
  const ids = [...pick(9), scarce.id];
  const res = await addTester(
    t,
    testerBody(10, "none", ids, { quantity: scarce.initialStock + 1 }),
  );
  assertError(res, 409, new RegExp(`${scarce.name} \\(${scarce.initialStock} left\\)`));
});

Deno.test("a wrong switch count answers 400 saying how many to pick", async () => {
  await using t = await createTestApp();
  for (const size of TESTER_SIZES) {
    for (const n of [size - 1, size + 1, 0]) {
      if (n > 20) continue;
      const res = await addTester(t, testerBody(size, "none", pick(n)));
      assertError(res, 400, new RegExp(`${size} switches.*selected ${n}\\b`));
    }
  }
  assertError(await addTester(t, testerBody(20, "none", [...pick(20), SWITCHES[0].id])), 400);
  assertError(await addTester(t, cubeBody(pick(5))), 400, /6 switches.*selected 5\b/);
  assertError(await addTester(t, cubeBody(pick(7))), 400, /6 switches.*selected 7\b/);
  assertError(await addTester(t, cubeBody([])), 400, /6 switches/);
});

Deno.test("the same switch twice answers 400", async () => {
  await using t = await createTestApp();
  const ids = pick(10);
  assertError(
    await addTester(t, testerBody(10, "none", [...ids.slice(0, 9), ids[0]])),
    400,
    /once/,
  );
  const cube = pick(6);
  assertError(await addTester(t, cubeBody([...cube.slice(0, 5), cube[1]])), 400, /once/);
  const twice = testerBody(10, "none", ids);
  twice.switches[0] = { id: ids[0], quantity: 2 };
  assertError(await addTester(t, twice), 400, /once/);
});

Deno.test("bad sizes, keycaps, colours and names answer 400 with the allowed values", async () => {
  await using t = await createTestApp();
  assertError(
    await addTester(t, testerBody(12 as TesterSize, "none", pick(12))),
    400,
    /10, 15 or 20/,
  );
  assertError(await addTester(t, testerBody("10" as unknown as TesterSize, "none")), 400);
  assertError(
    await addTester(t, testerBody(10, "gold" as TesterKeycaps)),
    400,
    /none, transparent or random/,
  );
  assertError(
    await addTester(t, testerBody(10, "none", pick(10), { bodyColor: "red" })),
    400,
    /white or black/,
  );
  assertError(
    await addTester(t, cubeBody(pick(6), { keycaps: "transparent" })),
    400,
    /white or pastel/,
  );
  assertError(await addTester(t, cubeBody(pick(6), { bodyColor: "red" })), 400, /white or black/);
  assertError(await addTester(t, cubeBody(pick(6), { size: 10 })), 400, /6 switches/);
  assertError(
    await addTester(t, { ...testerBody(10, "none"), name: "Free Stuff" }),
    400,
    /Custom Switch Tester/,
  );
  const { name: _, ...nameless } = testerBody(10, "none");
  assertError(await addTester(t, nameless), 400);
  assertError(await addTester(t, testerBody(10, "none", pick(10), { switches: "all" })), 400);
  assertError(
    await addTester(t, testerBody(10, "none", pick(10), { switches: [{ id: "abc" }] })),
    400,
  );
  assertError(await addTester(t, [1, 2, 3]), 400);
  assertError(await addTester(t, null), 400);
});

Deno.test("bad quantities on add answer 400", async () => {
  await using t = await createTestApp();
  for (const quantity of ["abc", "1.5", "0", "-3", "10000", "", "Infinity", "1e400"]) {
    assertError(await addProduct(t, 384, quantity), 400, /[Qq]uantity/);
  }
  for (const quantity of ["abc", 1.5, 0, -3, 10000, null, true, "", [1], {}]) {
    const res = await addTester(t, testerBody(10, "none", pick(10), { quantity }));
    assertError(res, 400, /[Qq]uantity/);
  }
  for (const itemId of ["abc", "0", "-1", "1.5", ""]) {
    assertError(await addProduct(t, itemId, 1), 400);
  }
  assertError(await t.request("/api/cart/add", { method: "POST" }), 400);
});

Deno.test("bad quantities on PUT answer 400 and leave the cart alone", async () => {
  await using t = await createTestApp();
  const { json } = await addProduct(t, 384, 2);
  // An empty quantity is not 0: it must not remove the line.
  for (const quantity of ["abc", "1.5", "10000", "Infinity", "", "%20", "1,5", "0x"]) {
    assertError(await putQuantity(t, json.id, "384", quantity), 400, /[Qq]uantity/);
  }
  assertError(
    await t.request(`/api/cart/${json.id}/items/384`, { method: "PUT" }),
    400,
    /[Qq]uantity/,
  );
  assert.equal((await getCart(t, json.id)).json.items[0].quantity, 2);
});

Deno.test(`more than ${MAX_LINE_QUANTITY} of one line answers 400`, async () => {
  await using t = await createTestApp();
  assertError(await addProduct(t, 384, MAX_LINE_QUANTITY + 1), 400, /at most/);
  const { json } = await addProduct(t, 384, MAX_LINE_QUANTITY);
  assert.equal(json.items[0].quantity, MAX_LINE_QUANTITY);
  assertError(
    await addProduct(t, 384, 1, json.id),
    400,
    new RegExp(`at most ${MAX_LINE_QUANTITY}`),
  );
  assertError(await putQuantity(t, json.id, "384", MAX_LINE_QUANTITY + 1), 400, /at most/);
  assertError(
    await addTester(t, testerBody(10, "none", pick(10), { quantity: MAX_LINE_QUANTITY + 1 })),
    400,
  );
  const { json: tester } = await addTester(
    t,
    testerBody(10, "none", pick(10), { quantity: MAX_LINE_QUANTITY - 5 }),
  );
  assertError(
    await addTester(t, testerBody(10, "none", pick(10), { cartId: tester.id, quantity: 6 })),
    400,
    /at most/,
  );
  assert.equal((await getCart(t, tester.id)).json.items[0].quantity, MAX_LINE_QUANTITY - 5);
});

Deno.test(`a cart holds at most ${MAX_CART_LINES} different lines`, async () => {
  await using t = await createTestApp();
  const cubes = (i: number) => stocked.slice(i, i + 6).map((s) => s.id);
  const { json } = await addTester(t, cubeBody(cubes(0)));
  const cartId = json.id;
  for (let i = 1; i < MAX_CART_LINES; i++) {
    const res = await addTester(t, cubeBody(cubes(i), { cartId }));
    assert.equal(res.status, 200, res.text);
  }
  assertError(await addTester(t, cubeBody(cubes(MAX_CART_LINES), { cartId })), 400, /at most/);
  assertError(await addProduct(t, 1, 1, cartId), 400, new RegExp(`${MAX_CART_LINES}`));
  // More of a line already there is still fine.
  const more = await addTester(t, cubeBody(cubes(0), { cartId }));
  assert.equal(more.status, 200, more.text);
  assert.equal(more.json.items.length, MAX_CART_LINES);
  assert.equal(more.json.items[0].quantity, 2);
});

Deno.test("malformed JSON answers 400 'not valid JSON'", async () => {
  await using t = await createTestApp();
  for (const body of ["{not json", "", '{"name": "Custom Switch Tester",}']) {
    const res = await t.request("/api/cart/add/tester", {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json" },
    });
    assertError(res, 400, /not valid JSON/);
  }
});

Deno.test("a body that is not JSON by content type answers 415", async () => {
  await using t = await createTestApp();
  const body = JSON.stringify(testerBody(10, "none"));
  const types: Record<string, string>[] = [
    { "Content-Type": "text/plain" },
    {},
    { "Content-Type": "application/x-www-form-urlencoded" },
  ];
  for (const headers of types) {
    const res = await t.request("/api/cart/add/tester", { method: "POST", body, headers });
    assertError(res, 415, /JSON/);
  }
  // A charset parameter is fine.
  const ok = await t.request("/api/cart/add/tester", {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
  assert.equal(ok.status, 200, ok.text);
});

// ---------------------------------------------------------------------------------------------
// Expiry and concurrency

Deno.test("a cart expires after CART_TTL_MS without activity", async () => {
  await using t = await createTestApp();
  const { json } = await addProduct(t, 384);
  t.clock.advance(CART_TTL_MS - 1);
  assert.equal((await getCart(t, json.id)).status, 200);
  t.clock.advance(1);
  assertError(await getCart(t, json.id), 404, /expired/);
  assertError(await addProduct(t, 384, 1, json.id), 404, /Cart not found/);
  assertError(await putQuantity(t, json.id, "384", 2), 404);
  assertError(await deleteLine(t, json.id, "384"), 404);
  // Starting over without the id works.
  assert.equal((await addProduct(t, 384)).status, 200);
});

Deno.test("every change renews a cart's expiry", async () => {
  await using t = await createTestApp();
  const { json } = await addProduct(t, 384);
  const cartId = json.id;
  t.clock.advance(CART_TTL_MS - DAY_MS);
  assert.equal((await addProduct(t, 1, 1, cartId)).status, 200);
  t.clock.advance(CART_TTL_MS - DAY_MS);
  assert.equal((await putQuantity(t, cartId, "1", 2)).status, 200);
  t.clock.advance(CART_TTL_MS - DAY_MS);
  assert.equal((await deleteLine(t, cartId, "1")).status, 200);
  t.clock.advance(CART_TTL_MS - DAY_MS);
  assert.equal((await addTester(t, cubeBody(pick(6), { cartId }))).status, 200);
  t.clock.advance(CART_TTL_MS - DAY_MS);
  const res = await getCart(t, cartId);
  assert.equal(res.status, 200);
  assert.equal(res.json.items.length, 2);
  t.clock.advance(DAY_MS);
  assertError(await getCart(t, cartId), 404);
});

Deno.test(`${MAX_LINE_QUANTITY} concurrent adds to one cart lose no update`, async () => {
  await using t = await createTestApp();
  const { json } = await addProduct(t, 1);
  await deleteLine(t, json.id, "1");
  const results = await Promise.all(
    Array.from({ length: MAX_LINE_QUANTITY }, () => addProduct(t, 384, 1, json.id)),
  );
  for (const res of results) assert.equal(res.status, 200, res.text);
  const cart = await getCart(t, json.id);
  assert.equal(cart.json.items.length, 1);
  assert.equal(cart.json.items[0].quantity, MAX_LINE_QUANTITY);
  assert.equal(cart.json.subtotalCents, MAX_LINE_QUANTITY * 999);
});

Deno.test("concurrent adds of different things to one cart keep every line", async () => {
  await using t = await createTestApp();
  const { json } = await addProduct(t, 1);
  const cartId = json.id;
  await Promise.all([
    addProduct(t, 2, 1, cartId),
    addProduct(t, 384, 2, cartId),
    addProduct(t, 380, 3, cartId),
    addTester(t, testerBody(10, "none", pick(10), { cartId })),
    addTester(t, cubeBody(pick(6), { cartId })),
    addProduct(t, 1, 4, cartId),
  ]);
  const cart = await getCart(t, cartId);
  assert.equal(cart.json.items.length, 6);
  assert.equal(cart.json.itemCount, 1 + 1 + 2 + 3 + 1 + 1 + 4);
  assertCartConsistent(cart.json);
});

Deno.test("line prices x quantities always add up to the subtotal", async () => {
  await using t = await createTestApp();
  const { json } = await addProduct(t, 384, 3);
  const cartId = json.id;
  const steps: Array<() => Promise<Res>> = [
    () => addProduct(t, 385, 2, cartId),
    () => addTester(t, testerBody(15, "transparent", pick(15), { cartId, quantity: 3 })),
    () => addTester(t, testerBody(20, "none", pick(20), { cartId, quantity: 2 })),
    () => addTester(t, cubeBody(pick(6), { cartId, quantity: 7 })),
    () => addProduct(t, 2, 5, cartId),
    () => putQuantity(t, cartId, "385", 9),
    () => deleteLine(t, cartId, "384"),
    () => getCart(t, cartId),
  ];
  for (const step of steps) {
    const res = await step();
    assert.equal(res.status, 200, res.text);
    assertCartConsistent(res.json);
  }
  const final = (await getCart(t, cartId)).json;
  assert.equal(
    final.subtotalCents,
    9 * 1199 +
      3 * customTesterCents(15, "transparent", pick(15).map(extraOf)) +
      2 * customTesterCents(20, "none", pick(20).map(extraOf)) +
      7 * cubeCents(pick(6).map(extraOf)) +
      5 * 399,
  );
});

Deno.test("a switch leaving stock marks the tester line unavailable in the cart", async () => {
  await using t = await createTestApp();
  const ids = pick(10);
  const { json } = await addTester(t, testerBody(10, "none", ids));
  assert.equal(json.items[0].item.available, true);
  await setStock(t, switchKey(ids[4]), 0);
  const res = await getCart(t, json.id);
  assert.equal(res.json.items[0].item.available, false);
  // The price does not depend on stock.
  assert.equal(res.json.items[0].item.priceCents, json.items[0].item.priceCents);
});

Deno.test("a line short of stock names the switch, how many are left and how many it needs", async () => {
  await using t = await createTestApp();
  const ids = pick(10);
  const { json } = await addTester(t, testerBody(10, "none", ids, { quantity: 3 }));
  assert.deepEqual(json.items[0].item.shortStock, [], "nothing short yet");
  await setStock(t, switchKey(ids[4]), 2);
  const res = await getCart(t, json.id);
  const short = SWITCHES.find((s) => s.id === ids[4])!;
  assert.equal(res.json.items[0].item.available, false);
  assert.deepEqual(res.json.items[0].item.shortStock, [
    { name: `${short.brand} ${short.name}`, available: 2, needed: 3 },
  ]);
});

Deno.test("a pack short of one of its switches names that switch", async () => {
  await using t = await createTestApp();
  const pack = PACKS[0];
  const { json } = await addProduct(t, pack.id);
  const first = SWITCHES.find((s) => s.id === pack.switchIds[0])!;
  await setStock(t, switchKey(first.id), 0);
  const res = await getCart(t, json.id);
  assert.deepEqual(res.json.items[0].item.shortStock, [
    { name: `${first.brand} ${first.name}`, available: 0, needed: 1 },
  ]);
});

Deno.test("a refused add answers only once the new cart's count it started has landed", async () => {
  // The route counts a new cart alongside the add's reads (cart.ts); an add refused before it
  // waited for the count (here a custom tester of the wrong size, refused before any read) used
  // to answer while the count's write was still on its way, a write after the request's end.
  await using t = await createTestApp();
  const count = Promise.withResolvers<void>();
  let answered = false;
  const add = addToCart(t.kv, t.clock, {
    cartId: null,
    spec: {
      kind: "custom",
      size: 10,
      keycaps: "none",
      bodyColor: "white",
      switchIds: pick(3),
    },
    quantity: 1,
    admitted: count.promise,
  }).finally(() => answered = true);
  add.catch(() => {});
  // One turn of the event loop: every continuation of the refusal has run by then.
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(answered, false, "the add waits for the count it started");
  count.resolve();
  await assert.rejects(add, /Please select 10 switches/);
});
