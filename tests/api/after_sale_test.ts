/**
 * After the sale: a shopper cancels before shipment (full refund, stock back, both told), and
 * "email me when it's back" sign-ups (one email per return to stock, none for what is retired).
 */
import assert from "node:assert/strict";
import { adminCookie, createTestApp, type TestApp } from "../helpers/test_app.ts";
import {
  paidOrder,
  payDemo,
  STARTER,
  startHostedCheckout,
  stockCounts,
  US_ADDRESS,
} from "../helpers/shop_fixtures.ts";
import { switchKey } from "../../shared/bom.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { ITEMS } from "../../shared/catalog/items.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { getOrder } from "../../server/orders/store.ts";
import { listOutbox } from "../../server/email/outbox.ts";
import { confirmAddress } from "../helpers/stock_alerts.ts";
import { storedJobs } from "../helpers/stored_jobs.ts";

async function cancel(t: TestApp, orderNumber: string, body: unknown, client = "127.0.0.30") {
  return await t.request(`/api/orders/${orderNumber}/cancel`, { method: "POST", body, client });
}

async function owner(t: TestApp, path: string, body?: unknown, method = "POST") {
  return await t.request(path, { method, body, headers: { Cookie: await adminCookie(t) } });
}

Deno.test("a guest cancels a paid order with its email: refunded in full, stock back, both told", async () => {
  await using t = await createTestApp();
  const key = switchKey(STARTER.switchIds[0]);
  const before = await stockCounts(t.kv, key);
  const { orderNumber } = await paidOrder(t, { email: "ann@example.com" });
  assert.equal((await stockCounts(t.kv, key)).stock, before.stock - 1);

  const wrong = await cancel(t, orderNumber, { email: "someone@example.com" });
  const unknown = await cancel(t, "STNOSUCHORDER123456", { email: "ann@example.com" });
  assert.deepEqual([wrong.status, wrong.json], [unknown.status, unknown.json], "nothing revealed");
  assert.equal(wrong.status, 404);
  assert.equal((await cancel(t, orderNumber, {})).status, 404, "no proof, no cancel");

  const done = await cancel(t, orderNumber, { email: " ANN@example.com " });
  assert.equal(done.status, 200, done.text);
  assert.equal(done.json.status, "CANCELLED");
  const order = await getOrder(t.kv, orderNumber);
  assert.equal(order.refund?.amountCents, order.totalCents, "the whole amount");
  assert.equal(order.refund?.state, "refunded");
  assert.equal(order.cancelReason, "Cancelled by the customer; refunded in full");
  assert.deepEqual(await stockCounts(t.kv, key), before, "the units are back on the shelf");
  const mails = (await listOutbox(t.kv)).map((e) => [e.email.to, e.email.subject]);
  assert.ok(mails.some(([to, s]) => to === "ann@example.com" && /cancelled/.test(s)));
  assert.ok(
    mails.some(([to, s]) => to === t.config.shopEmail && /cancelled: \$18\.98 refunded/.test(s)),
  );

  const twice = await cancel(t, orderNumber, { email: "ann@example.com" });
  assert.equal(twice.status, 409);
  assert.equal(twice.json.error, "This order is already cancelled.");
});

Deno.test("processing orders can be cancelled; shipped ones answer 409 with the reason", async () => {
  await using t = await createTestApp();
  const processing = (await paidOrder(t)).orderNumber;
  const shipped = (await paidOrder(t)).orderNumber;
  for (const n of [processing, shipped]) {
    await owner(t, `/api/admin/orders/${n}/tracking`, { trackingNumber: "9400 1" });
  }
  await owner(t, "/api/admin/orders/ship-processed", { orderNumbers: [shipped] });
  const late = await cancel(t, shipped, { email: "ann@example.com" });
  assert.equal(late.status, 409);
  assert.match(late.json.error, /already shipped, so it can no longer be cancelled/);
  assert.equal((await getOrder(t.kv, shipped)).status, "SHIPPED");
  const ok = await cancel(t, processing, { email: "ann@example.com" });
  assert.equal(ok.json.status, "CANCELLED");
});

Deno.test("cancel attempts count like order lookups", async () => {
  await using t = await createTestApp();
  const statuses: number[] = [];
  for (let i = 0; i < 31; i++) {
    statuses.push(
      (await cancel(t, `STGUESS${i}`, { email: "x@example.com" }, "127.0.0.31")).status,
    );
  }
  assert.equal(statuses.filter((s) => s === 404).length, 30);
  assert.equal(statuses.at(-1), 429);
});

async function signUp(t: TestApp, body: unknown, client = "127.0.0.40") {
  return await t.request("/api/stock-alerts", { method: "POST", body, client });
}

