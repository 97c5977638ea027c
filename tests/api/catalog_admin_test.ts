/**
 * The owner's catalogue: switches added, edited and retired, packs and items edited and taken off
 * sale, through /api/admin/catalog. The shop follows every edit at once (switch list,
 * configurators, pack pages, products, availability, carts, checkout), prices change forward only
 * (carts say so, orders keep theirs), every edit is in the history with old and new values, stale
 * edits are refused while concurrent edits of different fields are all kept, and the edits
 * survive a restart on the same store. The migration brings a store of the previous shape along.
 */
import assert from "node:assert/strict";
import {
  adminCookie,
  changedKeys,
  createTestApp,
  setStock,
  snapshot,
  type TestApp,
} from "../helpers/test_app.ts";
import { createInstances } from "../helpers/multi_instance.ts";
import { payDemo, startHostedCheckout, US_ADDRESS } from "../helpers/shop_fixtures.ts";
import { switchKey } from "../../shared/bom.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { PRODUCTS } from "../../shared/catalog/products.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { customTesterCents, toDollars } from "../../shared/pricing.ts";
import { keys } from "../../server/kv/keys.ts";
import { seedKv } from "../../server/ops/seed.ts";
import { moveEditsToAudit } from "../../server/ops/migrations.ts";
import { seedStock } from "../../server/stock/store.ts";
import type { PackRecord, ProductRecord, SwitchRecord } from "../../server/catalog/store.ts";
import type { StockRecord } from "../../server/stock/record.ts";

const GOOD_CARD = "4242424242424242";
const STARTER = PACKS[0];
const IN_PACKS = new Set(PACKS.flatMap((p) => p.switchIds));
/** Switches in no pack (so they may be retired), in stock, at no extra price. */
const FREE = SWITCHES.filter((s) =>
  !IN_PACKS.has(s.id) && s.initialStock > 40 && s.extraPriceCents === 0
);
/** Nine plentiful switches to fill a 10-switch tester around another one. */
const NINE = FREE.slice(1, 10).map((s) => s.id);
const NEW_SWITCH = {
  name: "Tidal Blue",
  brand: "Gateron",
  type: "tactile",
  force: "62g",
  extraPrice: 0.75,
  referralLink: "https://www.gateron.com/",
  stock: 40,
};

const cookies = new WeakMap<TestApp, Promise<string>>();

/** Sends an admin request with the session cookie (signing in once per app, even at once). */
async function admin(t: TestApp, path: string, init: { method?: string; body?: unknown } = {}) {
  let cookie = cookies.get(t);
  if (!cookie) cookies.set(t, cookie = adminCookie(t));
  return await t.request(path, { ...init, headers: { Cookie: await cookie } });
}

/** The JSON of an answer that must have this status. */
function ok(res: Awaited<ReturnType<TestApp["request"]>>, status = 200) {
  assert.equal(res.status, status, res.text);
  return res.json;
}

async function createSwitch(t: TestApp, body: Record<string, unknown> = NEW_SWITCH) {
  return ok(await admin(t, "/api/admin/catalog/switches", { method: "POST", body }), 201);
}

async function patch(t: TestApp, kind: string, id: number, body: Record<string, unknown>) {
  return await admin(t, `/api/admin/catalog/${kind}/${id}`, { method: "PATCH", body });
}

async function adminSwitch(t: TestApp, id: number) {
  const list = ok(await admin(t, "/api/admin/catalog/switches"));
  return list.find((s: { id: number }) => s.id === id);
}

async function publicSwitchIds(t: TestApp): Promise<number[]> {
  return (ok(await t.request("/api/switches"))).map((s: { id: number }) => s.id);
}

/** Adds a 10-switch tester without keycaps; answers the whole response. */
async function addTester(t: TestApp, switchIds: number[], cartId: string | null = null) {
  return await t.request("/api/cart/add/tester", {
    method: "POST",
    body: {
      cartId,
      name: "Custom Switch Tester",
      size: 10,
      keycaps: "none",
      switches: switchIds.map((id) => ({ id, quantity: 1 })),
    },
  });
}

/** Pays a cart through the hosted demo checkout; answers the order number. */
async function payCart(t: TestApp, cartId: string): Promise<string> {
  const { orderNumber, sessionId } = await startHostedCheckout(t, cartId);
  const paid = await payDemo(t, sessionId, {
    cardNumber: GOOD_CARD,
    email: "ann@example.com",
    address: US_ADDRESS,
  });
  assert.equal(paid.status, 200, paid.text);
  return orderNumber;
}

// ---------------------------------------------------------------------------------------------
// Who may call

/** What signing the owner in writes (limits, the session, the known device): not an edit. */
const SIGN_IN_RECORDS = ["rate_limits", "admin_sessions", "known_devices"];

Deno.test("every catalogue admin route needs the admin: 401 without, and nothing changes", async () => {
  await using t = await createTestApp();
  const before = await snapshot(t.kv, ["rate_limits"]);
  const calls: [string, string, unknown][] = [
    ["GET", "/api/admin/catalog/switches", undefined],
    ["POST", "/api/admin/catalog/switches", NEW_SWITCH],
    ["PATCH", `/api/admin/catalog/switches/${SWITCHES[0].id}`, { retired: true }],
    ["GET", "/api/admin/catalog/packs", undefined],
    ["PATCH", `/api/admin/catalog/packs/${STARTER.id}`, { price: 1 }],
    ["GET", "/api/admin/catalog/items", undefined],
    ["PATCH", "/api/admin/catalog/items/1", { price: 1 }],
    ["GET", "/api/admin/catalog/history", undefined],
  ];
  let clients = 0;
  for (const [method, path, body] of calls) {
    const attempts: Record<string, string>[] = [
      {},
      { Authorization: "Bearer wrong" },
      { Cookie: "admin_session=x" },
    ];
    for (const headers of attempts) {
      // Each from its own address: wrong passwords are limited per client (429 after 5).
      const client = `10.0.0.${clients++}`;
      const res = await t.request(path, { method, body, headers, client });
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.equal(res.json.error, "Admin authentication required");
    }
  }
  assert.deepEqual(changedKeys(before, await snapshot(t.kv, ["rate_limits"])), []);
});

