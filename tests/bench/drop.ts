/**
 * The drop scenario of `deno task bench` (`run.ts drop` runs it alone, on a shop of its own):
 * 2,000 shoppers, each on a loopback address of its own, come for a drop of 100 packs with a
 * limit of 2 per person. The owner schedules it through POST /api/admin/drops (the admin's
 * bearer) about a minute ahead, on the shop's real clock; the shoppers arrive around the opening
 * (most in the 25 s before it, some in the first window's 30 s after it, a tenth after the
 * window), join the waiting room, poll their place about once a second, and once let in add the
 * pack with their ticket (most 1 or 2; a tenth try 3 first, which must be refused), check out
 * (hosted demo checkout) and pay, each with an email and a street of their own.
 *
 * Checks (a violation is marked CHECK FAILED and the run exits 1, as the flash sale's): exactly 100
 * units paid for and the owner's view says 100 sold, nobody paid for more than the limit, no 5xx.
 * Figures: the fairness of the draw (the Spearman rank correlation between the order of arrival
 * and the order of admission, among the shoppers present at the opening; near 0 when the order is
 * random), GET /api/health's p99 at rest, while the room fills and while the drop sells (and the
 * ratio to rest), the waiting room poll's p50 and p99, the join's, and the time to sell out.
 *
 * Bounded: every request in flight counts against MAX_IN_FLIGHT, each has a timeout, and every
 * shopper stops at the deadline; the whole scenario takes about two minutes. All load goes to the
 * shop on 127.0.0.1. It reports; only the checks above fail it.
 */
import { PACKS } from "../../shared/catalog/packs.ts";
import { FIRST_WINDOW_AFTER_MS } from "../../server/drops/record.ts";
import { DEMO_PAY_BODY, US_ADDRESS } from "../helpers/shop_fixtures.ts";
import type { ShopProcess } from "../helpers/shop_process.ts";
import { LoopbackClients } from "./loopback.ts";
import type { AdminOrderItem } from "../../shared/api_types.ts";

export const DROP_SHOPPERS = 2_000;
export const DROP_UNITS = 100;
export const DROP_LIMIT = 2;
/** The pack sold: not the Starter pack, which the other scenarios load. */
const PACK = PACKS[1];
/** The shortest hold a drop may have: an admitted shopper who never pays frees its place soon. */
const HOLD_MINUTES = 2;
/** How far ahead the drop is scheduled (the room refuses an opening less than a minute ahead). */
const OPENS_IN_MS = 65_000;
/** Arrivals: from this long before the opening ... */
const ARRIVALS_FROM_MS = -25_000;
/** ... the share of shoppers who come after the opening but inside the first window ... */
const AFTER_OPENING_SHARE = 0.2;
/** ... and the share who come after the first window, until LATE_UNTIL_MS after the opening. */
const LATE_SHARE = 0.1;
const LATE_UNTIL_MS = FIRST_WINDOW_AFTER_MS + 15_000;
/** No arrival within this of the first window's edge, so the shop and the bench agree on it. */
const EDGE_MARGIN_MS = 1_000;
/** A waiting shopper asks for its place this often (each ask waits 0.9 to 1.1 times this). */
const POLL_MS = 1_000;
/** Requests in flight at once, all shoppers together. */
const MAX_IN_FLIGHT = 64;
/** Every shopper stops this long after the opening, whatever happened. */
const DEADLINE_AFTER_OPENING_MS = 100_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** Health probes: loops, the pause after each answer, and the seconds at rest. */
const PROBE_LOOPS = 4;
const PROBE_GAP_MS = 5;
const REST_MS = 10_000;

/** What one shopper's visit came to. */
interface Visit {
  /** When the join was sent (the shopper's arrival), ms since the epoch. */
  arrivedAt: number;
  joined: boolean;
  /** When the shop says it let this shopper in, ms since the epoch. */
  admittedAt: number | null;
  /** Units this shopper paid for. */
  paidUnits: number;
  paidAt: number | null;
  /** The order the shopper paid for, and the units it asked for. */
  order: { orderNumber: string; units: number } | null;
  /** The last thing that happened: "paid 2", "soldOut", "join 409", "checkout 409", ... */
  outcome: string;
}

