/** The owner's tracking number is stored and linked as the carrier writes it. */
import assert from "node:assert/strict";
import { adminCookie, createTestApp, type TestApp } from "../helpers/test_app.ts";
import { paidOrder, shopperMails } from "../helpers/shop_fixtures.ts";
import { getOrder } from "../../server/orders/store.ts";

async function track(t: TestApp, cookie: string, orderNumber: string, trackingNumber: unknown) {
  return await t.request(`/api/admin/orders/${orderNumber}/tracking`, {
    method: "POST",
    body: { trackingNumber },
    headers: { Cookie: cookie },
  });
}

Deno.test("a number typed with spaces is stored, shown and linked without them", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const { orderNumber } = await paidOrder(t);
  const res = await track(t, cookie, orderNumber, " 9400 1000 0000 0000 0000 00 ");
  assert.equal(res.status, 200);
  assert.equal(res.json.trackingNumber, "9400100000000000000000");
  assert.equal((await getOrder(t.kv, orderNumber)).trackingNumber, "9400100000000000000000");

  const shopper = await t.request(`/api/orders/${orderNumber}`);
  assert.equal(
    shopper.json.trackingUrl,
    "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400100000000000000000",
  );
  assert.ok(!shopper.json.trackingUrl.includes("%20"));

  const ship = await t.request("/api/admin/orders/ship-processed", {
    method: "POST",
    headers: { Cookie: cookie },
  });
  assert.deepEqual(ship.json, { shippedCount: 1 });
  await t.deliverEmails();
  const shipped = shopperMails(t).find((e) => e.subject.includes("has shipped"))!;
  assert.match(shipped.text, /tLabels=9400100000000000000000/);
  assert.doesNotMatch(shipped.text + (shipped.html ?? ""), /%20/);
});

Deno.test("dashes and lower case are normalised; what is left empty or odd is a 400", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const { orderNumber } = await paidOrder(t);
  const dashed = await track(t, cookie, orderNumber, "ea-123-456-789-us");
  assert.equal(dashed.json.trackingNumber, "EA123456789US");

  for (
    const [bad, error] of [
      [" - - ", "Please enter a tracking number"],
      ["9400/1000", "A tracking number has only letters, digits, spaces and dashes"],
      ["9".repeat(41), "A tracking number has at most 40 characters"],
      [42, "Please enter a tracking number"],
    ] as const
  ) {
    const res = await track(t, cookie, orderNumber, bad);
    assert.equal(res.status, 400, String(bad));
    assert.equal(res.json.error, error);
  }
  assert.equal((await getOrder(t.kv, orderNumber)).trackingNumber, "EA123456789US", "unchanged");
});

Deno.test("a number with a ß typed for a digit is refused, not stored as another parcel's", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const { orderNumber } = await paidOrder(t);
  const res = await track(t, cookie, orderNumber, "9400 1000 ß000 0000");
  assert.equal(res.status, 400);
  assert.equal(res.json.error, "A tracking number has only letters, digits, spaces and dashes");
  assert.equal((await getOrder(t.kv, orderNumber)).trackingNumber, null, "nothing stored");
});