// ---------------------------------------------------------------------------------------------
// Switches

Deno.test("GET /api/admin/catalog/switches: every switch with its stock, retired flag and version", async () => {
  await using t = await createTestApp();
  const list = ok(await admin(t, "/api/admin/catalog/switches"));
  assert.equal(list.length, SWITCHES.length);
  const first = list.find((s: { id: number }) => s.id === SWITCHES[0].id);
  assert.deepEqual(Object.keys(first).sort(), [
    "available",
    "brand",
    "extraPrice",
    "force",
    "id",
    "image",
    "imageUrl",
    "name",
    "referralLink",
    "retired",
    "stock",
    "type",
    "version",
  ]);
  const data = SWITCHES[0];
  assert.equal(first.name, data.name);
  assert.equal(first.force, data.force);
  assert.equal(first.extraPrice, toDollars(data.extraPriceCents));
  assert.equal(first.retired, false);
  assert.equal(first.stock, data.initialStock);
  assert.equal(first.available, data.initialStock);
  assert.equal(typeof first.version, "string");
  const negative = list.find((s: { extraPrice: number }) => s.extraPrice < 0);
  assert.ok(negative, "seeded extra prices may be negative");
});

Deno.test("POST a switch: 201 with its new id, sold at once in /api/switches and a tester at its extraPrice", async () => {
  await using t = await createTestApp();
  // A cached switch list must not hide the new switch.
  const before = await publicSwitchIds(t);
  const created = await createSwitch(t);
  const maxSeeded = Math.max(...SWITCHES.map((s) => s.id));
  assert.equal(created.id, maxSeeded + 1);
  assert.equal(created.name, "Tidal Blue");
  assert.equal(created.brand, "Gateron");
  assert.equal(created.type, "tactile");
  assert.equal(created.force, "62g");
  assert.equal(created.extraPrice, 0.75);
  assert.equal(created.referralLink, "https://www.gateron.com/");
  assert.equal(created.retired, false);
  assert.equal(created.stock, 40);
  assert.equal(created.available, 40);
  assert.equal(created.image, "gateron-tidal-blue");
  assert.equal(typeof created.version, "string");

  const after = ok(await t.request("/api/switches"));
  assert.equal(after.length, before.length + 1);
  const listed = after.find((s: { id: number }) => s.id === created.id);
  assert.deepEqual(listed, {
    id: created.id,
    name: "Tidal Blue",
    brand: "Gateron",
    type: "tactile",
    force: "62g",
    image: "gateron-tidal-blue",
    available: true,
    extraPrice: 0.75,
    referralLink: "https://www.gateron.com/",
  });

  // Its generated illustration resolves like a seeded switch's.
  const image = await t.request(created.imageUrl);
  assert.equal(image.status, 200);
  assert.match(image.headers.get("content-type") ?? "", /image\/svg\+xml/);
  assert.match(image.text, /Gateron Tidal Blue/);

  // A shopper buys a tester with it, priced with its extra price, and pays for it.
  const picks = [created.id, ...NINE];
  const cents = customTesterCents(10, "none", [75, ...NINE.map(() => 0)]);
  const cart = ok(await addTester(t, picks));
  assert.equal(cart.items[0].item.priceCents, cents);
  assert.equal(cart.items[0].item.available, true);
  assert.equal(cart.items[0].item.priceChangedFrom, null);
  assert.equal(cart.items[0].item.unavailableReason, null);
  const orderNumber = await payCart(t, cart.id);
  assert.equal((await adminSwitch(t, created.id)).stock, 39, "the sale took one off the shelf");

  // The owner raises its price: the paid order keeps what it was bought at.
  ok(await patch(t, "switches", created.id, { extraPrice: 1.5 }));
  const order = ok(await t.request(`/api/orders/${orderNumber}`));
  assert.equal(order.items[0].priceCents, cents);
  assert.equal(order.subtotal, toDollars(cents));
  const adminOrders = ok(await admin(t, "/api/admin/orders"));
  const listedOrder = adminOrders.find((o: { orderNumber: string }) =>
    o.orderNumber === orderNumber
  );
  assert.equal(listedOrder.items[0].priceCents, cents);
  // A new tester costs the new price.
  const fresh = ok(await addTester(t, picks));
  assert.equal(fresh.items[0].item.priceCents, cents + 75);
});

Deno.test("POST a switch: ids stay unique under racing creations; a duplicate name is 409", async () => {
  await using t = await createTestApp();
  const made = await Promise.all(
    Array.from({ length: 8 }, (_, i) => createSwitch(t, { ...NEW_SWITCH, name: `Racer ${i}` })),
  );
  const ids = made.map((s) => s.id);
  assert.equal(new Set(ids).size, 8, `ids: ${ids}`);
  const listed = ok(await admin(t, "/api/admin/catalog/switches"));
  assert.equal(listed.length, SWITCHES.length + 8);
  // Every one has its own stock record.
  for (const id of ids) {
    const stock = await t.kv.get<StockRecord>(keys.stock(switchKey(id)));
    assert.deepEqual(stock.value, { stock: 40, reserved: 0, used: 0 });
  }
  const again = await admin(t, "/api/admin/catalog/switches", {
    method: "POST",
    body: { ...NEW_SWITCH, name: "racer 3" },
  });
  assert.equal(again.status, 409, again.text);
  assert.match(again.json.error, /Racer 3/);
  // Ids never collide with a seeded switch's, however many there are.
  const seededIds = new Set(SWITCHES.map((s) => s.id));
  assert.ok(ids.every((id) => !seededIds.has(id) && id >= 100 && id <= 999));
});

