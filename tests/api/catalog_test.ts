import assert from "node:assert/strict";
import { switchKey } from "../../shared/bom.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { INITIAL_COMPONENT_STOCK, PRODUCTS } from "../../shared/catalog/products.ts";
import { toDollars } from "../../shared/pricing.ts";
import type { SwitchRecord } from "../../server/catalog/store.ts";
import { keys } from "../../server/kv/keys.ts";
import { seedKv } from "../../server/ops/seed.ts";
import type { StockRecord } from "../../server/stock/record.ts";
import { payDemo, sessionIdOf, US_ADDRESS } from "../helpers/shop_fixtures.ts";
import { createTestApp, setStock, type TestApp } from "../helpers/test_app.ts";

const THEMED_IDS = [384, 380, 386, 382];
const AESTHETIC = PACKS.find((p) => p.slug === "aesthetic")!;

/** Asserts a 4xx answer is JSON with a readable error. */
function assertJsonError(res: Awaited<ReturnType<TestApp["request"]>>, status: number) {
  assert.equal(res.status, status, res.text);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(typeof res.json?.error, "string");
  assert.ok(res.json.error.trim().length > 5, `unhelpful error: ${res.json.error}`);
}

async function availability(t: TestApp, kind: "testers" | "items", id: number): Promise<boolean> {
  const res = await t.request(`/api/${kind}/${id}/availability`);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.json), ["available"]);
  assert.equal(typeof res.json.available, "boolean");
  return res.json.available;
}

Deno.test("GET /api/switches lists every seeded switch with the spec fields", async () => {
  await using t = await createTestApp();
  const res = await t.request("/api/switches");
  assert.equal(res.status, 200);
  assert.ok(Array.isArray(res.json));
  assert.ok(res.json.length >= 100, `only ${res.json.length} switches`);
  assert.equal(res.json.length, SWITCHES.length);
  const byId = new Map(SWITCHES.map((s) => [s.id, s]));
  for (const s of res.json) {
    assert.equal(typeof s.id, "number");
    for (const field of ["name", "brand", "type", "force", "image", "referralLink"]) {
      assert.equal(typeof s[field], "string", `${s.id}.${field}`);
      assert.ok(s[field].length > 0, `${s.id}.${field} empty`);
    }
    assert.match(s.type, /tactile|linear|silent|clicky/);
    assert.match(s.force, /\d+\s*g/);
    assert.equal(typeof s.available, "boolean");
    assert.equal(typeof s.extraPrice, "number");
    const data = byId.get(s.id);
    assert.ok(data, `unknown switch ${s.id}`);
    assert.equal(s.name, data.name);
    assert.equal(s.brand, data.brand);
    assert.equal(s.extraPrice, toDollars(data.extraPriceCents));
    assert.equal(s.available, data.initialStock > 0, `${s.brand} ${s.name}`);
  }
  assert.equal(new Set(res.json.map((s: { id: number }) => s.id)).size, res.json.length);
});

Deno.test("GET /api/switches: out-of-stock switches are unavailable, extras may be negative", async () => {
  await using t = await createTestApp();
  const res = await t.request("/api/switches");
  const outOfStock = SWITCHES.filter((s) => s.initialStock === 0);
  assert.ok(outOfStock.length > 0, "the seed has sold-out switches to show");
  for (const data of outOfStock) {
    const s = res.json.find((x: { id: number }) => x.id === data.id);
    assert.equal(s.available, false, `${data.brand} ${data.name}`);
  }
  const negative = SWITCHES.find((s) => s.extraPriceCents < 0)!;
  assert.ok(res.json.find((x: { id: number }) => x.id === negative.id).extraPrice < 0);
  assert.ok(res.json.some((x: { extraPrice: number }) => x.extraPrice === 0));
  assert.ok(res.json.some((x: { extraPrice: number }) => x.extraPrice > 0));
});

Deno.test("GET /api/switches follows stock changes", async () => {
  await using t = await createTestApp();
  const id = SWITCHES.find((s) => s.initialStock > 0)!.id;
  const soldOut = SWITCHES.find((s) => s.initialStock === 0)!.id;
  await setStock(t, switchKey(id), 0);
  await setStock(t, switchKey(soldOut), 5);
  const res = await t.request("/api/switches");
  assert.equal(res.json.find((s: { id: number }) => s.id === id).available, false);
  assert.equal(res.json.find((s: { id: number }) => s.id === soldOut).available, true);
});

Deno.test("GET /api/testers/{id}/availability for the four themed packs and keycap ids", async () => {
  await using t = await createTestApp();
  for (const id of THEMED_IDS) assert.equal(await availability(t, "testers", id), true, `${id}`);
  for (const pack of PACKS) {
    assert.equal(await availability(t, "testers", pack.id), true, pack.slug);
    assert.equal(await availability(t, "testers", pack.idWithKeycaps), true, pack.slug);
  }
});