/** Latencies (ms) of one kind of request, and their statuses. */
interface Timings {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  statuses: Record<string, number>;
}

/** What the worker process prints as its one JSON line. */
export interface DropWorkerResult {
  shoppers: number;
  outcomes: Record<string, number>;
  joined: number;
  admitted: number;
  paidUnits: number;
  paidOrders: number;
  /** The most units one shopper paid for. */
  mostByOne: number;
  /** Shoppers who paid for more than the limit. */
  overLimit: number;
  /** The orders the shoppers were told were paid, with the units each asked for. */
  paid: { orderNumber: string; units: number }[];
  /** Shoppers who asked for 3 at once, and how many of those adds were refused (4xx). */
  triedThree: number;
  threeRefused: number;
  serverErrors: number;
  /** Seconds from the opening to the last unit paid for (null when not every unit was). */
  sellOutSeconds: number | null;
  /** Checkouts refused for 2 that the shopper retried with 1 (fewer left than asked for). */
  retriedWithOne: number;
  fairness: Fairness;
  poll: Timings;
  join: Timings;
  /** Admitted shoppers' add, checkout and pay, each request on its own. */
  buy: Timings;
  seconds: number;
  /** When the last shopper was done, ms since the epoch. */
  endedAt: number;
  /** Seconds from the first arrival to the last shopper done (the rate of the timed rows). */
  activeSeconds: number;
}

/** How the order of admission relates to the order of arrival. */
interface Fairness {
  /** Shoppers who joined before the opening (drawn together at the opening). */
  presentAtOpening: number;
  admittedOfThem: number;
  /** Spearman over all present, the never admitted tied last: near 0 when arrival bought nothing. */
  spearman: number | null;
  /** Spearman among the admitted of them only (admission time, batches tied). */
  spearmanAdmitted: number | null;
  /** Mean arrival percentile (0 first, 1 last) of the admitted among those present: near 0.5. */
  admittedArrivalPercentile: number | null;
  /** Spearman over every first-window arrival, late joiners included (they missed the draw). */
  firstWindow: number;
  spearmanFirstWindow: number | null;
}

/** The drop in bench-results/latest.json. */
export interface DropSummary {
  dropId: string;
  shoppers: number;
  units: number;
  limit: number;
  soldByOwnerView: number | null;
  holdingByOwnerView: number | null;
  refused: Record<string, number> | null;
  /** The pack's orders by status (orders, units), as the owner's order list shows them. */
  ordersByStatus: Record<string, { orders: number; units: number }>;
  /** Shoppers told their payment was received whose order the shop does not count so. */
  disagreements: string[];
  secondsToSellOutByOwnerView: number | null;
  worker: DropWorkerResult;
  /**
   * GET /api/health's p99 (ms) from this process, not the shoppers': in the REST_MS before the
   * first arrival; while the room filled (until the opening); while it sold (the opening to the
   * last unit paid, or to the end when not all were); after (until the last shopper was done);
   * and over the whole drop (the first arrival to the last unit paid). `healthRatio` is the whole
   * drop's over rest's.
   */
  health: {
    restP99Ms: number;
    roomP99Ms: number;
    sellingP99Ms: number;
    afterP99Ms: number;
    dropP99Ms: number;
    requests: number;
  };
  healthRatio: number;
  checks: DropChecks;
}