Deno.test("POST a switch without referralLink or stock: empty link, nothing on the shelf", async () => {
  await using t = await createTestApp();
  const { referralLink: _, stock: __, ...bare } = NEW_SWITCH;
  const created = await createSwitch(t, { ...bare, type: "Silent  Linear", force: "45 G" });
  assert.equal(created.referralLink, "");
  assert.equal(created.stock, 0);
  assert.equal(created.type, "silent linear");
  assert.equal(created.force, "45g");
  const listed = (ok(await t.request("/api/switches")))
    .find((s: { id: number }) => s.id === created.id);
  assert.equal(listed.available, false, "listed, but out of stock");
  await setStock(t, switchKey(created.id), 5);
  assert.equal((await adminSwitch(t, created.id)).stock, 5);
});

Deno.test("PATCH a switch: each field, answered with the record and shown by the shop", async () => {
  await using t = await createTestApp();
  const sw = FREE[0];
  const edited = ok(
    await patch(t, "switches", sw.id, {
      name: "Renamed",
      brand: "Brandless",
      type: "clicky",
      force: "70g",
      extraPrice: -0.05,
      referralLink: "https://example.com/renamed",
      stock: 7,
    }),
  );
  assert.equal(edited.id, sw.id);
  assert.equal(edited.name, "Renamed");
  assert.equal(edited.brand, "Brandless");
  assert.equal(edited.type, "clicky");
  assert.equal(edited.force, "70g");
  assert.equal(edited.extraPrice, -0.05);
  assert.equal(edited.referralLink, "https://example.com/renamed");
  assert.equal(edited.stock, 7);
  assert.equal(edited.image, sw.image, "the image name stays");
  const listed = (ok(await t.request("/api/switches")))
    .find((s: { id: number }) => s.id === sw.id);
  assert.equal(listed.name, "Renamed");
  assert.equal(listed.extraPrice, -0.05);
  const stock = await t.kv.get<StockRecord>(keys.stock(switchKey(sw.id)));
  assert.equal(stock.value?.stock, 7);
  // An empty body changes nothing and answers the record.
  const same = ok(await patch(t, "switches", sw.id, {}));
  assert.equal(same.version, edited.version);
  // A name another switch has is refused.
  const other = SWITCHES.find((s) => s.id !== sw.id)!;
  const clash = await patch(t, "switches", sw.id, { brand: other.brand, name: other.name });
  assert.equal(clash.status, 409, clash.text);
});

Deno.test("PATCH a switch's stock puts back a stock record that was lost", async () => {
  await using t = await createTestApp();
  const id = SWITCHES[0].id;
  await t.kv.delete(keys.stock(switchKey(id)));
  const res = await patch(t, "switches", id, { stock: 25 });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.stock, 25);
  assert.equal(res.json.available, 25);
  const listed = await t.request("/api/switches");
  assert.equal(listed.json.find((s: { id: number }) => s.id === id).available, true);
});

Deno.test("retire a switch: gone from the shop, cart lines unavailable, adds and checkout refused, past orders kept", async () => {
  await using t = await createTestApp();
  const sw = FREE[0];
  const picks = [sw.id, ...NINE];
  const paidCart = ok(await addTester(t, picks));
  const orderNumber = await payCart(t, paidCart.id);
  const held = ok(await addTester(t, picks));
  const mixed = ok(
    await t.request(`/api/cart/add?itemId=1&cartId=${held.id}`, {
      method: "POST",
    }),
  );
  assert.equal(mixed.lineCount, 2);
  assert.ok((await publicSwitchIds(t)).includes(sw.id));

  const retired = ok(await patch(t, "switches", sw.id, { retired: true }));
  assert.equal(retired.retired, true);
  assert.ok(!(await publicSwitchIds(t)).includes(sw.id), "gone from /api/switches");
  assert.equal((await adminSwitch(t, sw.id)).retired, true, "still listed for the owner");

  const cart = ok(await t.request(`/api/cart/${held.id}`));
  const line = cart.items.find((i: { item: { kind: string } }) => i.item.kind === "custom").item;
  assert.equal(line.available, false);
  assert.equal(
    line.unavailableReason,
    `${sw.brand} ${sw.name} is no longer sold; choose another switch.`,
  );
  const other = cart.items.find((i: { item: { kind: string } }) => i.item.kind === "product").item;
  assert.equal(other.unavailableReason, null);
  assert.equal(other.available, true);

  const add = await addTester(t, picks);
  assert.equal(add.status, 409, add.text);
  assert.match(add.json.error, new RegExp(`${sw.name} is no longer sold`));
  const more = await t.request(`/api/cart/${held.id}/items/${line.id}?quantity=2`, {
    method: "PUT",
  });
  assert.equal(more.status, 409, more.text);
  const checkout = await t.request(`/api/cart/${held.id}/checkout/us`, { method: "POST" });
  assert.equal(checkout.status, 409, checkout.text);
  assert.match(checkout.json.error, /no longer sold.*remove it from your cart/i);
  // Removing the line lets the rest be bought.
  const removed = await t.request(`/api/cart/${held.id}/items/${line.id}`, { method: "DELETE" });
  assert.equal(removed.status, 200, removed.text);
  const rest = await t.request(`/api/cart/${held.id}/checkout/us`, { method: "POST" });
  assert.equal(rest.status, 200, rest.text);

  const order = ok(await t.request(`/api/orders/${orderNumber}`));
  assert.ok(order.items[0].switches.some((s: { id: number }) => s.id === sw.id));
  assert.equal(order.items[0].switches.find((s: { id: number }) => s.id === sw.id).name, sw.name);

  // Restored, it is sold again.
  t.clock.advance(1000);
  const restored = ok(await patch(t, "switches", sw.id, { retired: false }));
  assert.equal(restored.retired, false);
  assert.ok((await publicSwitchIds(t)).includes(sw.id));
  assert.equal((await addTester(t, picks)).status, 200);
  const history = ok(await admin(t, "/api/admin/catalog/history"));
  assert.deepEqual(history.slice(0, 2).map((e: { action: string }) => e.action), [
    "restored",
    "retired",
  ]);
});

