import assert from "node:assert/strict";
import { createTestApp, TEST_ADMIN_PASSWORD } from "../helpers/test_app.ts";
import { gunzipSync } from "node:zlib";
import { asciiJson } from "../../server/routes/catalog.ts";
import { keys } from "../../server/kv/keys.ts";
import { TRUST_MS } from "../../server/kv/version.ts";
import { switchKey } from "../../shared/bom.ts";

const admin = { Authorization: `Bearer ${TEST_ADMIN_PASSWORD}` };

Deno.test("GET /api/switches: ETag, 304 on If-None-Match, gzip for browsers", async () => {
  await using t = await createTestApp();
  const first = await t.app.request("/api/switches");
  const etag = first.headers.get("etag");
  assert.ok(etag, "an ETag is sent");
  assert.match(first.headers.get("cache-control") ?? "", /no-cache/);
  const plain = await first.json();
  const again = await t.app.request("/api/switches", { headers: { "If-None-Match": etag } });
  assert.equal(again.status, 304);
  assert.equal(await again.text(), "");

  const zipped = await t.app.request("/api/switches", { headers: { "Accept-Encoding": "gzip" } });
  assert.equal(zipped.headers.get("content-encoding"), "gzip");
  assert.match(zipped.headers.get("vary") ?? "", /Accept-Encoding/);
  const bytes = new Uint8Array(await zipped.arrayBuffer());
  assert.deepEqual(JSON.parse(new TextDecoder().decode(gunzipSync(bytes))), plain);
});

Deno.test("a stock change is never hidden by the cache: the ETag and availability follow", async () => {
  await using t = await createTestApp();
  const first = await t.app.request("/api/switches");
  const etag = first.headers.get("etag")!;
  const before = (await first.json()).find((s: { id: number }) => s.id === 101);
  assert.equal(before.available, true);
  const put = await t.request("/api/admin/inventory/switches/101", {
    method: "PUT",
    body: { stock: 0 },
    headers: admin,
  });
  assert.equal(put.status, 200);
  const after = await t.app.request("/api/switches", { headers: { "If-None-Match": etag } });
  assert.equal(after.status, 200, "the old ETag no longer matches");
  assert.notEqual(after.headers.get("etag"), etag);
  const sw = (await after.json()).find((s: { id: number }) => s.id === 101);
  assert.equal(sw.available, false);
});

Deno.test("a checkout's reservation updates product availability at once", async () => {
  await using t = await createTestApp();
  const products = async () =>
    (await (await t.app.request("/api/products")).json()).find((p: { id: number }) => p.id === 1);
  assert.equal((await products()).available, true);
  await t.request("/api/admin/inventory/components/SMALL_BOX", {
    method: "PUT",
    body: { stock: 1 },
    headers: admin,
  });
  const cart = await t.request("/api/cart/add?itemId=1", { method: "POST" });
  assert.equal(
    (await t.request(`/api/cart/${cart.json.id}/checkout/us`, { method: "POST" })).status,
    200,
  );
  assert.equal((await products()).available, false, "the last box is held by the checkout");
});

Deno.test("the switch list is pure ASCII and parses to the same names (C³Equalz)", async () => {
  await using t = await createTestApp();
  const res = await t.app.request("/api/switches");
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.ok(bytes.every((b) => b < 128), "every byte is ASCII");
  const list = JSON.parse(new TextDecoder().decode(bytes));
  assert.ok(list.some((s: { brand: string }) => s.brand.includes("C³Equalz")));
  assert.equal(asciiJson({ a: "³ 😀" }), '{"a":"\\u00b3 \\ud83d\\ude00"}');
  assert.deepEqual(JSON.parse(asciiJson({ a: "³ 😀" })), { a: "³ 😀" });
});

Deno.test("a stock write by another process (no shop writer here) shows within the trust window", async () => {
  await using t = await createTestApp();
  const available = async () =>
    (await (await t.app.request("/api/switches")).json()).find((s: { id: number }) => s.id === 101)
      .available;
  assert.equal(await available(), true);
  // What another isolate or process does: the same atomic write, but this process is not told.
  await t.kv.atomic().set(keys.stock(switchKey(101)), { stock: 0, reserved: 0, used: 0 })
    .set(keys.stockVersion(), t.clock.now()).commit();
  t.clock.advance(TRUST_MS - 1);
  assert.equal(await available(), true, "a read within the trust window is trusted");
  t.clock.advance(2);
  assert.equal(await available(), false, "seen once the trusted read has aged out");
});

Deno.test("GET /api/switches lists the spec's switch fields and nothing derivable", async () => {
  await using t = await createTestApp();
  const list = await (await t.app.request("/api/switches")).json();
  for (const sw of list) {
    assert.deepEqual(Object.keys(sw).sort(), [
      "available",
      "brand",
      "extraPrice",
      "force",
      "id",
      "image",
      "name",
      "referralLink",
      "type",
    ]);
  }
});