Deno.test("all six packs can be bought on a fresh shop", async () => {
  await using t = await createTestApp();
  for (const [i, pack] of PACKS.entries()) {
    const client = `127.0.3.${i + 1}`;
    const cart = await t.request(`/api/cart/add?itemId=${pack.id}`, { method: "POST", client });
    assert.equal(cart.status, 200, `${pack.slug}: ${cart.text}`);
    const start = await t.request(`/api/cart/${cart.json.id}/checkout/us`, {
      method: "POST",
      client,
    });
    assert.equal(start.status, 200, `${pack.slug}: ${start.text}`);
    const paid = await payDemo(t, sessionIdOf(start.json.url), {
      cardNumber: "4242424242424242",
      email: "ann@example.com",
      address: US_ADDRESS,
    });
    assert.equal(paid.status, 200, `${pack.slug}: ${paid.text}`);
  }
});

Deno.test("a pack is unavailable while one of its switches is sold out", async () => {
  await using t = await createTestApp();
  assert.equal(AESTHETIC.id, 33);
  const soldOut = [AESTHETIC.switchIds[3]];
  await setStock(t, switchKey(soldOut[0]), 0);
  assert.equal(await availability(t, "testers", 33), false);
  assert.equal(await availability(t, "testers", 43), false);
  // Restock the missing switch and it becomes available.
  for (const id of soldOut) await setStock(t, switchKey(id), 3);
  assert.equal(await availability(t, "testers", 33), true);
  assert.equal(await availability(t, "testers", 43), true);
});

Deno.test("GET /api/items/{id}/availability for the layout tester and cube case", async () => {
  await using t = await createTestApp();
  assert.equal(await availability(t, "items", 1), true);
  assert.equal(await availability(t, "items", 2), true);
});

Deno.test("availability: unknown ids answer 404 JSON, non-numeric ids 400", async () => {
  await using t = await createTestApp();
  for (const path of ["/api/testers/99999/availability", "/api/items/99999/availability"]) {
    assertJsonError(await t.request(path), 404);
  }
  // A tester id asked as an item, and an item id asked as a tester.
  assertJsonError(await t.request("/api/items/384/availability"), 404);
  assertJsonError(await t.request("/api/testers/1/availability"), 404);
  // A switch id is not a product.
  assertJsonError(await t.request(`/api/testers/${SWITCHES[0].id}/availability`), 404);
  for (const bad of ["abc", "-1", "0", "1.5"]) {
    assertJsonError(await t.request(`/api/testers/${bad}/availability`), 400);
    assertJsonError(await t.request(`/api/items/${bad}/availability`), 400);
  }
});

Deno.test("availability follows component stock: no small boxes, no packs or layout tester", async () => {
  await using t = await createTestApp();
  await setStock(t, "SMALL_BOX", 0);
  for (const id of THEMED_IDS) assert.equal(await availability(t, "testers", id), false, `${id}`);
  assert.equal(await availability(t, "items", 1), false);
  assert.equal(await availability(t, "items", 2), true, "the cube case needs no box");
  await setStock(t, "SMALL_BOX", 1);
  assert.equal(await availability(t, "items", 1), true);
  assert.equal(await availability(t, "testers", 384), true);
});

Deno.test("availability: keycap packs need ten transparent keycaps, the cube case a body", async () => {
  await using t = await createTestApp();
  await setStock(t, "TRANSPARENT_KEYCAP", 9);
  assert.equal(await availability(t, "testers", 384), true);
  assert.equal(await availability(t, "testers", 385), false);
  await setStock(t, "TRANSPARENT_KEYCAP", 10);
  assert.equal(await availability(t, "testers", 385), true);
  await setStock(t, "CUBE_BODY", 0);
  assert.equal(await availability(t, "items", 2), false);
});

Deno.test("availability: one sold-out switch makes its packs unavailable", async () => {
  await using t = await createTestApp();
  const starter = PACKS.find((p) => p.id === 384)!;
  await setStock(t, switchKey(starter.switchIds[3]), 0);
  assert.equal(await availability(t, "testers", 384), false);
  assert.equal(await availability(t, "testers", 385), false);
  // Another pack sharing no switch is unaffected.
  const other = PACKS.find((p) => !p.switchIds.includes(starter.switchIds[3]) && p.id !== 33)!;
  assert.equal(await availability(t, "testers", other.id), true);
});