Deno.test("a switch in a pack cannot be retired until the pack no longer holds it", async () => {
  await using t = await createTestApp();
  const inPack = STARTER.switchIds[0];
  const res = await patch(t, "switches", inPack, { retired: true });
  assert.equal(res.status, 409, res.text);
  assert.match(res.json.error, /Starter Pack/);
  assert.equal((await adminSwitch(t, inPack)).retired, false);
  const replaced = [FREE[0].id, ...STARTER.switchIds.slice(1)];
  ok(await patch(t, "packs", STARTER.id, { switchIds: replaced }));
  // Still in another pack?
  const holders = PACKS.filter((p) => p.id !== STARTER.id && p.switchIds.includes(inPack));
  const again = await patch(t, "switches", inPack, { retired: true });
  assert.equal(again.status, holders.length > 0 ? 409 : 200, again.text);
});

// ---------------------------------------------------------------------------------------------
// Packs and items

Deno.test("PATCH a pack: page, list, products, availability and carts follow; +$2.00 with keycaps", async () => {
  await using t = await createTestApp();
  // Warm every cached answer first: an edit must rebuild them.
  for (const path of ["/api/packs", "/api/products", `/api/packs/${STARTER.slug}`]) {
    ok(await t.request(path));
  }
  const cart = ok(
    await t.request(`/api/cart/add?itemId=${STARTER.idWithKeycaps}`, {
      method: "POST",
    }),
  );
  assert.equal(cart.items[0].item.priceCents, 1199);

  const admins = ok(await admin(t, "/api/admin/catalog/packs"));
  assert.deepEqual(admins.map((p: { id: number }) => p.id), PACKS.map((p) => p.id));
  const newIds = [FREE[0].id, ...STARTER.switchIds.slice(1)];
  const edited = ok(
    await patch(t, "packs", STARTER.id, {
      title: "Beginner Pack",
      description: "Ten switches to start with.",
      price: 12.5,
      switchIds: newIds,
      version: admins[0].version,
    }),
  );
  assert.equal(edited.title, "Beginner Pack");
  assert.equal(edited.description, "Ten switches to start with.");
  assert.equal(edited.basePrice, 12.5);
  assert.equal(edited.basePriceCents, 1250);
  assert.equal(edited.priceWithKeycapsCents, 1450);
  assert.equal(edited.priceWithKeycaps, 14.5);
  assert.deepEqual(edited.switchIds, newIds);
  assert.equal(edited.onSale, true);
  assert.notEqual(edited.version, admins[0].version);

  const page = ok(await t.request(`/api/packs/${STARTER.slug}`));
  assert.equal(page.title, "Beginner Pack");
  assert.equal(page.description, "Ten switches to start with.");
  assert.equal(page.basePrice, 12.5);
  assert.equal(page.priceWithKeycapsCents, 1450);
  assert.equal(page.onSale, true);
  assert.deepEqual(page.switches.map((s: { id: number }) => s.id), newIds);

  const packs = ok(await t.request("/api/packs"));
  assert.equal(packs.length, PACKS.length);
  assert.deepEqual(packs.map((p: { slug: string }) => p.slug), PACKS.map((p) => p.slug));
  assert.deepEqual(packs[0], page);

  const products = ok(await t.request("/api/products"));
  const plain = products.find((p: { id: number }) => p.id === STARTER.id);
  const withKeycaps = products.find((p: { id: number }) => p.id === STARTER.idWithKeycaps);
  assert.equal(plain.name, "Beginner Pack");
  assert.equal(plain.price, 12.5);
  assert.equal(plain.onSale, true);
  assert.equal(withKeycaps.name, "Beginner Pack with transparent keycaps");
  assert.equal(withKeycaps.price, 14.5);

  // The cart prices the pack anew and says so.
  const held = ok(await t.request(`/api/cart/${cart.id}`));
  assert.equal(held.items[0].item.name, "Beginner Pack with transparent keycaps");
  assert.equal(held.items[0].item.priceCents, 1450);
  assert.equal(held.items[0].item.priceChangedFrom, 11.99);

  // Its bill of materials follows: the new switch out of stock makes the pack unavailable.
  await setStock(t, switchKey(FREE[0].id), 0);
  const availability = ok(await t.request(`/api/testers/${STARTER.id}/availability`));
  assert.equal(availability.available, false);
  const add = await t.request(`/api/cart/add?itemId=${STARTER.id}`, { method: "POST" });
  assert.equal(add.status, 409, add.text);
  assert.match(add.json.error, new RegExp(FREE[0].name));
});

Deno.test("PATCH a pack: its switches must be ten known, unretired, different ones", async () => {
  await using t = await createTestApp();
  const retired = FREE[0];
  ok(await patch(t, "switches", retired.id, { retired: true }));
  const base = STARTER.switchIds;
  const cases: [string, unknown, RegExp][] = [
    ["nine", base.slice(1), /exactly 10/],
    ["eleven", [...base, FREE[1].id], /exactly 10/],
    ["a repeat", [...base.slice(1), base[1]], /10 different/],
    ["an unknown id", [...base.slice(1), 998], /no switch with id 998/],
    ["a retired one", [...base.slice(1), retired.id], /retired/],
    ["text", "all", /switchIds/],
    ["fractions", [...base.slice(1), 1.5], /switchIds/],
  ];
  for (const [label, switchIds, message] of cases) {
    const res = await patch(t, "packs", STARTER.id, { switchIds });
    assert.equal(res.status, 400, `${label}: ${res.text}`);
    assert.match(res.json.error, message, label);
    assert.equal(res.json.issues[0].path.split(".")[0], "switchIds", label);
  }
  const page = ok(await t.request(`/api/packs/${STARTER.slug}`));
  assert.deepEqual(page.switches.map((s: { id: number }) => s.id), base);
  // A pack is edited by its id without keycaps; other ids are 404s that say which ids work.
  const withKeycaps = await patch(t, "packs", STARTER.idWithKeycaps, { price: 5 });
  assert.equal(withKeycaps.status, 404, withKeycaps.text);
  assert.match(withKeycaps.json.error, /without keycaps \(384, 380, 31, 386, 382, 33\)/);
  assert.equal((await patch(t, "packs", 1, { price: 5 })).status, 404);
});

