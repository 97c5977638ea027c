/**
 * Low stock: a level per component (10 unless the owner sets one), one email to the owner when
 * available units fall to it, none again until restocked above it, and each item's runway.
 */
import assert from "node:assert/strict";
import { adminCookie, createTestApp, type TestApp } from "../helpers/test_app.ts";
import { paidOrder, STARTER } from "../helpers/shop_fixtures.ts";

const SWITCH = STARTER.switchIds[0];

async function inventoryOf(t: TestApp, cookie: string) {
  const res = await t.request("/api/admin/inventory", { headers: { Cookie: cookie } });
  assert.equal(res.status, 200, res.text);
  return res.json;
}

async function putSwitch(t: TestApp, cookie: string, body: unknown) {
  return await t.request(`/api/admin/inventory/switches/${SWITCH}`, {
    method: "PUT",
    body,
    headers: { Cookie: cookie },
  });
}

async function lowStockMails(t: TestApp) {
  await t.deliverEmails();
  return t.mailer.sent.filter((e) => e.subject.startsWith("Low stock"));
}

/** A client of its own per checkout, as separate shoppers would be. */
async function checkoutFrom(t: TestApp, n: number): Promise<number> {
  const client = `127.0.0.${n}`;
  const cart = await t.request(`/api/cart/add?itemId=${STARTER.id}`, { method: "POST", client });
  const res = await t.request(`/api/cart/${cart.json.id}/checkout/us`, { method: "POST", client });
  return res.status;
}

Deno.test("the level defaults to 10, the owner edits it, and bad levels are refused", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const before = await inventoryOf(t, cookie);
  assert.ok(before.switches.every((s: { lowStockAt: number }) => s.lowStockAt === 10));
  assert.ok(before.inventory.every((c: { lowStockAt: number }) => c.lowStockAt === 10));

  const set = await putSwitch(t, cookie, { lowStockAt: 3 });
  assert.equal(set.status, 200, set.text);
  assert.equal(set.json.lowStockAt, 3);
  const kept = before.switches.find((s: { id: number }) => s.id === SWITCH).stock;
  assert.equal(set.json.stock, kept, "the shelf count is kept");
  const component = await t.request("/api/admin/inventory/components/CUBE_BODY", {
    method: "PUT",
    body: { stock: 40, lowStockAt: 25 },
    headers: { Cookie: cookie },
  });
  assert.deepEqual([component.json.stock, component.json.lowStockAt], [40, 25]);
  for (const body of [{}, { lowStockAt: -1 }, { lowStockAt: 2.5 }, { lowStockAt: "5" }]) {
    assert.equal((await putSwitch(t, cookie, body)).status, 400, JSON.stringify(body));
  }
  const after = await inventoryOf(t, cookie);
  assert.equal(after.switches.find((s: { id: number }) => s.id === SWITCH).lowStockAt, 3);
});

Deno.test("falling to the level emails the owner once, even when many checkouts race", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  assert.equal((await putSwitch(t, cookie, { stock: 14, lowStockAt: 10 })).status, 200);
  assert.equal((await lowStockMails(t)).length, 0, "14 available is above the level");

  // Eight shoppers at once from eight addresses hold a unit each: 14 -> 6 available.
  const statuses = await Promise.all([2, 3, 4, 5, 6, 7, 8, 9].map((n) => checkoutFrom(t, n)));
  assert.deepEqual(statuses, Array(8).fill(200));
  const mails = await lowStockMails(t);
  assert.equal(mails.length, 1, "one email for the fall, not one per checkout");
  assert.equal(mails[0].to, t.config.shopEmail);
  assert.match(mails[0].subject, /Low stock: .+ \(\d+ left\)/);
  assert.match(mails[0].text, /your low-stock level is 10/);

  // Restocked above the level, then down again: a second email.
  assert.equal((await putSwitch(t, cookie, { stock: 30 })).status, 200);
  assert.equal((await lowStockMails(t)).length, 1, "a restock is not news");
  assert.equal((await putSwitch(t, cookie, { stock: 12 })).status, 200);
  assert.equal((await lowStockMails(t)).length, 2, "falling again after the restock");
  assert.equal((await putSwitch(t, cookie, { stock: 11 })).status, 200);
  assert.equal((await lowStockMails(t)).length, 2, "still low: no second email");

  const row = (await inventoryOf(t, cookie)).switches.find((s: { id: number }) => s.id === SWITCH);
  assert.equal(row.low, true);
});

Deno.test("raising the level above what is available counts as falling to it", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  await t.request("/api/admin/inventory/components/SMALL_BOX", {
    method: "PUT",
    body: { stock: 100 },
    headers: { Cookie: cookie },
  });
  await t.deliverEmails();
  const res = await t.request("/api/admin/inventory/components/SMALL_BOX", {
    method: "PUT",
    body: { lowStockAt: 150 },
    headers: { Cookie: cookie },
  });
  assert.equal(res.json.low, true);
  const mails = await lowStockMails(t);
  assert.equal(mails.length, 1);
  assert.match(mails[0].subject, /Small tester box \(100 left\)/);
});

