/**
 * The owner's order list at scale: search, status and date filters, pages with a cursor, the
 * CSV of a chosen range, and the index migration that makes it cheap.
 */
import assert from "node:assert/strict";
import { adminCookie, createTestApp, type TestApp } from "../helpers/test_app.ts";
import { paidOrder } from "../helpers/shop_fixtures.ts";
import { getOrder, writeOrderTo } from "../../server/orders/store.ts";
import { keys } from "../../server/kv/keys.ts";
import { migrate } from "../../server/ops/migrations.ts";
import type { Order } from "../../server/orders/order.ts";
import type { OrderStatus } from "../../shared/status.ts";

const DAY = 86_400_000;

/** Writes copies of a real paid order as if placed over past days, through the db layer. */
async function seedOrders(
  t: TestApp,
  count: number,
  shape: (i: number) => { status?: OrderStatus; email?: string; name?: string; at?: number } =
    () => ({}),
): Promise<Order[]> {
  const template = await getOrder(t.kv, (await paidOrder(t)).orderNumber);
  const made: Order[] = [];
  for (let i = 0; i < count; i++) {
    const { status = "PAYMENT_RECEIVED", email, name, at } = shape(i);
    const order: Order = {
      ...template,
      orderNumber: `STSEED${String(i).padStart(6, "0")}`,
      status,
      email: email ?? `buyer${i}@example.com`,
      customerName: name ?? `Buyer ${i}`,
      payment: null,
      createdAt: at ?? template.createdAt - (i + 1) * 60_000,
    };
    const op = t.kv.atomic();
    writeOrderTo(op, order, null);
    assert.ok((await op.commit()).ok);
    made.push(order);
  }
  return made;
}

async function list(t: TestApp, cookie: string, query: string) {
  return await t.request(`/api/admin/orders${query}`, { headers: { Cookie: cookie } });
}

Deno.test("pages of 50 hold every order exactly once, newest first, while new orders arrive", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  await seedOrders(t, 120);
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await list(t, cookie, `?limit=50${cursor ? `&cursor=${cursor}` : ""}`);
    assert.equal(res.status, 200, res.text);
    seen.push(...res.json.map((o: { orderNumber: string }) => o.orderNumber));
    const times = res.json.map((o: { createdAt: string }) => Date.parse(o.createdAt));
    assert.deepEqual(times, [...times].sort((a, b) => b - a), "newest first");
    cursor = res.headers.get("x-next-cursor");
    pages++;
    // A shopper pays between two pages: the new order is on the first page, not a later one.
    if (pages === 1) {
      t.clock.advance(60_000);
      await paidOrder(t, { email: "late@example.com" });
    }
  } while (cursor);
  assert.equal(pages, 3);
  assert.equal(seen.length, 121, "the 120 seeded and the first real order, once each");
  assert.equal(new Set(seen).size, seen.length, "no order on two pages");
  const first = await list(t, cookie, "?limit=50");
  assert.equal(first.json[0].email, "late@example.com", "the new order leads a fresh first page");
});

Deno.test("search by order number, email or name, any case; filter by status", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const statuses: OrderStatus[] = [
    "PAYMENT_RECEIVED",
    "PROCESSING",
    "SHIPPED",
    "DELIVERED",
    "CANCELLED",
  ];
  await seedOrders(t, 10, (i) => ({
    status: statuses[i % 5],
    email: i === 3 ? "Zoe.Quill@Example.com" : undefined,
    name: i === 7 ? "Élodie Marchand" : undefined,
  }));

  const byEmail = await list(t, cookie, "?q=zoe.QUILL");
  assert.deepEqual(byEmail.json.map((o: Order) => o.orderNumber), ["STSEED000003"]);
  const byName = await list(t, cookie, `?q=${encodeURIComponent("élodie")}`);
  assert.deepEqual(byName.json.map((o: Order) => o.orderNumber), ["STSEED000007"]);
  const byNumber = await list(t, cookie, "?q=stseed00000");
  assert.equal(byNumber.json.length, 10);
  assert.equal((await list(t, cookie, "?q=nobody-like-this")).json.length, 0);

  const count = async (status: string) => (await list(t, cookie, `?status=${status}`)).json.length;
  // The fixture's own paid order is new too.
  assert.equal(await count("new"), 4 + 1, "paid and processing");
  assert.equal(await count("processed"), 4, "shipped and delivered");
  assert.equal(await count("cancelled"), 2);
  assert.equal(await count("all"), 11);
  assert.equal((await list(t, cookie, "")).json.length, 11, "all by default");

  const filtered = await list(t, cookie, "?status=new&q=buyer&limit=2");
  assert.equal(filtered.json.length, 2);
  const rest = await list(
    t,
    cookie,
    `?status=new&q=buyer&limit=2&cursor=${filtered.headers.get("x-next-cursor")}`,
  );
  assert.equal(rest.json.length, 2);
  assert.equal(rest.headers.get("x-next-cursor"), null, "four new buyers in all");
});