Deno.test("a pack taken off sale: not listed, not addable, lines unavailable; its page says so", async () => {
  await using t = await createTestApp();
  ok(await t.request("/api/packs"));
  const cart = ok(await t.request(`/api/cart/add?itemId=${STARTER.id}`, { method: "POST" }));
  const off = ok(await patch(t, "packs", STARTER.id, { onSale: false }));
  assert.equal(off.onSale, false);

  const packs = ok(await t.request("/api/packs"));
  assert.ok(!packs.some((p: { id: number }) => p.id === STARTER.id));
  assert.equal(packs.length, PACKS.length - 1);
  const products = ok(await t.request("/api/products"));
  assert.ok(!products.some((p: { id: number }) => p.id === STARTER.id));
  assert.ok(!products.some((p: { id: number }) => p.id === STARTER.idWithKeycaps));
  const page = ok(await t.request(`/api/packs/${STARTER.slug}`));
  assert.equal(page.onSale, false);
  for (const id of [STARTER.id, STARTER.idWithKeycaps]) {
    assert.equal((ok(await t.request(`/api/testers/${id}/availability`))).available, false);
    const add = await t.request(`/api/cart/add?itemId=${id}`, { method: "POST" });
    assert.equal(add.status, 409, add.text);
    assert.match(add.json.error, /no longer sold/);
  }
  const held = ok(await t.request(`/api/cart/${cart.id}`));
  assert.equal(held.items[0].item.available, false);
  assert.equal(held.items[0].item.unavailableReason, "Starter Pack is no longer sold.");
  const checkout = await t.request(`/api/cart/${cart.id}/checkout/us`, { method: "POST" });
  assert.equal(checkout.status, 409, checkout.text);

  ok(await patch(t, "packs", STARTER.id, { onSale: true }));
  assert.equal((ok(await t.request("/api/packs"))).length, PACKS.length);
  assert.equal((ok(await t.request(`/api/cart/${cart.id}`))).items[0].item.available, true);
});

Deno.test("PATCH an item: name, price and on sale follow in products, carts and availability", async () => {
  await using t = await createTestApp();
  const items = ok(await admin(t, "/api/admin/catalog/items"));
  assert.deepEqual(items.map((i: { id: number }) => i.id), [1, 2]);
  assert.deepEqual(Object.keys(items[0]).sort(), [
    "id",
    "image",
    "imageUrl",
    "name",
    "onSale",
    "price",
    "priceCents",
    "version",
  ]);
  const cart = ok(await t.request("/api/cart/add?itemId=1", { method: "POST" }));
  const edited = ok(await patch(t, "items", 1, { name: "Layout Tester Pro", price: 8.49 }));
  assert.equal(edited.name, "Layout Tester Pro");
  assert.equal(edited.price, 8.49);
  assert.equal(edited.priceCents, 849);
  assert.equal(edited.onSale, true);
  const product = (ok(await t.request("/api/products")))
    .find((p: { id: number }) => p.id === 1);
  assert.equal(product.name, "Layout Tester Pro");
  assert.equal(product.price, 8.49);
  const held = ok(await t.request(`/api/cart/${cart.id}`));
  assert.equal(held.items[0].item.priceCents, 849);
  assert.equal(held.items[0].item.priceChangedFrom, 7.99);
  assert.equal(held.subtotalCents, 849);
  // Adding more is taking today's price: the note goes.
  const more = ok(
    await t.request(`/api/cart/add?itemId=1&cartId=${cart.id}`, {
      method: "POST",
    }),
  );
  assert.equal(more.items[0].item.priceChangedFrom, null);
  assert.equal(more.items[0].quantity, 2);

  ok(await patch(t, "items", 2, { onSale: false }));
  const products = ok(await t.request("/api/products"));
  assert.ok(!products.some((p: { id: number }) => p.id === 2));
  assert.equal((ok(await t.request("/api/items/2/availability"))).available, false);
  const add = await t.request("/api/cart/add?itemId=2", { method: "POST" });
  assert.equal(add.status, 409, add.text);
  assert.equal(add.json.error, "Fidget Cube Case is no longer sold.");
  // Packs are no items; unknown ids are 404.
  assert.equal((await patch(t, "items", STARTER.id, { price: 1 })).status, 404);
  assert.equal((await patch(t, "items", 3, { price: 1 })).status, 404);
});

Deno.test("a paid order keeps the price it was created at when the pack price changes", async () => {
  await using t = await createTestApp();
  const cart = ok(await t.request(`/api/cart/add?itemId=${STARTER.id}`, { method: "POST" }));
  const orderNumber = await payCart(t, cart.id);
  ok(await patch(t, "packs", STARTER.id, { price: 15, title: "Starter Pack II" }));
  const order = ok(await t.request(`/api/orders/${orderNumber}`));
  assert.equal(order.items[0].priceCents, 999);
  assert.equal(order.items[0].name, "Starter Pack");
  assert.equal(order.subtotal, 9.99);
});

// ---------------------------------------------------------------------------------------------
// History, stale and concurrent edits, bad input

