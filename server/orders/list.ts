/**
 * The admin's list of orders: newest first, filtered and paged over the by-time index, so a page
 * reads the small index entries it walks past and only the orders it shows.
 */
import type { OrderStatus } from "../../shared/status.ts";
import { InvalidInput } from "../errors.ts";
import type { Order } from "./order.ts";
import { keys } from "../kv/keys.ts";
import { getManyBatched, LIST_BATCH } from "../kv/kv_util.ts";
import type { OrderListing } from "./store.ts";

const DAY_MS = 86_400_000;

/** Which orders a page holds. */
export interface OrderQuery {
  /** Keeps an order by its status (all when absent). */
  status?: (status: OrderStatus) => boolean;
  /** Lower-case text the order number, email or name contains. */
  q?: string;
  /** First and last UTC day (YYYY-MM-DD) of creation, inclusive. */
  from?: string;
  to?: string;
  limit: number;
  /** Where the previous page stopped. */
  cursor?: string;
}

/** One page, and the cursor of the next when more orders match. */
export interface OrderPage {
  orders: Order[];
  nextCursor: string | null;
}

type IndexKey = readonly ["orders_by_time", number, string];

function encodeCursor(key: IndexKey): string {
  return btoa(JSON.stringify([key[1], key[2]])).replaceAll("=", "");
}

function decodeCursor(cursor: string): IndexKey {
  try {
    const [at, orderNumber] = JSON.parse(atob(cursor));
    if (Number.isSafeInteger(at) && typeof orderNumber === "string" && orderNumber.length <= 40) {
      return keys.orderByTime(at, orderNumber);
    }
  } catch { /* reported below */ }
  throw new InvalidInput(
    "That page cursor is not one this list gave out; start from the first page",
  );
}

/** The index range a query's days (and cursor) cover; the cursor's key itself is excluded. */
function rangeOf(query: OrderQuery): Deno.KvListSelector {
  const start = query.from ? keys.orderByTime(Date.parse(query.from), "") : undefined;
  let end: Deno.KvKey | undefined = query.to
    ? keys.orderByTime(Date.parse(query.to) + DAY_MS, "")
    : undefined;
  if (query.cursor) {
    const after = decodeCursor(query.cursor);
    // Newest first: the next page ends (exclusive) where the last one stopped.
    if (!end || compareKeys(after, end as IndexKey) < 0) end = after;
  }
  if (start && end) return { start, end };
  if (start) return { prefix: keys.ordersByTime(), start };
  if (end) return { prefix: keys.ordersByTime(), end };
  return { prefix: keys.ordersByTime() };
}

function compareKeys(a: IndexKey, b: IndexKey): number {
  return a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
}

/** A page of orders, newest first. New orders arriving between pages never shift a later page. */
export async function listOrderPage(kv: Deno.Kv, query: OrderQuery): Promise<OrderPage> {
  const matched: IndexKey[] = [];
  let nextCursor: string | null = null;
  const entries = kv.list<OrderListing>(rangeOf(query), {
    reverse: true,
    batchSize: LIST_BATCH,
  });
  for await (const entry of entries) {
    const listing = entry.value;
    if (query.status && !query.status(listing.status)) continue;
    if (query.q && !listing.find.includes(query.q)) continue;
    if (matched.length === query.limit) {
      // One more match exists: the page is full and a next one starts after its last order.
      nextCursor = encodeCursor(matched[matched.length - 1]);
      break;
    }
    matched.push(entry.key as unknown as IndexKey);
  }
  const orders = await getManyBatched<Order>(kv, matched.map((k) => keys.order(k[2])));
  return { orders: orders.flatMap((e) => (e.value ? [e.value] : [])), nextCursor };
}

/** Every order of a query, walking its pages (reports and exports over a chosen range). */
export async function listAllOrders(
  kv: Deno.Kv,
  query: Omit<OrderQuery, "limit" | "cursor">,
): Promise<Order[]> {
  const all: Order[] = [];
  let cursor: string | undefined;
  do {
    const page = await listOrderPage(kv, { ...query, limit: 500, cursor });
    all.push(...page.orders);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return all;
}