/** What the drop checks; `passed` when every one holds. */
export interface DropChecks {
  units: number;
  paidUnits: number;
  soldByOwnerView: number;
  /** Units of the pack in the shop's orders that count as sales. */
  soldInOrders: number;
  oversold: number;
  overLimit: number;
  threeAccepted: number;
  serverErrors: number;
  passed: boolean;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Ranks from 1, ties given the mean of the ranks they span. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    for (let k = i; k <= j; k++) ranks[order[k][1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return ranks;
}

/** Spearman's rank correlation (Pearson's over average ranks); null when either side is flat. */
export function spearman(x: readonly number[], y: readonly number[]): number | null {
  if (x.length < 3) return null;
  const [rx, ry] = [averageRanks(x), averageRanks(y)];
  const mean = (rx.length + 1) / 2;
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < rx.length; i++) {
    sxy += (rx[i] - mean) * (ry[i] - mean);
    sxx += (rx[i] - mean) ** 2;
    syy += (ry[i] - mean) ** 2;
  }
  return sxx === 0 || syy === 0 ? null : round(sxy / Math.sqrt(sxx * syy), 3);
}

/** Runs `fn` once fewer than `limit` others run (first come, first served). */
function inFlightLimit(limit: number) {
  let free = limit;
  const queue: (() => void)[] = [];
  return async function <T>(fn: () => Promise<T>): Promise<T> {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => queue.push(resolve));
    try {
      return await fn();
    } finally {
      const next = queue.shift();
      if (next) next();
      else free++;
    }
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** A request's answer: status, JSON object body (or null) and its time in ms. */
interface Answer {
  status: number;
  body: Record<string, unknown> | null;
  ms: number;
}

/** Sends one request from `client`, reading the whole answer, bounded by REQUEST_TIMEOUT_MS. */
async function send(
  client: Deno.HttpClient | undefined,
  method: string,
  url: string,
  json?: unknown,
): Promise<Answer> {
  const init: RequestInit & { client?: Deno.HttpClient } = {
    method,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    ...(client ? { client } : {}),
    ...(json === undefined
      ? {}
      : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(json) }),
  };
  const t0 = performance.now();
  const res = await fetch(url, init);
  const text = await res.text();
  const ms = performance.now() - t0;
  let body: Record<string, unknown> | null = null;
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed;
  } catch { /* not JSON: body stays null */ }
  return { status: res.status, body, ms };
}

/** Collects latencies and statuses of one kind of request. */
class Tally {
  readonly ms: number[] = [];
  readonly statuses: Record<string, number> = {};
  add(answer: Answer): Answer {
    this.ms.push(answer.ms);
    this.statuses[answer.status] = (this.statuses[answer.status] ?? 0) + 1;
    return answer;
  }
  get timings(): Timings {
    const sorted = [...this.ms].sort((a, b) => a - b);
    return {
      requests: sorted.length,
      p50Ms: round(percentile(sorted, 50)),
      p99Ms: round(percentile(sorted, 99)),
      statuses: this.statuses,
    };
  }
}

/**
 * When shopper `i` of `n` arrives, relative to the opening: spread evenly (in a shuffled order,
 * so a shopper's number says nothing of its arrival) over the 25 s before the opening, the first
 * window after it, and the 15 s after the window.
 */
function arrivalPlan(n: number): number[] {
  const late = Math.round(n * LATE_SHARE);
  const after = Math.round(n * AFTER_OPENING_SHARE);
  const before = n - late - after;
  const spread = (count: number, from: number, to: number) =>
    Array.from({ length: count }, (_, k) => from + ((k + 0.5) / count) * (to - from));
  const plan = [
    ...spread(before, ARRIVALS_FROM_MS, -EDGE_MARGIN_MS),
    ...spread(after, 0, FIRST_WINDOW_AFTER_MS - EDGE_MARGIN_MS),
    ...spread(late, FIRST_WINDOW_AFTER_MS + EDGE_MARGIN_MS, LATE_UNTIL_MS),
  ];
  for (let i = plan.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [plan[i], plan[j]] = [plan[j], plan[i]];
  }
  return plan;
}

/** GET /api/health from PROBE_LOOPS loops until `stop()`; each answer's time and when it came. */
async function probeHealth(url: string, stop: () => boolean): Promise<[number, number][]> {
  const samples: [number, number][] = [];
  async function loop() {
    while (!stop()) {
      try {
        const a = await send(undefined, "GET", `${url}/api/health`);
        if (a.status === 200) samples.push([Date.now(), a.ms]);
      } catch { /* a probe that fails is not a latency */ }
      await sleep(PROBE_GAP_MS);
    }
  }
  await Promise.all(Array.from({ length: PROBE_LOOPS }, loop));
  return samples;
}

function p99Between(samples: [number, number][], from: number, to: number): number {
  const ms = samples.filter(([at]) => at >= from && at < to).map(([, m]) => m)
    .sort((a, b) => a - b);
  return round(percentile(ms, 99));
}

/**
 * Worker: the shoppers of a drop scheduled to open at `opensAt` (ms since the epoch), selling
 * product `productId`, from loopback addresses `base` on. Health probes at rest first, then
 * throughout.
 */