async function backInStockMails(t: TestApp, to: string) {
  await t.deliverEmails();
  return t.mailer.sent.filter((e) => e.to === to && /back in stock/.test(e.subject));
}

Deno.test("a switch back in stock: one email per return, with an unsubscribe link", async () => {
  await using t = await createTestApp();
  const id = STARTER.switchIds[0];
  const put = (stock: number) => owner(t, `/api/admin/inventory/switches/${id}`, { stock }, "PUT");
  await put(0);
  assert.deepEqual((await signUp(t, { email: "Cy@Example.com", switchId: id })).json, {
    ok: true,
    checkInbox: true,
  });
  assert.equal(
    (await signUp(t, { email: "cy@example.com", switchId: id })).status,
    200,
    "twice is once",
  );
  const pending = await owner(t, "/api/admin/inventory", undefined, "GET");
  assert.equal(
    pending.json.switches.find((s: { id: number }) => s.id === id).waiting,
    0,
    "an unconfirmed sign-up does not count as waiting",
  );
  await confirmAddress(t, "cy@example.com");
  assert.equal((await backInStockMails(t, "cy@example.com")).length, 0, "still sold out");

  const waiting = await owner(t, "/api/admin/inventory", undefined, "GET");
  assert.equal(waiting.json.switches.find((s: { id: number }) => s.id === id).waiting, 1);

  await put(5);
  const mails = await backInStockMails(t, "cy@example.com");
  assert.equal(mails.length, 1);
  assert.match(mails[0].text, /is back in stock/);
  await put(9);
  assert.equal((await backInStockMails(t, "cy@example.com")).length, 1, "more stock is not news");
  await put(0);
  // The queued check after the sell-out (run here by deliverEmails, as the queue worker would).
  assert.equal((await backInStockMails(t, "cy@example.com")).length, 1);
  await put(3);
  assert.equal((await backInStockMails(t, "cy@example.com")).length, 2, "sold out and back again");

  const link = /\S+\/stock-alerts\/unsubscribe\?token=(\S+)/.exec(mails[0].text)!;
  const page = await t.request(`/stock-alerts/unsubscribe?token=${link[1]}`);
  assert.match(page.text, /Stop back-in-stock emails\?/, "a GET only asks");
  const gone = await t.request(`/stock-alerts/unsubscribe?token=${link[1]}`, { method: "POST" });
  assert.match(gone.text, /You will not get an email/);
  await put(0);
  await t.deliverEmails();
  await put(4);
  assert.equal((await backInStockMails(t, "cy@example.com")).length, 2, "unsubscribed");
});

Deno.test("a pack is back only when its whole bill of materials is; retired items never email", async () => {
  await using t = await createTestApp();
  const [a, b] = STARTER.switchIds;
  const put = (id: number, stock: number) =>
    owner(t, `/api/admin/inventory/switches/${id}`, { stock }, "PUT");
  await put(a, 0);
  await put(b, 0);
  assert.equal((await signUp(t, { email: "dee@example.com", productId: STARTER.id })).status, 200);
  await confirmAddress(t, "dee@example.com");
  await put(a, 10);
  assert.equal(
    (await backInStockMails(t, "dee@example.com")).length,
    0,
    "one switch still missing",
  );
  await put(b, 10);
  assert.equal((await backInStockMails(t, "dee@example.com")).length, 1);

  // A retired switch: the sign-up is refused up front, and one made before the retirement is silent.
  const inPacks = new Set(PACKS.flatMap((p) => p.switchIds));
  const lone = SWITCHES.find((s) => !inPacks.has(s.id))!.id;
  await put(lone, 0);
  assert.equal((await signUp(t, { email: "eve@example.com", switchId: lone })).status, 200);
  await confirmAddress(t, "eve@example.com");
  const switchRecord = await owner(t, `/api/admin/catalog/switches/${lone}`, undefined, "GET");
  const retired = await owner(t, `/api/admin/catalog/switches/${lone}`, {
    retired: true,
    version: switchRecord.json.version,
  }, "PATCH");
  assert.equal(retired.status, 200, retired.text);
  await put(lone, 10);
  assert.equal((await backInStockMails(t, "eve@example.com")).length, 0);
  const late = await signUp(t, { email: "fay@example.com", switchId: lone });
  assert.equal(late.status, 400);
  assert.match(late.json.error, /no longer sold/);
});

Deno.test("bad sign-ups are refused", async () => {
  await using t = await createTestApp();
  for (
    const body of [
      {},
      { email: "x@example.com" },
      { email: "nope", switchId: 1 },
      { email: "x@example.com", switchId: -1 },
      { email: "x@example.com", switchId: 1, productId: 384 },
    ]
  ) {
    assert.equal((await signUp(t, body)).status, 400, JSON.stringify(body));
  }
  assert.equal((await signUp(t, { email: "x@example.com", switchId: 999999 })).status, 404);
  assert.equal((await signUp(t, { email: "x@example.com", productId: 999999 })).status, 404);
});

