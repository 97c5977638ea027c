/**
 * GET /api/build-stock: what the configurators offer. Units on the shelf less those held by
 * unpaid checkouts, never negative; what a cart would use alongside; a 304 when nothing changed.
 */
import assert from "node:assert/strict";
import { adminCookie, createTestApp, type TestApp } from "../helpers/test_app.ts";
import { newPackCart, paidOrder, STARTER, startHostedCheckout } from "../helpers/shop_fixtures.ts";

async function buildStock(t: TestApp, query = "") {
  const res = await t.request(`/api/build-stock${query}`);
  assert.equal(res.status, 200, res.text);
  return res;
}

function unitsOf(view: { switches: { id: number; available: number }[] }, id: number) {
  return view.switches.find((s) => s.id === id)?.available;
}

Deno.test("build stock: shelf less unpaid holds, never negative; paid units leave the shelf", async () => {
  await using t = await createTestApp();
  const id = STARTER.switchIds[0];
  const cookie = await adminCookie(t);
  await t.request(`/api/admin/inventory/switches/${id}`, {
    method: "PUT",
    body: { stock: 3 },
    headers: { Cookie: cookie },
  });
  assert.equal(unitsOf((await buildStock(t)).json, id), 3);
  const small = (await buildStock(t)).json.components.find((c: { name: string }) =>
    c.name === "SMALL_BOX"
  );

  const held = await startHostedCheckout(t);
  assert.equal(unitsOf((await buildStock(t)).json, id), 2, "a held checkout takes a unit");
  assert.equal(
    (await buildStock(t)).json.components.find((c: { name: string }) => c.name === "SMALL_BOX")
      .available,
    small.available - 1,
  );
  await paidOrder(t);
  assert.equal(unitsOf((await buildStock(t)).json, id), 1, "sold");
  // The owner counts fewer than are held: the figure stops at 0.
  await t.request(`/api/admin/inventory/switches/${id}`, {
    method: "PUT",
    body: { stock: 0 },
    headers: { Cookie: cookie },
  });
  assert.equal(unitsOf((await buildStock(t)).json, id), 0);
  await t.request(`/api/admin/orders/${held.orderNumber}/cancel`, {
    method: "POST",
    headers: { Cookie: cookie },
  });
  assert.equal(unitsOf((await buildStock(t)).json, id), 0, "released onto an empty shelf");
});

Deno.test("build stock: a cart's own use, and a 304 for an unchanged answer", async () => {
  await using t = await createTestApp();
  const cartId = await newPackCart(t);
  const view = (await buildStock(t, `?cartId=${cartId}`)).json;
  assert.deepEqual(
    view.inCart.switches.map((s: { id: number }) => s.id).sort((a: number, b: number) => a - b),
    [...STARTER.switchIds].sort((a, b) => a - b),
  );
  assert.deepEqual(view.inCart.components, [{ name: "SMALL_BOX", units: 1 }]);
  assert.equal((await buildStock(t, "?cartId=unknown-cart")).json.inCart.switches.length, 0);

  const first = await buildStock(t);
  const etag = first.headers.get("etag")!;
  const again = await t.request("/api/build-stock", { headers: { "If-None-Match": etag } });
  assert.equal(again.status, 304);
  await startHostedCheckout(t);
  const changed = await t.request("/api/build-stock", { headers: { "If-None-Match": etag } });
  assert.equal(changed.status, 200, "a hold changes the figures");
});

Deno.test("build stock: concurrent shoppers see figures that add up", async () => {
  await using t = await createTestApp();
  const id = STARTER.switchIds[0];
  const before = unitsOf((await buildStock(t)).json, id)!;
  await Promise.all([2, 3, 4, 5].map(async (n) => {
    const client = `127.0.3.${n}`;
    const cart = await t.request(`/api/cart/add?itemId=${STARTER.id}`, { method: "POST", client });
    await t.request(`/api/cart/${cart.json.id}/checkout/us`, { method: "POST", client });
  }));
  assert.equal(unitsOf((await buildStock(t)).json, id), before - 4);
});

Deno.test("an impossible build is refused with the configurator's sentence", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  await t.request("/api/admin/inventory/components/LARGE_BOX", {
    method: "PUT",
    body: { stock: 0 },
    headers: { Cookie: cookie },
  });
  const view = (await buildStock(t)).json;
  const switches = view.switches.filter((s: { available: number }) => s.available > 0)
    .slice(0, 15).map((s: { id: number }) => ({ id: s.id }));
  const res = await t.request("/api/cart/add/tester", {
    method: "POST",
    body: { name: "Custom Switch Tester", size: 15, keycaps: "none", switches },
  });
  assert.equal(res.status, 409);
  assert.equal(
    res.json.error,
    "No large tester boxes are left, so the 15-switch tester cannot be made right now.",
  );
});

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): [number, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return [view.getUint32(16), view.getUint32(20)];
}

Deno.test("a shared build's preview is a 1200×630 PNG, for testers and cubes alike", async () => {
  await using t = await createTestApp();
  const ids = STARTER.switchIds.slice(0, 7).join(",");
  for (
    const query of [
      `size=15&keycaps=none&body=white&switches=${ids}`,
      "kind=cube&keycaps=pastel&body=black&switches=1,2,3",
      "switches=nonsense,<b>&size=99",
    ]
  ) {
    const res = await t.app.request(`/images/build.png?${query}`);
    assert.equal(res.status, 200, query);
    assert.equal(res.headers.get("content-type"), "image/png");
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.deepEqual([...bytes.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47], "PNG signature");
    assert.deepEqual(pngSize(bytes), [1200, 630], query);
  }
});