export async function dropWorker(
  url: string,
  dropId: string,
  opensAt: number,
  productId: number,
  base: number,
  shoppers = DROP_SHOPPERS,
): Promise<DropWorkerResult> {
  using clients = new LoopbackClients(base);
  const gated = inFlightLimit(MAX_IN_FLIGHT);
  const [poll, join, buy] = [new Tally(), new Tally(), new Tally()];
  const deadline = opensAt + DEADLINE_AFTER_OPENING_MS;
  let serverErrors = 0;
  let triedThree = 0;
  let threeRefused = 0;
  let retriedWithOne = 0;
  const call = async (tally: Tally, i: number, method: string, path: string, json?: unknown) => {
    const answer = tally.add(
      await gated(() => send(clients.get(i), method, `${url}${path}`, json)),
    );
    if (answer.status >= 500) serverErrors++;
    return answer;
  };

  const started = Date.now();

  /** An admitted shopper buys `want` (3: refused, then 2), checks out and pays. */
  async function purchase(i: number, visit: Visit, ticket: string, cartId: string) {
    const want = i % 10 === 0 ? 3 : i % 2 === 0 ? 2 : 1;
    const add = (q: number) =>
      call(
        buy,
        i,
        "POST",
        `/api/cart/add?itemId=${productId}&quantity=${q}&cartId=${encodeURIComponent(cartId)}` +
          `&ticket=${encodeURIComponent(ticket)}`,
      );
    let quantity = want;
    let added = await add(quantity);
    if (want === 3) {
      triedThree++;
      if (added.status >= 400 && added.status < 500) {
        threeRefused++;
        quantity = 2;
        added = await add(quantity);
      }
    }
    if (added.status !== 200) return void (visit.outcome = `add ${added.status}`);
    let checkout = await call(buy, i, "POST", `/api/cart/${cartId}/checkout/us`);
    if (checkout.status === 409 && quantity > 1) {
      // Fewer units left than asked for: a shopper takes the one there is, so the last unit
      // sells rather than wait for this place's admission to lapse.
      retriedWithOne++;
      const fewer = await call(buy, i, "PUT", `/api/cart/${cartId}/items/${productId}?quantity=1`);
      if (fewer.status === 200) {
        quantity = 1;
        checkout = await call(buy, i, "POST", `/api/cart/${cartId}/checkout/us`);
      }
    }
    const page = checkout.body?.url;
    if (checkout.status !== 200 || typeof page !== "string") {
      return void (visit.outcome = `checkout ${checkout.status}`);
    }
    const session = encodeURIComponent(page.slice(page.lastIndexOf("/") + 1));
    const pay = await call(buy, i, "POST", `/api/demo/checkout-sessions/${session}/pay`, {
      ...DEMO_PAY_BODY,
      // A person of their own: an email, a name and a door each (the limit counts all three).
      email: `drop-shopper-${i}@example.com`,
      name: `Drop Shopper ${i}`,
      address: { ...US_ADDRESS, street: `${i + 1} Drop Lane`, apartment: "" },
    });
    if (pay.status === 200 && pay.body?.status === "PAYMENT_RECEIVED") {
      visit.paidUnits = quantity;
      visit.paidAt = Date.now();
      visit.outcome = `paid ${quantity}`;
      visit.order = { orderNumber: String(checkout.body?.orderNumber), units: quantity };
    } else {
      visit.outcome = `pay ${pay.status} ${String(pay.body?.status ?? "")}`.trim();
    }
  }

  async function shopper(i: number, arrival: number): Promise<Visit> {
    await sleep(opensAt + arrival - Date.now());
    const visit: Visit = {
      arrivedAt: Date.now(),
      joined: false,
      admittedAt: null,
      paidUnits: 0,
      paidAt: null,
      order: null,
      outcome: "no answer",
    };
    try {
      const joined = await call(join, i, "POST", `/api/drops/${dropId}/join`, {});
      const ticket = joined.body?.ticket;
      const cartId = joined.body?.cartId;
      if (joined.status !== 200 || typeof ticket !== "string" || typeof cartId !== "string") {
        visit.outcome = `join ${joined.status}`;
        return visit;
      }
      visit.joined = true;
      visit.outcome = "still waiting";
      const place = `/api/drops/${dropId}/tickets/${encodeURIComponent(ticket)}?cartId=${
        encodeURIComponent(cartId)
      }`;
      while (Date.now() < deadline) {
        const answer = await call(poll, i, "GET", place);
        const state = answer.body?.state;
        if (answer.status === 200 && state === "admitted") {
          const at = answer.body?.admittedAt;
          visit.admittedAt = typeof at === "string" ? Date.parse(at) : Date.now();
          await purchase(i, visit, ticket, cartId);
          return visit;
        }
        if (answer.status !== 200 || (state !== "waiting")) {
          visit.outcome = answer.status === 200 ? String(state) : `poll ${answer.status}`;
          return visit;
        }
        await sleep(POLL_MS * (0.9 + 0.2 * Math.random()));
      }
      return visit;
    } catch {
      return visit;
    } finally {
      // The shopper leaves: its connection goes, as a closed tab's would.
      clients.close(i);
    }
  }

  const plan = arrivalPlan(shoppers);
  const visits = await Promise.all(plan.map((arrival, i) => shopper(i, arrival)));
  const end = Date.now();

  const outcomes: Record<string, number> = {};
  for (const v of visits) outcomes[v.outcome] = (outcomes[v.outcome] ?? 0) + 1;
  const paidUnits = visits.reduce((sum, v) => sum + v.paidUnits, 0);
  const lastPaid = Math.max(0, ...visits.map((v) => v.paidAt ?? 0));
  return {
    shoppers,
    outcomes,
    joined: visits.filter((v) => v.joined).length,
    admitted: visits.filter((v) => v.admittedAt !== null).length,
    paidUnits,
    paidOrders: visits.filter((v) => v.paidUnits > 0).length,
    mostByOne: Math.max(0, ...visits.map((v) => v.paidUnits)),
    overLimit: visits.filter((v) => v.paidUnits > DROP_LIMIT).length,
    paid: visits.flatMap((v) => (v.order ? [v.order] : [])),
    triedThree,
    threeRefused,
    serverErrors,
    sellOutSeconds: paidUnits >= DROP_UNITS ? round((lastPaid - opensAt) / 1000) : null,
    fairness: fairnessOf(visits, opensAt),
    retriedWithOne,
    poll: poll.timings,
    join: join.timings,
    buy: buy.timings,
    seconds: round((end - started) / 1000),
    endedAt: end,
    activeSeconds: round((end - (opensAt + ARRIVALS_FROM_MS)) / 1000),
  };
}