Deno.test("after a restore, a waiting shopper still hears of every return to stock", async () => {
  // Found by the simulation: back-in-stock emails were deduplicated by the sign-up entry's
  // versionstamp, which a restored store counts from the start again.
  const { backupLines } = await import("../../server/ops/backup.ts");
  const { restoreLines } = await import("../../server/ops/restore.ts");
  const { setShelfCount } = await import("../../server/stock/store.ts");
  const { sendStockAlerts } = await import("../../server/stock/back_in_stock/alerts.ts");
  const id = STARTER.switchIds[0];
  await using t = await createTestApp();
  await setShelfCount(t.kv, switchKey(id), { stock: 0 }, t.clock.now());
  const res = await t.request("/api/stock-alerts", {
    method: "POST",
    body: { email: "wait@example.com", switchId: id },
  });
  assert.equal(res.status, 200, res.text);
  await confirmAddress(t, "wait@example.com");
  const returns = async (app: TestApp, n: number) => {
    for (let i = 0; i < n; i++) {
      await setShelfCount(app.kv, switchKey(id), { stock: 5 }, app.clock.now());
      await sendStockAlerts(app);
      await setShelfCount(app.kv, switchKey(id), { stock: 0 }, app.clock.now());
      await sendStockAlerts(app);
    }
  };
  await returns(t, 40);
  await using store = await Deno.openKv(":memory:");
  await restoreLines(store, await Array.fromAsync(backupLines(t.kv)));
  await using r = await createTestApp({ kv: store, seed: false });
  await returns(r, 40);
  const told = (await listOutbox(store)).filter((e) =>
    e.email.to === "wait@example.com" && /is back in stock$/.test(e.email.subject)
  );
  assert.equal(told.length, 80);
});

Deno.test("the owner cancels a checkout whose payment landed meanwhile and cannot stand: answered with the order, cancelled and owed back", async () => {
  // The shop stops right after the charge: the payment is taken at the provider, not yet recorded.
  let dieAfterCharge = true;
  await using t = await createTestApp({
    onStep(step) {
      if (step === "charge" && dieAfterCharge) {
        dieAfterCharge = false;
        throw new Error("the process died after the charge");
      }
    },
  });
  const { orderNumber, sessionId } = await startHostedCheckout(t);
  const paying = await payDemo(t, sessionId, {
    cardNumber: "4242424242424242",
    email: "ann@example.com",
    address: US_ADDRESS,
  });
  assert.equal(paying.status, 500, paying.text);
  assert.equal((await getOrder(t.kv, orderNumber)).status, "STARTED");
  // The owner counts a switch of the order at none: the late payment cannot take its units.
  const counted = await owner(
    t,
    `/api/admin/inventory/switches/${STARTER.switchIds[0]}`,
    { stock: 0 },
    "PUT",
  );
  assert.equal(counted.status, 200, counted.text);

  const res = await owner(t, `/api/admin/orders/${orderNumber}/cancel`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.status, "CANCELLED");
  const order = await getOrder(t.kv, orderNumber);
  assert.equal(order.status, "CANCELLED");
  assert.ok(order.refund, "the charge is owed back");
});

Deno.test("the owner cancels an unpaid checkout: its page says it ended before payment, not refunded", async () => {
  await using t = await createTestApp();
  const { orderNumber } = await startHostedCheckout(t);
  const res = await owner(t, `/api/admin/orders/${orderNumber}/cancel`);
  assert.equal(res.status, 200, res.text);
  const view = await t.request(`/api/orders/${orderNumber}`);
  assert.equal(view.json.status, "CANCELLED");
  assert.equal(view.json.cancelReason, "Cancelled by the shop before payment");
  assert.equal(view.json.refund, null);
  // A paid order's cancel still says its money comes back.
  const { orderNumber: paid } = await paidOrder(t);
  await owner(t, `/api/admin/orders/${paid}/cancel`);
  const paidView = await t.request(`/api/orders/${paid}`);
  assert.equal(paidView.json.cancelReason, "Cancelled by the shop; refunded in full");
});

/**
 * Back-in-stock mails as the queue worker sends them: only the jobs the shop's writes stored are
 * run (the test app's deliverEmails would look at every sign-up whether or not a write asked).
 */
async function mailsByJobs(t: TestApp, to: string) {
  await storedJobs(t.kv).runDue(t);
  return t.mailer.sent.filter((e) => e.to === to && /back in stock/.test(e.subject));
}

