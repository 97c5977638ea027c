/**
 * `deno run -A tests/bench/run.ts orders-10k`: the owner's dashboard over 10,000 orders. Seeds
 * them (copies of a real paid order, spread over 100 days and every status) into a KV file, then
 * times the admin's calls through the app, each as the median of a few runs and as a ratio to
 * reading every order once (what `GET /api/admin/orders` did before it paged), measured in the
 * same run. Reports; never fails on a slow machine.
 */
import { createTestApp } from "../helpers/test_app.ts";
import { paidOrder } from "../helpers/shop_fixtures.ts";
import { getOrder, listOrders, writeOrderTo } from "../../server/orders/store.ts";
import type { Order } from "../../server/orders/order.ts";
import type { OrderStatus } from "../../shared/status.ts";

const ORDERS = 10_000;
const DAYS = 100;
const RUNS = 5;
/** Orders per atomic write: each is checked, so at most 100 checks fit in one. */
const PER_COMMIT = 90;
const STATUSES: OrderStatus[] = [
  "DELIVERED",
  "DELIVERED",
  "SHIPPED",
  "SHIPPED",
  "PROCESSING",
  "PAYMENT_RECEIVED",
  "CANCELLED",
  "EXPIRED",
];

async function median(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)];
}

/** Seeds the orders and prints the figures. */
export async function ordersAtScale(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "shop-orders-bench-" });
  const kv = await Deno.openKv(`${dir}/shop.kv`);
  try {
    await using t = await createTestApp({ kv });
    const template = await getOrder(kv, (await paidOrder(t)).orderNumber);
    const now = t.clock.now();
    const seedStart = performance.now();
    for (let i = 0; i < ORDERS; i += PER_COMMIT) {
      const op = kv.atomic();
      for (let j = i; j < Math.min(ORDERS, i + PER_COMMIT); j++) {
        const order: Order = {
          ...template,
          orderNumber: `STBENCH${String(j).padStart(8, "0")}`,
          status: STATUSES[j % STATUSES.length],
          email: `shopper${j}@example.com`,
          customerName: `Shopper ${j}`,
          payment: null,
          createdAt: now - Math.floor((j / ORDERS) * DAYS * 86_400_000) - 1,
        };
        writeOrderTo(op, order, null);
      }
      if (!(await op.commit()).ok) throw new Error("seeding failed");
    }
    const seedMs = performance.now() - seedStart;
    const headers = { Authorization: `Bearer ${t.config.adminPassword}` };
    const get = async (path: string) => {
      const res = await t.request(path, { headers });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text.slice(0, 200)}`);
      return res;
    };
    const first = await get("/api/admin/orders?limit=50");
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const baseline = await median(() => listOrders(kv));
    const rows: [string, number][] = [
      [
        "first page of 50 (the dashboard's first paint)",
        await median(() => get("/api/admin/orders?limit=50")),
      ],
      [
        "second page (cursor)",
        await median(() =>
          get(`/api/admin/orders?limit=50&cursor=${first.headers.get("x-next-cursor")}`)
        ),
      ],
      ["search by email, one match", await median(() => get("/api/admin/orders?q=shopper4321@"))],
      [
        "the oldest day's orders (deep in the list)",
        await median(() =>
          get(
            `/api/admin/orders?from=${day(now - (DAYS - 1) * 86_400_000)}&to=${
              day(now - (DAYS - 1) * 86_400_000)
            }`,
          )
        ),
      ],
      ["status new, first page", await median(() => get("/api/admin/orders?status=new&limit=50"))],
      [
        "sales, last 30 days",
        await median(() =>
          get(`/api/admin/sales?from=${day(now - 29 * 86_400_000)}&to=${day(now)}`)
        ),
      ],
      ["pick list (every paid, unshipped order)", await median(() => get("/api/admin/pick-list"))],
      ["inventory with 30-day runway", await median(() => get("/api/admin/inventory"))],
      [
        "restock list (demand, stock, 30-day sales)",
        await median(() => get("/api/admin/restock")),
      ],
    ];
    console.log(
      `\n${ORDERS.toLocaleString("en")} orders over ${DAYS} days, seeded in ${
        (seedMs / 1000).toFixed(1)
      } s (KV file, median of ${RUNS})`,
    );
    console.log(`reading every order once (the old list): ${baseline.toFixed(1)} ms = 1.00`);
    for (const [name, ms] of rows) {
      console.log(
        `${name.padEnd(48)} ${ms.toFixed(1).padStart(8)} ms  ${(ms / baseline).toFixed(3)}`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