Deno.test("GET /api/admin/catalog/history: every edit, newest first, with old and new values", async () => {
  await using t = await createTestApp();
  const created = await createSwitch(t);
  t.clock.advance(1000);
  ok(await patch(t, "switches", created.id, { extraPrice: 1.5, stock: 12 }));
  t.clock.advance(1000);
  ok(await patch(t, "packs", STARTER.id, { price: 11 }));
  t.clock.advance(1000);
  ok(await patch(t, "items", 2, { onSale: false }));
  t.clock.advance(1000);
  ok(await patch(t, "items", 2, { onSale: false })); // no change: no entry

  const history = ok(await admin(t, "/api/admin/catalog/history"));
  assert.equal(history.length, 4);
  assert.deepEqual(
    history.map((e: { kind: string; action: string }) => `${e.kind} ${e.action}`),
    ["item updated", "pack updated", "switch updated", "switch created"],
  );
  const [item, pack, edit, creation] = history;
  assert.deepEqual(Object.keys(item).sort(), [
    "action",
    "at",
    "changes",
    "id",
    "kind",
    "label",
    "names",
    "target",
  ]);
  assert.equal(item.target, "2");
  assert.equal(item.label, "Fidget Cube Case");
  assert.deepEqual(item.changes, [{ field: "onSale", from: true, to: false }]);
  assert.equal(pack.label, "Starter Pack");
  assert.deepEqual(pack.changes, [{ field: "price", from: 9.99, to: 11 }]);
  assert.equal(edit.target, String(created.id));
  assert.equal(edit.label, "Gateron Tidal Blue");
  assert.deepEqual(edit.changes, [
    { field: "extraPrice", from: 0.75, to: 1.5 },
    { field: "stock", from: 40, to: 12 },
  ]);
  assert.equal(creation.at, new Date(t.clock.now() - 4000).toISOString());
  assert.deepEqual(
    creation.changes.find((c: { field: string }) => c.field === "extraPrice"),
    { field: "extraPrice", from: null, to: 0.75 },
  );
  assert.deepEqual(
    creation.changes.find((c: { field: string }) => c.field === "stock"),
    { field: "stock", from: null, to: 40 },
  );
  // A pack's switches are recorded whole.
  ok(
    await patch(t, "packs", STARTER.id, {
      switchIds: [FREE[0].id, ...STARTER.switchIds.slice(1)],
    }),
  );
  const [swap] = ok(await admin(t, "/api/admin/catalog/history"));
  assert.deepEqual(swap.changes, [{
    field: "switchIds",
    from: STARTER.switchIds,
    to: [FREE[0].id, ...STARTER.switchIds.slice(1)],
  }]);
});

Deno.test("the history names a pack's switches as they were called then, else now, else removed", async () => {
  await using t = await createTestApp();
  const [oldId, newId] = [STARTER.switchIds[0], FREE[0].id];
  const [oldSwitch, newSwitch] = [oldId, newId].map((id) => SWITCHES.find((s) => s.id === id)!);
  ok(await patch(t, "packs", STARTER.id, { switchIds: [newId, ...STARTER.switchIds.slice(1)] }));
  // Renamed afterwards: the history keeps the name the owner saw when swapping.
  ok(await patch(t, "switches", newId, { name: "Renamed Later" }));
  const history = ok(await admin(t, "/api/admin/catalog/history"));
  const swap = history.find((e: { kind: string }) => e.kind === "pack");
  assert.equal(swap.names[oldId], `${oldSwitch.brand} ${oldSwitch.name}`);
  assert.equal(swap.names[newId], `${newSwitch.brand} ${newSwitch.name}`);
  assert.equal(Object.keys(swap.names).length, 11, "every switch before and after is named");

  // An edit recorded before names were kept (and before the audit log, which the migration moves
  // it into): current names, and a switch no longer stored says so.
  const at = t.clock.now() + 1;
  await t.kv.set(keys.edit(at, "legacy1"), {
    id: "legacy1",
    at,
    kind: "pack",
    target: String(STARTER.id),
    action: "updated",
    changes: [{ field: "switchIds", from: [newId, 999_001], to: [oldId, 999_001] }],
  });
  await moveEditsToAudit(t.kv);
  const [old] = ok(await admin(t, "/api/admin/catalog/history"));
  assert.equal(old.label, "Starter Pack", "the pack's current title when none was kept");
  assert.deepEqual(old.names, {
    [newId]: `${newSwitch.brand} Renamed Later`,
    [oldId]: `${oldSwitch.brand} ${oldSwitch.name}`,
    "999001": "switch #999001 (removed)",
  });
});

Deno.test("an edit made on a stale version is a 409 that says so; without version the last write wins", async () => {
  await using t = await createTestApp();
  const cases: [string, number, Record<string, unknown>, Record<string, unknown>, string][] = [
    ["switches", FREE[0].id, { extraPrice: 0.3 }, { name: "Stale" }, "switch"],
    ["packs", STARTER.id, { price: 10.5 }, { title: "Stale" }, "pack"],
    ["items", 1, { price: 8.5 }, { name: "Stale" }, "item"],
  ];
  for (const [kind, id, first, second, word] of cases) {
    const list = ok(await admin(t, `/api/admin/catalog/${kind}`));
    const read = list.find((r: { id: number }) => r.id === id);
    const saved = ok(await patch(t, kind, id, { ...first, version: read.version }));
    assert.notEqual(saved.version, read.version);
    const stale = await patch(t, kind, id, { ...second, version: read.version });
    assert.equal(stale.status, 409, stale.text);
    assert.equal(
      stale.json.error,
      `This ${word} was changed meanwhile by someone else. Reload to see the current values.`,
    );
    const current = (ok(await admin(t, `/api/admin/catalog/${kind}`)))
      .find((r: { id: number }) => r.id === id);
    assert.equal(current.version, saved.version, `${kind}: the stale edit changed nothing`);
    // With the current version, or none, it goes through.
    ok(await patch(t, kind, id, { ...second, version: saved.version }));
    ok(await patch(t, kind, id, first));
  }
});