Deno.test("a pack made buyable again by the owner's edit tells the shoppers waiting for it", async () => {
  await using t = await createTestApp();
  const pack = PACKS[1];
  const missing = pack.switchIds[0];
  const spare = SWITCHES.find((s) => !PACKS.some((p) => p.switchIds.includes(s.id)))!.id;
  await owner(t, `/api/admin/inventory/switches/${missing}`, { stock: 0 }, "PUT");
  await owner(t, `/api/admin/inventory/switches/${spare}`, { stock: 50 }, "PUT");
  await signUp(t, { email: "dee@example.com", productId: pack.id });
  await confirmAddress(t, "dee@example.com");
  assert.equal((await mailsByJobs(t, "dee@example.com")).length, 0, "sold out");
  // The owner swaps the missing switch for one on the shelf: the pack can be bought again.
  const edited = await owner(t, `/api/admin/catalog/packs/${pack.id}`, {
    switchIds: [spare, ...pack.switchIds.slice(1)],
  }, "PATCH");
  assert.equal(edited.status, 200, edited.text);
  const mails = await mailsByJobs(t, "dee@example.com");
  assert.equal(mails.length, 1);
  assert.match(mails[0].subject, /back in stock/);
});

Deno.test("a switch retired, counted out and brought back with stock is told again; never while retired, nor after a retirement it kept its stock through", async () => {
  await using t = await createTestApp();
  const lone = SWITCHES.find((s) => !PACKS.some((p) => p.switchIds.includes(s.id)))!.id;
  const edit = (body: unknown) => owner(t, `/api/admin/catalog/switches/${lone}`, body, "PATCH");
  await owner(t, `/api/admin/inventory/switches/${lone}`, { stock: 0 }, "PUT");
  await signUp(t, { email: "eve@example.com", switchId: lone });
  await confirmAddress(t, "eve@example.com");
  await owner(t, `/api/admin/inventory/switches/${lone}`, { stock: 5 }, "PUT");
  assert.equal((await mailsByJobs(t, "eve@example.com")).length, 1, "back once");
  // Retired and back with its stock throughout: it never ran out, so no news.
  assert.equal((await edit({ retired: true })).status, 200);
  await mailsByJobs(t, "eve@example.com");
  assert.equal((await edit({ retired: false })).status, 200);
  assert.equal((await mailsByJobs(t, "eve@example.com")).length, 1, "not told again");
  assert.equal((await edit({ retired: true })).status, 200);
  await owner(t, `/api/admin/inventory/switches/${lone}`, { stock: 0 }, "PUT");
  assert.equal((await mailsByJobs(t, "eve@example.com")).length, 1, "nothing while retired");
  assert.equal((await edit({ retired: false, stock: 20 })).status, 200);
  assert.equal((await mailsByJobs(t, "eve@example.com")).length, 2, "back in the shop, with stock");
});

/**
 * The fidget cube case sold out (its CUBE_BODY counted at none) with `email` confirmed waiting for
 * it; answers the owner's two moves on it: counting its bodies and taking it on or off sale.
 */
async function waitingForCube(t: TestApp, email: string) {
  const cube = ITEMS.find((i) => i.bom.kind === "cube-case")!;
  const count = (stock: number) =>
    owner(t, "/api/admin/inventory/components/CUBE_BODY", { stock }, "PUT");
  const sale = (onSale: boolean) =>
    owner(t, `/api/admin/catalog/items/${cube.id}`, { onSale }, "PATCH");
  assert.equal((await count(0)).status, 200);
  await signUp(t, { email, productId: cube.id });
  await confirmAddress(t, email);
  return { count, sale };
}

Deno.test("an item restocked while off sale is told when the owner puts it back on sale", async () => {
  await using t = await createTestApp();
  const { count, sale } = await waitingForCube(t, "fay@example.com");
  assert.equal((await sale(false)).status, 200);
  assert.equal((await count(30)).status, 200);
  assert.equal((await mailsByJobs(t, "fay@example.com")).length, 0, "nothing while off sale");
  assert.equal((await sale(true)).status, 200);
  assert.equal((await mailsByJobs(t, "fay@example.com")).length, 1, "on sale again, with stock");
});

Deno.test("a listing hidden for a while with stock throughout tells nobody again", async () => {
  await using t = await createTestApp();
  const { count, sale } = await waitingForCube(t, "gil@example.com");
  await count(30);
  assert.equal((await mailsByJobs(t, "gil@example.com")).length, 1, "back once");
  // Off sale for new photos, then on again: it never ran out, so there is no news.
  await sale(false);
  assert.equal((await mailsByJobs(t, "gil@example.com")).length, 1);
  await sale(true);
  assert.equal((await mailsByJobs(t, "gil@example.com")).length, 1, "not told twice");
});