Deno.test("GET /api/products lists packs both ways and the items with prices", async () => {
  await using t = await createTestApp();
  const res = await t.request("/api/products");
  assert.equal(res.status, 200);
  assert.equal(res.json.length, PRODUCTS.length);
  const ids = res.json.map((p: { id: number }) => p.id);
  assert.deepEqual(ids, [...ids].sort((a: number, b: number) => a - b));
  const byId = new Map(res.json.map((p: { id: number }) => [p.id, p]));
  for (const pack of PACKS) {
    // deno-lint-ignore no-explicit-any
    const plain = byId.get(pack.id) as any;
    // deno-lint-ignore no-explicit-any
    const keycaps = byId.get(pack.idWithKeycaps) as any;
    assert.equal(plain.price, 9.99);
    assert.equal(plain.priceCents, 999);
    assert.equal(keycaps.priceCents, 1199);
    assert.equal(plain.packSlug, pack.slug);
    assert.equal(plain.withKeycaps, false);
    assert.equal(keycaps.withKeycaps, true);
    assert.equal(plain.available, true);
  }
  // deno-lint-ignore no-explicit-any
  const layout = byId.get(1) as any;
  // deno-lint-ignore no-explicit-any
  const cubeCase = byId.get(2) as any;
  assert.equal(layout.name, "Layout Tester");
  assert.equal(layout.price, 7.99);
  assert.equal(cubeCase.name, "Fidget Cube Case");
  assert.equal(cubeCase.price, 3.99);
  assert.equal(layout.packSlug, null);
  assert.equal(layout.available, true);
});

Deno.test("GET /api/packs/{slug} answers the pack with its ten switches", async () => {
  await using t = await createTestApp();
  for (const pack of PACKS) {
    const res = await t.request(`/api/packs/${pack.slug}`);
    assert.equal(res.status, 200, pack.slug);
    assert.equal(res.json.id, pack.id);
    assert.equal(res.json.idWithKeycaps, pack.idWithKeycaps);
    assert.equal(res.json.slug, pack.slug);
    assert.equal(res.json.title, pack.title);
    assert.equal(typeof res.json.description, "string");
    assert.equal(typeof res.json.image, "string");
    assert.equal(res.json.basePrice, 9.99);
    assert.equal(res.json.basePriceCents, 999);
    assert.equal(res.json.priceWithKeycapsCents, 1199);
    assert.equal(res.json.switches.length, 10);
    assert.deepEqual(res.json.switches.map((s: { id: number }) => s.id), pack.switchIds);
    for (const s of res.json.switches) {
      assert.equal(typeof s.name, "string");
      assert.equal(typeof s.brand, "string");
      assert.match(s.referralLink, /^https?:\/\//);
    }
  }
  const starter = await t.request("/api/packs/starter-pack");
  const names = starter.json.switches.map((s: { name: string }) => s.name);
  assert.deepEqual(names, [
    "Lemon v3",
    "Pea Flower",
    "Gift",
    "Holy Panda",
    "Sakura",
    "Cream Blue",
    "Light Sakura",
    "Flash",
    "Violet Golden",
    "Whale",
  ]);
});

Deno.test("GET /api/packs/{slug} for an unknown slug answers 404 JSON", async () => {
  await using t = await createTestApp();
  const res = await t.request("/api/packs/no-such-pack");
  assertJsonError(res, 404);
  assert.match(res.json.error, /no-such-pack/);
});

Deno.test("seeding twice keeps an edited price and stock", async () => {
  await using t = await createTestApp();
  const id = SWITCHES[0].id;
  const entry = await t.kv.get<SwitchRecord>(keys.switch(id));
  assert.ok(entry.value);
  await t.kv.set(keys.switch(id), { ...entry.value, extraPriceCents: 77 });
  await t.kv.set(
    keys.stock(switchKey(id)),
    { stock: 3, reserved: 0, used: 9 } satisfies StockRecord,
  );
  await t.kv.set(
    keys.stock("LARGE_BOX"),
    { stock: 1, reserved: 0, used: 149 } satisfies StockRecord,
  );

  await seedKv(t.kv, t.clock);
  await seedKv(t.kv, t.clock);

  assert.equal((await t.kv.get<SwitchRecord>(keys.switch(id))).value?.extraPriceCents, 77);
  assert.deepEqual((await t.kv.get(keys.stock(switchKey(id)))).value, {
    stock: 3,
    reserved: 0,
    used: 9,
  });
  assert.deepEqual((await t.kv.get(keys.stock("LARGE_BOX"))).value, {
    stock: 1,
    reserved: 0,
    used: 149,
  });
  const res = await t.request("/api/switches");
  assert.equal(res.json.find((s: { id: number }) => s.id === id).extraPrice, 0.77);
});

Deno.test("seeding fills what is missing: a deleted record comes back", async () => {
  await using t = await createTestApp({ seed: false });
  const empty = await t.request("/api/switches");
  assert.deepEqual(empty.json, []);
  await seedKv(t.kv, t.clock);
  const stock = await t.kv.get<StockRecord>(keys.stock("SMALL_BOX"));
  assert.deepEqual(stock.value, { stock: INITIAL_COMPONENT_STOCK.SMALL_BOX, reserved: 0, used: 0 });
  await t.kv.delete(keys.switch(SWITCHES[1].id));
  await seedKv(t.kv, t.clock);
  const res = await t.request("/api/switches");
  assert.equal(res.json.length, SWITCHES.length);
});