Deno.test("concurrent edits of different fields are all kept, on one instance and across instances", async () => {
  await using t = await createTestApp();
  const sw = FREE[0];
  await Promise.all([
    patch(t, "switches", sw.id, { name: "Both Kept" }),
    patch(t, "switches", sw.id, { extraPrice: 0.25 }),
    patch(t, "switches", sw.id, { stock: 3 }),
    patch(t, "packs", STARTER.id, { title: "Concurrent" }),
    patch(t, "packs", STARTER.id, { price: 10 }),
  ]).then((all) => all.forEach((res) => assert.equal(res.status, 200, res.text)));
  const after = await adminSwitch(t, sw.id);
  assert.equal(after.name, "Both Kept");
  assert.equal(after.extraPrice, 0.25);
  assert.equal(after.stock, 3);
  const page = ok(await t.request(`/api/packs/${STARTER.slug}`));
  assert.equal(page.title, "Concurrent");
  assert.equal(page.basePrice, 10);

  // Isolates share no locks: their writes race and each re-reads and retries on a conflict.
  await using shop = await createInstances({ instances: 2, latency: { readMs: 2, commitMs: 4 } });
  const cookie = await adminCookie(shop.instances[0]);
  const send = (i: number, id: number, body: Record<string, unknown>) =>
    shop.request(i, `/api/admin/catalog/switches/${id}`, {
      method: "PATCH",
      body,
      headers: { Cookie: cookie },
    });
  const targets = FREE.slice(0, 5);
  const answers = await Promise.all(targets.flatMap((s, n) => [
    send(0, s.id, { name: `Edited ${n}` }),
    send(1, s.id, { extraPrice: 0.1 + n / 100, retired: true }),
  ]));
  for (const res of answers) assert.equal(res.status, 200, res.text);
  for (const [n, s] of targets.entries()) {
    const stored = (await shop.kv.get<SwitchRecord>(keys.switch(s.id))).value!;
    assert.equal(stored.name, `Edited ${n}`);
    assert.equal(stored.extraPriceCents, 10 + n);
    assert.equal(stored.retired, true);
  }
});

Deno.test("bad input is a 400 naming the field; unknown ids are 404", async () => {
  await using t = await createTestApp();
  // Signed in first: signing in writes its own audit entry, and no refused edit may write one.
  await admin(t, "/api/admin/catalog/switches");
  const before = await snapshot(t.kv, SIGN_IN_RECORDS);
  const post = (body: Record<string, unknown>) =>
    admin(t, "/api/admin/catalog/switches", { method: "POST", body });
  const cases: [string, Promise<Awaited<ReturnType<TestApp["request"]>>>, string][] = [
    ["no name", post({ ...NEW_SWITCH, name: "" }), "name"],
    ["name missing", post({ ...NEW_SWITCH, name: undefined }), "name"],
    ["force as a number", post({ ...NEW_SWITCH, force: 55 }), "force"],
    ["force without grams", post({ ...NEW_SWITCH, force: "heavy" }), "force"],
    ["force too heavy", post({ ...NEW_SWITCH, force: "900g" }), "force"],
    ["unknown type", post({ ...NEW_SWITCH, type: "mushy" }), "type"],
    ["three decimals", post({ ...NEW_SWITCH, extraPrice: 0.125 }), "extraPrice"],
    ["price as text", post({ ...NEW_SWITCH, extraPrice: "0.75" }), "extraPrice"],
    ["a tester below nothing", post({ ...NEW_SWITCH, extraPrice: -5 }), "extraPrice"],
    ["not a link", post({ ...NEW_SWITCH, referralLink: "javascript:alert(1)" }), "referralLink"],
    ["negative stock", post({ ...NEW_SWITCH, stock: -1 }), "stock"],
    ["an unknown field", post({ ...NEW_SWITCH, color: "#ff0000" }), ""],
    ["retired as text", patch(t, "switches", FREE[0].id, { retired: "yes" }), "retired"],
    ["negative pack price", patch(t, "packs", STARTER.id, { price: -1 }), "price"],
    ["pack price in cents", patch(t, "packs", STARTER.id, { price: 9.999 }), "price"],
    ["empty title", patch(t, "packs", STARTER.id, { title: " " }), "title"],
    ["onSale as text", patch(t, "packs", STARTER.id, { onSale: "no" }), "onSale"],
    ["negative item price", patch(t, "items", 1, { price: -0.01 }), "price"],
    ["item description", patch(t, "items", 1, { description: "x" }), ""],
  ];
  for (const [label, sent, field] of cases) {
    const res = await sent;
    assert.equal(res.status, 400, `${label}: ${res.text}`);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    assert.equal(typeof res.json.error, "string");
    assert.equal(res.json.issues[0].path, field, `${label}: ${res.text}`);
    if (field) assert.match(res.json.error, new RegExp(field), label);
  }
  for (const [kind, id] of [["switches", 998], ["packs", 999], ["items", 77]] as const) {
    const res = await patch(t, kind, id, {});
    assert.equal(res.status, 404, `${kind}: ${res.text}`);
    assert.equal(typeof res.json.error, "string");
  }
  assert.equal((await patch(t, "switches", -3, {})).status, 400);
  assert.deepEqual(
    changedKeys(before, await snapshot(t.kv, SIGN_IN_RECORDS)),
    [],
  );
});

// ---------------------------------------------------------------------------------------------
// KV is the truth: restarts and migrations