Deno.test("runway: days left at the last 30 days' rate of sale", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  assert.equal((await putSwitch(t, cookie, { stock: 100 })).status, 200);
  const quiet = (await inventoryOf(t, cookie)).switches.find((s: { id: number }) =>
    s.id === SWITCH
  );
  assert.deepEqual([quiet.soldLast30Days, quiet.runwayDays], [0, null], "no sales, no runway");

  // Three packs sold 40 days ago fall outside the window; three today count.
  for (let i = 0; i < 3; i++) await paidOrder(t);
  t.clock.advance(40 * 86_400_000);
  const cookieLater = await adminCookie(t);
  for (let i = 0; i < 3; i++) await paidOrder(t);
  const row = (await inventoryOf(t, cookieLater)).switches.find((s: { id: number }) =>
    s.id === SWITCH
  );
  assert.equal(row.soldLast30Days, 3);
  assert.equal(row.available, 94);
  // 3 sold in 30 days is 0.1 a day: 94 units last 940 days.
  assert.equal(row.runwayDays, 940);
  const cancelled = await paidOrder(t);
  await t.request(`/api/admin/orders/${cancelled.orderNumber}/cancel`, {
    method: "POST",
    headers: { Cookie: cookieLater },
  });
  const same = (await inventoryOf(t, cookieLater)).switches.find((s: { id: number }) =>
    s.id === SWITCH
  );
  assert.equal(same.soldLast30Days, 3, "a cancelled order is not a sale");
});

Deno.test("a sale keeps the owner's low-stock level, and the fall it causes is emailed once", async () => {
  // Found by the simulation: the paid write rebuilt the stock record from its counts alone, so
  // the level went back to 10 and the alert flag was dropped, and the next write alerted again.
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  assert.equal((await putSwitch(t, cookie, { stock: 15, lowStockAt: 12 })).status, 200);
  await paidOrder(t);
  const after = await inventoryOf(t, cookie);
  const row = after.switches.find((s: { id: number }) => s.id === SWITCH);
  assert.deepEqual([row.available, row.lowStockAt, row.low], [14, 12, false]);

  await paidOrder(t);
  await paidOrder(t);
  const third = (await inventoryOf(t, cookie)).switches.find((s: { id: number }) =>
    s.id === SWITCH
  );
  assert.deepEqual([third.available, third.lowStockAt, third.low], [12, 12, true]);
  await paidOrder(t);
  const mails = (await lowStockMails(t)).filter((e) =>
    e.subject.startsWith(`Low stock: ${row.name} `)
  );
  assert.deepEqual(mails.map((m) => m.subject), [`Low stock: ${row.name} (12 left)`]);
});

Deno.test("two falls in one millisecond are two alerts, each emailed", async () => {
  // Found by the simulation: alerts were keyed by component and time, so a second fall in the
  // same millisecond overwrote the first one's alert before it was emailed.
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  assert.equal((await putSwitch(t, cookie, { stock: 1, lowStockAt: 19 })).status, 200);
  assert.equal((await putSwitch(t, cookie, { stock: 20 })).status, 200);
  assert.equal(await checkoutFrom(t, 2), 200);
  const name = (await inventoryOf(t, cookie)).switches.find((s: { id: number }) => s.id === SWITCH)
    .name;
  const mails = (await lowStockMails(t)).filter((e) => e.subject.startsWith(`Low stock: ${name} `));
  assert.deepEqual(mails.map((m) => m.subject).sort(), [
    `Low stock: ${name} (1 left)`,
    `Low stock: ${name} (19 left)`,
  ]);
});

Deno.test("after a restore, every fall is emailed: alert emails are not named by versionstamps", async () => {
  // Found by the simulation: an alert's email was deduplicated by the alert entry's versionstamp;
  // a restored store counts versionstamps from the start again, so a later alert could meet the
  // restored mark of an email sent before the backup, and its email was never sent.
  const { backupLines } = await import("../../server/ops/backup.ts");
  const { restoreLines } = await import("../../server/ops/restore.ts");
  const { setShelfCount } = await import("../../server/stock/store.ts");
  const { switchKey } = await import("../../shared/bom.ts");
  const key = switchKey(SWITCH);
  await using t = await createTestApp();
  // Many falls before the backup: their email marks cover a wide range of versionstamps.
  for (let i = 0; i < 60; i++) {
    await setShelfCount(t.kv, key, { stock: 50 }, t.clock.now());
    await setShelfCount(t.kv, key, { stock: 1 }, t.clock.now());
    await t.deliverEmails();
  }
  await using store = await Deno.openKv(":memory:");
  await restoreLines(store, await Array.fromAsync(backupLines(t.kv)));
  await using r = await createTestApp({ kv: store, seed: false });
  for (let i = 0; i < 60; i++) {
    await setShelfCount(store, key, { stock: 50 }, r.clock.now());
    await setShelfCount(store, key, { stock: 1 }, r.clock.now());
    await r.deliverEmails();
  }
  assert.equal(t.mailer.sent.filter((m) => m.subject.includes("(1 left)")).length, 60);
  assert.equal(r.mailer.sent.filter((m) => m.subject.includes("(1 left)")).length, 60);
});