/** The rank correlations of arrival and admission (see `Fairness`). */
function fairnessOf(visits: Visit[], opensAt: number): Fairness {
  const joined = visits.filter((v) => v.joined);
  const present = joined.filter((v) => v.arrivedAt < opensAt);
  const admitted = present.filter((v) => v.admittedAt !== null);
  const firstWindow = joined.filter((v) => v.arrivedAt <= opensAt + FIRST_WINDOW_AFTER_MS);
  const admission = (v: Visit) => v.admittedAt ?? Number.MAX_SAFE_INTEGER;
  const arrivalRank = averageRanks(present.map((v) => v.arrivedAt));
  const percentileOf = (v: Visit) => (arrivalRank[present.indexOf(v)] - 1) / (present.length - 1);
  return {
    presentAtOpening: present.length,
    admittedOfThem: admitted.length,
    spearman: spearman(present.map((v) => v.arrivedAt), present.map(admission)),
    spearmanAdmitted: spearman(admitted.map((v) => v.arrivedAt), admitted.map(admission)),
    admittedArrivalPercentile: admitted.length > 0 && present.length > 1
      ? round(admitted.reduce((sum, v) => sum + percentileOf(v), 0) / admitted.length, 3)
      : null,
    firstWindow: firstWindow.length,
    spearmanFirstWindow: spearman(
      firstWindow.map((v) => v.arrivedAt),
      firstWindow.map(admission),
    ),
  };
}