Deno.test("a restart on the same KV file keeps every edit", async () => {
  const dir = await Deno.makeTempDir({ prefix: "catalog-restart-" });
  const path = `${dir}/shop.kv`;
  try {
    const first = await Deno.openKv(path);
    let createdId = 0;
    try {
      await using t = await createTestApp({ kv: first });
      createdId = (await createSwitch(t)).id;
      ok(await patch(t, "switches", createdId, { extraPrice: 1.25 }));
      ok(await patch(t, "switches", FREE[0].id, { retired: true }));
      ok(await patch(t, "packs", STARTER.id, { title: "Kept Pack", price: 13 }));
      ok(await patch(t, "packs", PACKS[1].id, { onSale: false }));
      ok(await patch(t, "items", 1, { name: "Kept Item", price: 6.5 }));
    } finally {
      first.close();
    }

    const second = await Deno.openKv(path);
    try {
      // createTestApp seeds again, as every start does.
      await using t = await createTestApp({ kv: second });
      const added = await adminSwitch(t, createdId);
      assert.equal(added.name, "Tidal Blue");
      assert.equal(added.extraPrice, 1.25);
      assert.equal(added.stock, 40);
      const ids = await publicSwitchIds(t);
      assert.ok(ids.includes(createdId));
      assert.ok(!ids.includes(FREE[0].id), "still retired");
      assert.equal((await adminSwitch(t, FREE[0].id)).retired, true);
      const page = ok(await t.request(`/api/packs/${STARTER.slug}`));
      assert.equal(page.title, "Kept Pack");
      assert.equal(page.basePrice, 13);
      assert.equal(page.priceWithKeycapsCents, 1500);
      const packs = ok(await t.request("/api/packs"));
      assert.ok(!packs.some((p: { id: number }) => p.id === PACKS[1].id));
      const item = (ok(await t.request("/api/products")))
        .find((p: { id: number }) => p.id === 1);
      assert.equal(item.name, "Kept Item");
      assert.equal(item.price, 6.5);
      assert.equal((ok(await admin(t, "/api/admin/catalog/history"))).length, 6);
    } finally {
      second.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Writes a store as the version before the owner's catalogue made it (see migrations.ts, 3). */
async function previousShapeStore(t: TestApp): Promise<void> {
  const op = t.kv.atomic();
  for (const { initialStock: _, ...sw } of SWITCHES) op.set(keys.switch(sw.id), sw);
  await op.commit();
  const products = t.kv.atomic();
  for (const { onSale: _, ...product } of PRODUCTS) products.set(keys.product(product.id), product);
  await products.commit();
  await seedStock(t.kv, t.clock);
  for (const marker of ["1-stock-reserved", "2-promo-limits"]) {
    await t.kv.set(keys.migration(marker), { at: t.clock.now() });
  }
  // What the owner had changed by hand, which the migration must keep.
  const starter = PRODUCTS.find((p) => p.id === STARTER.id)!;
  const { onSale: _, ...plain } = starter;
  await t.kv.set(keys.product(STARTER.id), { ...plain, priceCents: 1299 });
  const sw = SWITCHES[0];
  const { initialStock: __, ...record } = sw;
  await t.kv.set(keys.switch(sw.id), { ...record, extraPriceCents: 77 });
  await t.kv.set(keys.stock(switchKey(sw.id)), { stock: 3, reserved: 1, used: 9 });
}

Deno.test("migration 3 brings a store of the previous shape to the owner's catalogue, once, losing nothing", async () => {
  await using t = await createTestApp({ seed: false });
  await previousShapeStore(t);
  assert.equal((await t.kv.get(keys.pack(STARTER.id))).versionstamp, null);

  await seedKv(t.kv, t.clock);

  for (const sw of SWITCHES) {
    const stored = (await t.kv.get<SwitchRecord>(keys.switch(sw.id))).value!;
    assert.equal(stored.retired, false, `${sw.id}`);
  }
  assert.equal(
    (await t.kv.get<SwitchRecord>(keys.switch(SWITCHES[0].id))).value!.extraPriceCents,
    77,
  );
  assert.deepEqual((await t.kv.get(keys.stock(switchKey(SWITCHES[0].id)))).value, {
    stock: 3,
    reserved: 1,
    used: 9,
  });
  for (const product of PRODUCTS) {
    const stored = (await t.kv.get<ProductRecord>(keys.product(product.id))).value!;
    assert.equal(stored.onSale, true, `${product.id}`);
    assert.deepEqual(stored.bom, product.bom, `${product.id}: the bill of materials is data`);
  }
  assert.equal((await t.kv.get<ProductRecord>(keys.product(STARTER.id))).value!.priceCents, 1299);
  for (const [position, pack] of PACKS.entries()) {
    const stored = (await t.kv.get<PackRecord>(keys.pack(pack.id))).value!;
    assert.equal(stored.title, pack.title);
    assert.equal(stored.description, pack.description);
    assert.deepEqual(stored.switchIds, pack.switchIds);
    assert.equal(stored.onSale, true);
    assert.equal(stored.position, position);
  }
  assert.ok((await t.kv.get(keys.migration("3-catalogue-owned"))).versionstamp);
  const page = ok(await t.request(`/api/packs/${STARTER.slug}`));
  assert.equal(page.basePrice, 12.99);
  assert.equal(page.title, "Starter Pack");

  // Applied once: another start (and edits since) change nothing.
  ok(await patch(t, "packs", STARTER.id, { title: "Owner's Title" }));
  const before = await snapshot(t.kv, SIGN_IN_RECORDS);
  await seedKv(t.kv, t.clock);
  assert.deepEqual(
    changedKeys(before, await snapshot(t.kv, SIGN_IN_RECORDS)),
    [],
  );
});

Deno.test("a fresh store is seeded in the new shape: packs, on sale, the bill of materials as data", async () => {
  await using t = await createTestApp();
  const packs = ok(await admin(t, "/api/admin/catalog/packs"));
  assert.deepEqual(packs.map((p: { slug: string }) => p.slug), PACKS.map((p) => p.slug));
  for (const [i, pack] of PACKS.entries()) {
    assert.equal(packs[i].title, pack.title);
    assert.deepEqual(packs[i].switchIds, pack.switchIds);
    assert.equal(packs[i].basePrice, 9.99);
    assert.equal(packs[i].priceWithKeycaps, 11.99);
  }
  const layout = (await t.kv.get<ProductRecord>(keys.product(1))).value!;
  assert.deepEqual(layout.bom, { kind: "layout-tester" });
  assert.equal(layout.onSale, true);
  assert.ok((await t.kv.get(keys.migration("3-catalogue-owned"))).versionstamp);
});