Deno.test("from and to are whole UTC days, both included", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const midnight = Date.UTC(2026, 10, 10);
  await seedOrders(t, 4, (i) => ({
    at: [midnight - 1, midnight, midnight + DAY - 1, midnight + DAY][i],
  }));
  const day = await list(t, cookie, "?from=2026-11-10&to=2026-11-10");
  assert.deepEqual(
    day.json.map((o: Order) => o.orderNumber).sort(),
    ["STSEED000001", "STSEED000002"],
    "the first and last millisecond of the day, not the ones either side",
  );
  const since = await list(t, cookie, "?from=2026-11-11");
  assert.ok(since.json.some((o: Order) => o.orderNumber === "STSEED000003"));
  assert.ok(!since.json.some((o: Order) => o.orderNumber === "STSEED000002"));
  const until = await list(t, cookie, "?to=2026-11-09");
  assert.deepEqual(until.json.map((o: Order) => o.orderNumber), ["STSEED000000"]);
});

Deno.test("bad parameters are refused with a sentence", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  for (
    const [query, message] of [
      ["?limit=0", /limit is at least 1/],
      ["?limit=201", /limit is at most 200/],
      ["?limit=ten", /limit must be a number/],
      ["?status=open", /status is one of new, processed, cancelled, all/],
      ["?from=2026-02-30", /That date does not exist/],
      ["?from=11/10/2026", /YYYY-MM-DD/],
      ["?from=2026-11-12&to=2026-11-10", /from must not be after to/],
      ["?cursor=not-a-cursor", /page cursor/],
    ] as const
  ) {
    const res = await list(t, cookie, query);
    assert.equal(res.status, 400, query);
    assert.match(res.json.error, message, query);
  }
  assert.equal((await t.request("/api/admin/orders")).status, 401, "owner only");
});

Deno.test("the CSV exports the new orders of a chosen range, with a byte order mark", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const midnight = Date.UTC(2026, 10, 10);
  await seedOrders(t, 3, (i) => ({
    at: midnight + i * DAY,
    name: i === 1 ? "Zoë Ångström" : undefined,
    status: i === 2 ? "SHIPPED" : "PAYMENT_RECEIVED",
  }));
  const res = await t.request("/api/admin/orders/new/csv?from=2026-11-10&to=2026-11-12", {
    headers: { Cookie: cookie },
  });
  assert.equal(res.status, 200);
  assert.ok(res.text.startsWith('\uFEFF"Order Number"'), "UTF-8 byte order mark first");
  const rows = res.text.trim().split("\r\n").slice(1);
  assert.deepEqual(
    rows.map((r) => r.slice(1, 13)),
    ["STSEED000000", "STSEED000001"],
    "oldest first, shipped left out",
  );
  assert.ok(res.text.includes("Zoë Ångström"));
  assert.match(
    res.headers.get("content-disposition") ?? "",
    /new_orders_2026-11-10_to_2026-11-12\.csv/,
  );
  const all = await t.request("/api/admin/orders/new/csv", { headers: { Cookie: cookie } });
  assert.equal(all.text.trim().split("\r\n").length, 1 + 3, "no range: every new order");
});

Deno.test("the migration indexes orders written before the index existed", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const orders = await seedOrders(t, 3);
  // As a store from before: the orders without their index entries or the migration's marker.
  for (const o of orders) await t.kv.delete(keys.orderByTime(o.createdAt, o.orderNumber));
  await t.kv.delete(keys.migration("4-orders-by-time"));
  assert.equal((await list(t, cookie, "?q=stseed")).json.length, 0);
  await migrate(t.kv, t.clock);
  assert.equal((await list(t, cookie, "?q=stseed")).json.length, 3);
});