/** Sends an admin call with the owner's bearer; throws on anything but 2xx. */
async function owner(shop: ShopProcess, method: string, path: string, json?: unknown) {
  const res = await fetch(`${shop.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${shop.adminPassword}`,
      ...(json === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/**
 * The scenario on `shop`: stock for the pack, the drop scheduled OPENS_IN_MS ahead, the shoppers
 * run by `runWorker` (this repository's run.ts as a process of its own, so the shoppers' load
 * never shares a process with what measures it), and the owner's view read afterwards.
 */
export async function dropScenario(
  shop: ShopProcess,
  base: number,
  runWorker: (args: string[]) => Promise<DropWorkerResult>,
): Promise<DropSummary> {
  // Plenty on the shelf: the drop's units, not the stock, are what runs out.
  for (const id of PACK.switchIds) {
    await owner(shop, "PUT", `/api/admin/inventory/switches/${id}`, { stock: 100_000 });
  }
  await owner(shop, "PUT", "/api/admin/inventory/components/SMALL_BOX", { stock: 1_000_000 });
  const opensAt = Math.ceil((Date.now() + OPENS_IN_MS) / 1000) * 1000;
  const { id } = await owner(shop, "POST", "/api/admin/drops", {
    target: { kind: "pack", id: PACK.id },
    units: DROP_UNITS,
    opensAt: new Date(opensAt).toISOString(),
    perPersonLimit: DROP_LIMIT,
    holdMinutes: HOLD_MINUTES,
  });
  // The probe runs here, in a process the shoppers do not keep busy, so its figures are the
  // shop's answer times rather than the shoppers' own event loop.
  let done = false;
  const probe = probeHealth(shop.url, () => done);
  let worker: DropWorkerResult;
  try {
    worker = await runWorker([
      "drop-worker",
      shop.url,
      id,
      String(opensAt),
      String(PACK.id),
      String(base),
    ]);
  } finally {
    done = true;
  }
  const samples = await probe;
  const firstArrival = opensAt + ARRIVALS_FROM_MS;
  const soldOutAt = worker.sellOutSeconds === null
    ? worker.endedAt
    : opensAt + worker.sellOutSeconds * 1000;
  const health = {
    restP99Ms: p99Between(samples, firstArrival - REST_MS, firstArrival),
    roomP99Ms: p99Between(samples, firstArrival, opensAt),
    sellingP99Ms: p99Between(samples, opensAt, soldOutAt),
    afterP99Ms: p99Between(samples, soldOutAt, worker.endedAt),
    dropP99Ms: p99Between(samples, firstArrival, soldOutAt),
    requests: samples.length,
  };
  const view = await owner(shop, "GET", `/api/admin/drops/${id}`);
  const orders = await packOrders(shop);
  const soldInOrders = [...orders.values()].filter((o) => SALE.has(o.status))
    .reduce((sum, o) => sum + o.units, 0);
  // The shoppers told they paid whose order the shop does not count as a sale, or for other units.
  const disagreements = worker.paid.flatMap((p) => {
    const o = orders.get(p.orderNumber);
    return o && SALE.has(o.status) && o.units === p.units ? [] : [
      `${p.orderNumber}: told paid for ${p.units}, ${o ? `${o.status} ${o.units}` : "no order"}`,
    ];
  });
  const num = (v: unknown) => (typeof v === "number" ? v : null);
  const sold = num(view.sold);
  const checks: DropChecks = {
    units: DROP_UNITS,
    paidUnits: worker.paidUnits,
    soldByOwnerView: sold ?? -1,
    soldInOrders,
    oversold: Math.max(
      0,
      worker.paidUnits - DROP_UNITS,
      (sold ?? 0) - DROP_UNITS,
      soldInOrders - DROP_UNITS,
    ),
    overLimit: worker.overLimit,
    threeAccepted: worker.triedThree - worker.threeRefused,
    serverErrors: worker.serverErrors,
    passed: false,
  };
  checks.passed = checks.paidUnits === DROP_UNITS && checks.soldByOwnerView === DROP_UNITS &&
    checks.soldInOrders === DROP_UNITS && disagreements.length === 0 &&
    checks.oversold === 0 && checks.overLimit === 0 && checks.threeAccepted === 0 &&
    checks.serverErrors === 0;
  const rest = health.restP99Ms;
  return {
    dropId: id,
    shoppers: DROP_SHOPPERS,
    units: DROP_UNITS,
    limit: DROP_LIMIT,
    soldByOwnerView: sold,
    holdingByOwnerView: num(view.holding),
    refused: view.refused && typeof view.refused === "object" ? view.refused : null,
    ordersByStatus: byStatus(orders),
    disagreements,
    secondsToSellOutByOwnerView: num(view.secondsToSellOut),
    worker,
    health,
    healthRatio: rest > 0 ? round(health.dropP99Ms / rest) : 0,
    checks,
  };
}

/** The statuses whose orders are sales (paid and not cancelled). */
const SALE = new Set(["PAYMENT_RECEIVED", "PROCESSING", "SHIPPED", "DELIVERED"]);

/** Every order holding the drop's pack, by number: its status and the pack's units in it. */
async function packOrders(
  shop: ShopProcess,
): Promise<Map<string, { status: string; units: number }>> {
  const found = new Map<string, { status: string; units: number }>();
  let cursor: string | null = null;
  do {
    const res = await fetch(
      `${shop.url}/api/admin/orders?limit=200${
        cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""
      }`,
      { headers: { Authorization: `Bearer ${shop.adminPassword}` } },
    );
    if (!res.ok) throw new Error(`GET /api/admin/orders: ${res.status} ${await res.text()}`);
    cursor = res.headers.get("x-next-cursor");
    const page: { status: string; orderNumber: string; items: AdminOrderItem[] }[] = await res
      .json();
    for (const order of page) {
      const units = order.items.filter((i) => i.productId === PACK.id)
        .reduce((sum, i) => sum + i.quantity, 0);
      if (units > 0) found.set(order.orderNumber, { status: order.status, units });
    }
  } while (cursor);
  return found;
}

function byStatus(orders: Map<string, { status: string; units: number }>) {
  const counts: Record<string, { orders: number; units: number }> = {};
  for (const { status, units } of orders.values()) {
    const c = counts[status] ??= { orders: 0, units: 0 };
    c.orders++;
    c.units += units;
  }
  return counts;
}

/** The drop's figures, a few lines. */
export function printDrop(s: DropSummary): void {
  const w = s.worker;
  const f = w.fairness;
  const { passed, ...counts } = s.checks;
  console.log(
    `drop: ${s.shoppers} shoppers, ${s.units} units, limit ${s.limit}: ` +
      `${passed ? "checks passed" : "CHECK FAILED"} (${
        Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(", ")
      })`,
  );
  console.log(
    `drop: ${w.joined} joined, ${w.admitted} let in, ${w.paidOrders} orders paid (` +
      `${w.retriedWithOne} retried with 1 after a refusal for 2); ` +
      `sold out in ${w.sellOutSeconds ?? "-"} s after the opening (owner's view: ` +
      `${s.secondsToSellOutByOwnerView ?? "-"} s); outcomes ${JSON.stringify(w.outcomes)}; ` +
      `refused ${JSON.stringify(s.refused)}; orders ${JSON.stringify(s.ordersByStatus)}`,
  );
  for (const d of s.disagreements) console.log(`drop: CHECK FAILED: ${d}`);
  console.log(
    `drop: fairness among the ${f.presentAtOpening} present at the opening: Spearman ` +
      `${f.spearman} (the never admitted tied last), ${f.spearmanAdmitted} among the ` +
      `${f.admittedOfThem} let in; their mean arrival percentile ${f.admittedArrivalPercentile}; ` +
      `over the whole first window (${f.firstWindow}): ${f.spearmanFirstWindow}`,
  );
  console.log(
    `drop: GET /api/health p99 ${s.health.restP99Ms} ms at rest; ${s.health.dropP99Ms} ms over ` +
      `the drop (× ${s.healthRatio}): ${s.health.roomP99Ms} ms while the room filled, ` +
      `${s.health.sellingP99Ms} ms while it sold, ${s.health.afterP99Ms} ms after; ` +
      `waiting room poll p50 ${w.poll.p50Ms} ms, p99 ${w.poll.p99Ms} ms (${w.poll.requests}); ` +
      `join p99 ${w.join.p99Ms} ms (${w.join.requests}); add/checkout/pay p99 ${w.buy.p99Ms} ms`,
  );
}
