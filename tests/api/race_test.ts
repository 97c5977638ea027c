import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers/test_app.ts";
import { keys } from "../../server/kv/keys.ts";
import { switchKey } from "../../shared/bom.ts";
import { newPackCart, STARTER, stockCounts } from "../helpers/shop_fixtures.ts";

function stock(t: TestApp, key: Parameters<typeof keys.stock>[0]) {
  return stockCounts(t.kv, key);
}

for (const k of [0, 1, 7]) {
  Deno.test(`50 concurrent checkouts for the last ${k} units give exactly ${k} orders`, async () => {
    await using t = await createTestApp();
    const carts = await Promise.all(Array.from({ length: 50 }, () => newPackCart(t)));
    const key = switchKey(STARTER.switchIds[3]);
    await t.writeStock(key, { ...(await stock(t, key)), stock: k });
    const results = await Promise.all(
      carts.map((id, i) =>
        t.request(`/api/cart/${id}/checkout/us`, { method: "POST", client: `127.0.0.${i + 2}` })
      ),
    );
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, k);
    assert.equal(statuses.filter((s) => s === 409).length, 50 - k, "every other one is told why");
    assert.deepEqual(await stock(t, key), { stock: k, reserved: k, used: 0 }, "held exactly");
  });
}

Deno.test("50 concurrent checkouts with enough stock all succeed: no 5xx under contention", async () => {
  await using t = await createTestApp();
  const carts = await Promise.all(Array.from({ length: 50 }, () => newPackCart(t)));
  for (const id of STARTER.switchIds) {
    await t.writeStock(switchKey(id), { stock: 100, reserved: 0, used: 0 });
  }
  const box = await stock(t, "SMALL_BOX");
  const results = await Promise.all(
    carts.map((id, i) =>
      t.request(`/api/cart/${id}/checkout/us`, { method: "POST", client: `127.0.0.${i + 2}` })
    ),
  );
  assert.deepEqual([...new Set(results.map((r) => r.status))], [200]);
  assert.equal((await stock(t, "SMALL_BOX")).reserved, box.reserved + 50);
});

Deno.test("concurrent adds, updates and removes on one cart leave it consistent", async () => {
  await using t = await createTestApp();
  const cartId = await newPackCart(t);
  await t.request(`/api/cart/add?itemId=1&cartId=${cartId}`, { method: "POST" });
  const ops = Array.from({ length: 60 }, (_, i) => {
    if (i % 3 === 0) {
      return t.request(`/api/cart/add?itemId=2&cartId=${cartId}`, { method: "POST" });
    }
    if (i % 3 === 1) {
      return t.request(`/api/cart/${cartId}/items/${STARTER.id}?quantity=${(i % 5) + 1}`, {
        method: "PUT",
      });
    }
    return t.request(`/api/cart/${cartId}/items/1?quantity=${i % 4}`, { method: "PUT" });
  });
  const results = await Promise.all(ops);
  for (const r of results) {
    assert.ok(r.status === 200 || r.status === 404 || r.status === 400, `${r.status} ${r.text}`);
  }
  const adds = results.filter((_, i) => i % 3 === 0).filter((r) => r.status === 200).length;
  const cart = (await t.request(`/api/cart/${cartId}`)).json;
  const caseLine = cart.items.find((l: { item: { id: string } }) => l.item.id === "2");
  assert.equal(caseLine.quantity, adds, "every successful add counted exactly once");
  const ids = cart.items.map((l: { item: { id: string } }) => l.item.id);
  assert.equal(new Set(ids).size, ids.length, "no duplicated lines");
  const sum = cart.items.reduce((n: number, l: { quantity: number }) => n + l.quantity, 0);
  assert.equal(cart.itemCount, sum);
});
