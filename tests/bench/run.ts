/**
 * `deno task bench`: load figures for the shop, each as a ratio to a ceiling measured in the same
 * run on the same machine (docs/decisions.md#measuring-speed), so numbers from different machines
 * compare.
 *
 * - Framework ceiling: GET /api/health (no storage touched).
 * - Storage ceiling: raw Deno KV atomic commits (check + set of a new key, 50 in flight) on a fresh
 *   KV file in a process of its own.
 * - Scenarios: the catalogue, a cart read, cart writes (a new cart per request, and one contended
 *   cart), checkout reservations, paid orders (add, checkout, pay) and a flash sale (500 shoppers
 *   racing for 50 units).
 * - Login burst: GET /api/health's p99 at rest, then while 50 wrong sign-ins from 50 addresses
 *   hash their passwords, and their ratio: what password hashing costs everyone else
 *   (server/password_gate.ts). `run.ts login-burst` runs this scenario alone, on a shop of its own,
 *   printing its figures without writing bench-results/latest.json.
 * - Hostile pages (tests/bench/hostile_pages.ts): GET /api/health's p99 at rest, then while 4
 *   connections ask for pages and 4 for build previews under URLs never seen before, and their
 *   ratio: what a random query string costs everyone else. `run.ts hostile-pages` runs it alone.
 * - Latency pass (tests/bench/latency.ts): the scenarios again in this process over a KV with
 *   injected network delays, counting each request's KV calls and sequential round trips (what
 *   Deno Deploy's shared KV makes a shopper wait for). `run.ts latency [--calls]` runs it alone.
 * - Orders at scale (tests/bench/orders_at_scale.ts): the admin's list, search, sales, pick list and
 *   restock list over 10,000 orders. `run.ts orders-10k` runs it alone.
 * - Drop (tests/bench/drop.ts): 2,000 shoppers from 2,000 addresses come for a drop of 100 packs
 *   (limit 2), scheduled a minute ahead: they join the waiting room, poll their place, and once let
 *   in buy and pay. Checks exactly 100 sold, nobody over the limit, no 5xx; reports the draw's
 *   fairness (rank correlation of arrival and admission), health p99 during it against rest, the
 *   poll's p99 and the time to sell out. `run.ts drop` runs it alone, on a shop of its own.
 *
 * HTTP load comes from autocannon (npm) in its own process; the shopper loads (checkout, paid
 * orders, flash sale), whose every request needs its own cart, come from this file run as a worker
 * process (`run.ts checkout-worker ...` and so on), as does the raw KV load (`run.ts kv-worker
 * ...`). The server limits unpaid checkouts per client address (MAX_HOLDS_PER_CLIENT), so every
 * simulated shopper sends from its own loopback address (127.0.X.Y, see LoopbackClients); all load
 * goes to the server on 127.0.0.1 and is bounded in time and in requests. Figures are printed as a
 * table and written to bench-results/latest.json. Benchmarks are never timed assertions: this
 * reports, it does not fail on a slow machine. Only the flash sale checks correctness (exactly 50
 * sold, every other shopper told why) and the drop: a violation is marked CHECK FAILED and the run
 * exits 1.
 */
import { type ShopProcess, startShop } from "../helpers/shop_process.ts";
import { DEMO_PAY_BODY, STARTER } from "../helpers/shop_fixtures.ts";
import { passwordGate } from "../../server/password_gate.ts";
import { latencyOnly, latencyPass, printLatency } from "./latency.ts";
import { ordersAtScale } from "./orders_at_scale.ts";
import { hostilePages, type HostilePagesSummary, printHostilePages } from "./hostile_pages.ts";
import { LoopbackClients } from "./loopback.ts";
import {
  DROP_LIMIT,
  DROP_SHOPPERS,
  DROP_UNITS,
  type DropChecks,
  dropScenario,
  type DropSummary,
  dropWorker,
  type DropWorkerResult,
  printDrop,
} from "./drop.ts";

/** Concurrent connections (or requests in flight) of every scenario. */
const CONNECTIONS = 50;
/** Seconds of load per autocannon scenario, after a short warm-up. */
const SECONDS = 5;
/** Seconds of the raw KV commit load. */
const KV_SECONDS = 3;
/** Upper bounds of the worker loads, so a fast machine cannot run away. */
const MAX_KV_COMMITS = 200_000;
const MAX_CHECKOUTS = 4_000;
const MAX_PAID_ORDERS = 4_000;
/**
 * Unpaid checkouts one client address may hold: the server's default MAX_HOLDS_PER_CLIENT, which
 * the bench's shop is started with explicitly so an inherited env var cannot change the load.
 */
const HOLDS_PER_ADDRESS = 3;
/** The flash sale: this many shoppers race for `FLASH_UNITS` Starter packs. */
const FLASH_SHOPPERS = 500;
const FLASH_UNITS = 50;
/** Seconds the flash sale's untimed cart making may take at most. */
const FLASH_SETUP_SECONDS = 60;
/** No single shopper request may take longer than this (keeps every worker bounded in time). */
const REQUEST_TIMEOUT_MS = 30_000;
/** The login burst: this many wrong sign-ins at once, each from its own address and email. */
const BURST_LOGINS = 50;
/**
 * Health probes of the login burst: this many loops, each waiting PROBE_GAP_MS between answers,
 * so the probe is a few hundred light requests a second, a shopper's view rather than a load of
 * its own (on 2 cores, a probe at full speed would compete with the hashing for the CPU).
 */
const PROBE_LOOPS = 4;
const PROBE_GAP_MS = 5;
/** Seconds of health probes at rest, before the burst. */
const PROBE_REST_SECONDS = 3;
/** Upper bound of the health probes of each phase. */
const MAX_PROBES = 20_000;
/** Loopback address numbers (see loopbackAddress) of each shopper scenario, never overlapping. */
const CHECKOUT_ADDRESSES = CONNECTIONS *
  Math.ceil(Math.ceil(MAX_CHECKOUTS / CONNECTIONS) / HOLDS_PER_ADDRESS);
const ADDRESS_BASE = {
  checkout: 0,
  paid: CHECKOUT_ADDRESSES,
  flash: CHECKOUT_ADDRESSES + CONNECTIONS,
  login: CHECKOUT_ADDRESSES + CONNECTIONS + FLASH_SHOPPERS,
  drop: CHECKOUT_ADDRESSES + CONNECTIONS + FLASH_SHOPPERS + BURST_LOGINS,
};
/** What browsers send; autocannon alone sends no Accept-Encoding. */
const BROWSER_ENCODINGS = { "Accept-Encoding": "gzip, deflate, br" };

/** One measured scenario. */
interface Figure {
  scenario: string;
  /** Requests (or commits) per second. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers that were not 2xx (a 304 counts here: expected for the If-None-Match scenario). */
  non2xx: number;
  errors: number;
  /** Answers by HTTP status. */
  statuses?: Record<string, number>;
  ceiling: "health" | "kv-commit" | null;
  ratio: number | null;
  note?: string;
  /** What a scenario that checks correctness counted, with `passed`. */
  checks?: FlashChecks | DropChecks;
}

/** What a worker process prints as its one JSON line. */
interface WorkerResult {
  requests: number;
  seconds: number;
  latenciesMs: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  statuses?: Record<string, number>;
  /** Distinct loopback addresses (shoppers) the load came from. */
  addresses?: number;
  /** Shopper journeys started, where `requests` counts only the complete ones (paid orders). */
  attempts?: number;
}

/** What the flash sale counts. */
interface FlashChecks {
  shoppers: number;
  units: number;
  paid: number;
  /** Losers answered 409 with a non-empty `insufficientStock`. */
  soldOut: number;
  /** Neither paid nor told the stock was short (other status, no `insufficientStock`, no answer). */
  unexplained: number;
  /** 5xx answers to checkout or pay. */
  serverErrors: number;
  passed: boolean;
}

/** The flash worker's answer. */
interface FlashResult extends WorkerResult {
  checks: FlashChecks;
}

/** The login worker's answer: health probes at rest and during the burst, and the sign-ins. */
interface LoginBurstResult {
  rest: WorkerResult;
  burst: WorkerResult;
  /** `seconds` is the burst's wall time: from the first sign-in sent to the last answered. */
  logins: WorkerResult;
}

/** The login burst in bench-results/latest.json. */
interface LoginBurstSummary {
  logins: number;
  healthP99RestMs: number;
  healthP99BurstMs: number;
  /** Burst p99 over rest p99. */
  p99Ratio: number;
  /** Sign-ins answered 401 (compared), 503 (hashing queue full) and anything else. */
  answers: { "401": number; "503": number; other: number };
  wallSeconds: number;
  /** The hashing gate of a shop on this machine (server/password_gate.ts). */
  gate: { permits: number; queue: number };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/**
 * Runs `work` from `concurrency` loops until the deadline or the request budget is spent. `work`
 * gets the request's number and its loop's, and answers a status (or an outcome label, counted as
 * non-2xx unless it starts with "2"), or null to end its loop.
 */
async function closedLoop(
  concurrency: number,
  seconds: number,
  maxRequests: number,
  work: (i: number, loop: number) => Promise<number | string | null>,
): Promise<WorkerResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  async function loop(_: unknown, k: number) {
    while (performance.now() < deadline) {
      const i = next++;
      if (i >= maxRequests) return;
      const t0 = performance.now();
      try {
        const status = await work(i, k);
        if (status === null) return;
        latencies.push(performance.now() - t0);
        statuses[status] = (statuses[status] ?? 0) + 1;
      } catch {
        errors++;
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const non2xx = Object.entries(statuses).filter(([s]) => !s.startsWith("2"))
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    requests: latencies.length,
    seconds: elapsed,
    latenciesMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
    non2xx,
    errors,
    statuses,
  };
}

/** Worker: raw KV commits on a fresh file, as a new cart is written (check absent, then set). */
async function kvWorker(seconds: number, concurrency: number): Promise<WorkerResult> {
  const dir = await Deno.makeTempDir({ prefix: "bench-kv-" });
  const kv = await Deno.openKv(`${dir}/raw.kv`);
  // A value shaped and sized like a cart record, so the row compares like with like.
  const value = {
    id: "x".repeat(22),
    lines: [{ lineId: "384", kind: "product", productId: 384, quantity: 1 }],
    createdAt: Date.now(),
    updatedAt: Date.now(),
    expiresAt: Date.now() + 1e9,
    userId: null,
  };
  const commit = async (i: number) => {
    const key = ["bench", i];
    const result = await kv.atomic().check({ key, versionstamp: null }).set(key, value).commit();
    return result.ok ? 200 : 409;
  };
  await closedLoop(concurrency, 0.5, 2_000, (i) => commit(-1 - i)); // warm-up
  const result = await closedLoop(concurrency, seconds, MAX_KV_COMMITS, commit);
  kv.close();
  await Deno.remove(dir, { recursive: true });
  return result;
}

/** A JSON object answer (null when the body is not one). */
interface Answer {
  status: number;
  body: Record<string, unknown> | null;
}

function is2xx(status: number): boolean {
  return status >= 200 && status < 300;
}

/** A POST sent from `client` (its loopback address), bounded by REQUEST_TIMEOUT_MS. */
function postFrom(client: Deno.HttpClient, url: string, json?: unknown): Promise<Response> {
  // Typed apart from the call: the DOM lib's fetch overload has no `client` for a literal to name.
  const init: RequestInit & { client: Deno.HttpClient } = {
    method: "POST",
    client,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    ...(json === undefined
      ? {}
      : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(json) }),
  };
  return fetch(url, init);
}

/** POSTs from one shopper's client, reading the whole answer. */
async function post(client: Deno.HttpClient, url: string, json?: unknown): Promise<Answer> {
  const res = await postFrom(client, url, json);
  const text = await res.text();
  let body: Record<string, unknown> | null = null;
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed;
  } catch { /* not JSON: body stays null */ }
  return { status: res.status, body };
}

/** A new cart holding one Starter pack, made from `client`; its id, or the failing answer. */
async function newCart(url: string, client: Deno.HttpClient): Promise<string | Answer> {
  const answer = await post(client, `${url}/api/cart/add?itemId=${STARTER.id}`);
  const id = answer.body?.id;
  return is2xx(answer.status) && typeof id === "string" ? id : answer;
}

/** How one shopper's checkout (and pay, if the checkout got that far) ended. */
interface Purchase {
  paid: boolean;
  /** The last answer: the checkout's if it failed, else the payment's. */
  step: "checkout" | "pay";
  answer: Answer;
  /** Every status answered, checkout first. */
  statuses: number[];
}

/** Checks `cartId` out (US, hosted demo checkout) and pays it with DEMO_PAY_BODY. */
async function checkoutAndPay(
  url: string,
  client: Deno.HttpClient,
  cartId: string,
): Promise<Purchase> {
  const checkout = await post(client, `${url}/api/cart/${cartId}/checkout/us`);
  const page = checkout.body?.url;
  if (!is2xx(checkout.status) || typeof page !== "string" || !page.startsWith("/demo-checkout/")) {
    return { paid: false, step: "checkout", answer: checkout, statuses: [checkout.status] };
  }
  const sessionId = encodeURIComponent(page.slice("/demo-checkout/".length));
  const pay = await post(
    client,
    `${url}/api/demo/checkout-sessions/${sessionId}/pay`,
    DEMO_PAY_BODY,
  );
  return {
    paid: is2xx(pay.status) && pay.body?.status === "PAYMENT_RECEIVED",
    step: "pay",
    answer: pay,
    statuses: [checkout.status, pay.status],
  };
}

/**
 * A purchase's outcome for the statuses table: 200 for a paid order, else the failing step and
 * its status ("checkout 409"), with the order status a 2xx carried ("pay 200 STARTED").
 */
function outcomeOf(p: Purchase): number | string {
  if (p.paid) return 200;
  const { status, body } = p.answer;
  if (!is2xx(status)) return `${p.step} ${status}`;
  return `${p.step} ${status} ${typeof body?.status === "string" ? body.status : "unexpected"}`;
}

/**
 * Worker: checkout reservations. Each needs its own cart, so carts are made first (not timed),
 * then every timed request reserves the Starter pack's stock for a new order. None is paid, so to
 * stay within the server's holds per address, each loop is a shopper that moves to a fresh address
 * every HOLDS_PER_ADDRESS checkouts: cart k + concurrency * n, loop k's n-th, is made and checked
 * out from address k + concurrency * floor(n / HOLDS_PER_ADDRESS).
 */
async function checkoutWorker(url: string, seconds: number, concurrency: number, base: number) {
  using clients = new LoopbackClients(base);
  const addressOf = (cart: number) =>
    cart % concurrency +
    concurrency * Math.floor(Math.floor(cart / concurrency) / HOLDS_PER_ADDRESS);
  const carts = new Map<number, string>();
  let started = 0;
  await closedLoop(concurrency, 4, MAX_CHECKOUTS, async (i) => {
    started = Math.max(started, i + 1);
    const cart = await newCart(url, clients.get(addressOf(i)));
    if (typeof cart === "string") carts.set(i, cart);
    return typeof cart === "string" ? 200 : cart.status;
  });
  const taken = new Array<number>(concurrency).fill(0);
  const current = new Array<number | null>(concurrency).fill(null);
  const checkedOutFrom = new Set<number>();
  // Each loop's carts bound its checkouts; each loop's last call only finds them spent.
  const budget = carts.size + concurrency;
  const result = await closedLoop(concurrency, seconds, budget, async (_i, loop) => {
    let cart = loop + concurrency * taken[loop]++;
    while (!carts.has(cart) && cart < started) cart = loop + concurrency * taken[loop]++;
    if (!carts.has(cart)) return null;
    const address = addressOf(cart);
    // The shopper before this one is done: close its connection, as a leaving browser would.
    if (current[loop] !== null && current[loop] !== address) clients.close(current[loop]!);
    current[loop] = address;
    checkedOutFrom.add(address);
    const res = await postFrom(
      clients.get(address),
      `${url}/api/cart/${carts.get(cart)}/checkout/us`,
    );
    await res.body?.cancel();
    return res.status;
  });
  return { ...result, addresses: checkedOutFrom.size };
}

/**
 * Worker: paid orders. Each loop is one shopper on its own address, buying a Starter pack again and
 * again: add to a new cart, check out, pay. Only orders answered PAYMENT_RECEIVED count, and their
 * latency is the whole journey's; anything else is counted by its failing step in `statuses`.
 */
async function paidWorker(
  url: string,
  seconds: number,
  concurrency: number,
  base: number,
): Promise<WorkerResult> {
  using clients = new LoopbackClients(base);
  const paidMs: number[] = [];
  const result = await closedLoop(concurrency, seconds, MAX_PAID_ORDERS, async (_i, loop) => {
    const t0 = performance.now();
    const client = clients.get(loop);
    const cart = await newCart(url, client);
    if (typeof cart !== "string") return `add ${cart.status}`;
    const purchase = await checkoutAndPay(url, client, cart);
    if (purchase.paid) paidMs.push(performance.now() - t0);
    return outcomeOf(purchase);
  });
  paidMs.sort((a, b) => a - b);
  return {
    ...result,
    requests: paidMs.length,
    latenciesMs: { p50: percentile(paidMs, 50), p99: percentile(paidMs, 99) },
    addresses: clients.used,
    attempts: result.requests,
  };
}

/**
 * Worker: the flash sale. `shoppers` shoppers, each on its own address, make their carts first
 * (not timed, `CONNECTIONS` at a time), then all race at once to check out and pay. Counts who
 * paid, who was told the stock was short (409 with a non-empty `insufficientStock`), and who got
 * anything else; passes when exactly `units` paid and nobody is unexplained.
 */
async function flashWorker(
  url: string,
  shoppers: number,
  units: number,
  base: number,
): Promise<FlashResult> {
  using clients = new LoopbackClients(base);
  const carts = new Array<string | null>(shoppers).fill(null);
  await closedLoop(CONNECTIONS, FLASH_SETUP_SECONDS, shoppers, async (i) => {
    const cart = await newCart(url, clients.get(i));
    if (typeof cart === "string") carts[i] = cart;
    return typeof cart === "string" ? 200 : cart.status;
  });

  const started = performance.now();
  const outcomes = await Promise.all(carts.map(async (cartId, i) => {
    if (cartId === null) return { outcome: "no cart", ms: null, purchase: null };
    const t0 = performance.now();
    try {
      const purchase = await checkoutAndPay(url, clients.get(i), cartId);
      return { outcome: outcomeOf(purchase), ms: performance.now() - t0, purchase };
    } catch {
      return { outcome: "no answer", ms: performance.now() - t0, purchase: null };
    }
  }));
  const seconds = (performance.now() - started) / 1000;

  const latencies = outcomes.flatMap((o) => o.ms === null ? [] : [o.ms]).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const { outcome } of outcomes) statuses[outcome] = (statuses[outcome] ?? 0) + 1;
  const soldOut = outcomes.filter(({ purchase: p }) => {
    if (!p || p.paid || p.step !== "checkout" || p.answer.status !== 409) return false;
    const short = p.answer.body?.insufficientStock;
    return typeof short === "object" && short !== null && Object.keys(short).length > 0;
  }).length;
  const paid = outcomes.filter((o) => o.purchase?.paid).length;
  const serverErrors = outcomes.flatMap((o) => o.purchase?.statuses ?? [])
    .filter((s) => s >= 500).length;
  const unexplained = shoppers - paid - soldOut;
  return {
    requests: latencies.length,
    seconds,
    latenciesMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
    non2xx: Object.entries(statuses).filter(([s]) => !s.startsWith("2"))
      .reduce((sum, [, n]) => sum + n, 0),
    errors: outcomes.filter((o) => o.outcome === "no answer").length,
    statuses,
    addresses: clients.used,
    checks: {
      shoppers,
      units,
      paid,
      soldOut,
      unexplained,
      serverErrors,
      passed: paid === units && unexplained === 0,
    },
  };
}

/**
 * GETs /api/health from PROBE_LOOPS loops, each waiting PROBE_GAP_MS after every answer, until
 * `stop()` says so, `seconds` pass or MAX_PROBES are sent. Latency is each request's own.
 */
async function probeHealth(
  url: string,
  seconds: number,
  stop: () => boolean = () => false,
): Promise<WorkerResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let sent = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  async function loop() {
    while (!stop() && performance.now() < deadline && sent++ < MAX_PROBES) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${url}/api/health`, {
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      } catch {
        errors++;
      }
      await new Promise((resolve) => setTimeout(resolve, PROBE_GAP_MS));
    }
  }
  await Promise.all(Array.from({ length: PROBE_LOOPS }, loop));
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds: (performance.now() - started) / 1000,
    latenciesMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
    non2xx: Object.entries(statuses).filter(([s]) => !s.startsWith("2"))
      .reduce((sum, [, n]) => sum + n, 0),
    errors,
    statuses,
  };
}

/**
 * Worker: the login burst. Health probes at rest first; then `logins` wrong sign-ins sent at once,
 * sign-in i from loopback address base + i for an email of its own (so no per-client or
 * per-account limit refuses it before it hashes), while the probes run until the last is answered.
 */
async function loginWorker(url: string, logins: number, base: number): Promise<LoginBurstResult> {
  using clients = new LoopbackClients(base);
  await probeHealth(url, 0.5); // warm-up
  const rest = await probeHealth(url, PROBE_REST_SECONDS);
  let done = false;
  const burstProbe = probeHealth(url, REQUEST_TIMEOUT_MS / 1000 + 5, () => done);
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: logins }, async (_, i) => {
    const t0 = performance.now();
    try {
      const answer = await post(clients.get(i), `${url}/auth/login`, {
        email: `bench-burst-${i}@example.com`,
        password: `wrong-password-${i}`,
      });
      return { status: String(answer.status), ms: performance.now() - t0 };
    } catch {
      return { status: "no answer", ms: null };
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  done = true;
  const burst = await burstProbe;
  const latencies = answers.flatMap((a) => a.ms === null ? [] : [a.ms]).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
  return {
    rest,
    burst,
    logins: {
      requests: latencies.length,
      seconds,
      latenciesMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
      non2xx: answers.filter((a) => !a.status.startsWith("2")).length,
      errors: statuses["no answer"] ?? 0,
      statuses,
      addresses: clients.used,
    },
  };
}

/** Runs the login burst worker against `shop`: its three table rows and its summary. */
async function loginBurst(
  shop: ShopProcess,
): Promise<{ figures: Figure[]; summary: LoginBurstSummary }> {
  const r = await runWorker<LoginBurstResult>([
    "login-worker",
    shop.url,
    String(BURST_LOGINS),
    String(ADDRESS_BASE.login),
  ]);
  const restP99 = r.rest.latenciesMs.p99;
  const burstP99 = r.burst.latenciesMs.p99;
  const answered = (code: string) => r.logins.statuses?.[code] ?? 0;
  const summary: LoginBurstSummary = {
    logins: BURST_LOGINS,
    healthP99RestMs: round(restP99),
    healthP99BurstMs: round(burstP99),
    p99Ratio: round(restP99 > 0 ? burstP99 / restP99 : 0),
    answers: {
      "401": answered("401"),
      "503": answered("503"),
      other: BURST_LOGINS - answered("401") - answered("503"),
    },
    wallSeconds: round(r.logins.seconds),
    gate: { permits: passwordGate.permits, queue: passwordGate.queue },
  };
  const probe = `${PROBE_LOOPS} loops, ${PROBE_GAP_MS} ms between answers`;
  const figures = [
    figure(
      "login burst: GET /api/health at rest",
      r.rest,
      null,
      `${probe}, for ${PROBE_REST_SECONDS} s`,
    ),
    figure(
      `login burst: GET /api/health during ${BURST_LOGINS} wrong sign-ins`,
      r.burst,
      null,
      `${probe}, until the last sign-in is answered; p99 ${summary.p99Ratio} × at rest`,
    ),
    figure(
      `login burst: POST /auth/login (${BURST_LOGINS} wrong, at once)`,
      r.logins,
      null,
      `${r.logins.addresses} loopback addresses, an email each; 503 is the hashing queue full ` +
        `(${summary.gate.permits} hashing, ${summary.gate.queue} waiting); req/s is sign-ins ` +
        `over the burst's wall time, ${summary.wallSeconds} s`,
    ),
  ];
  return { figures, summary };
}

/** One line with the login burst's figures. */
function printLoginBurst(s: LoginBurstSummary): void {
  console.log(
    `login burst: GET /api/health p99 ${s.healthP99RestMs} ms at rest, ${s.healthP99BurstMs} ms ` +
      `during ${s.logins} wrong sign-ins (× ${s.p99Ratio}); sign-ins ${s.answers["401"]} × 401, ` +
      `${s.answers["503"]} × 503, ${s.answers.other} other, in ${s.wallSeconds} s ` +
      `(gate: ${s.gate.permits} hashing, ${s.gate.queue} waiting)`,
  );
}

/** `run.ts login-burst`: the login burst alone, on a shop of its own; nothing is written. */
async function loginBurstOnly(): Promise<void> {
  const shop = await startShop({ env: { DENO_ENV: "", LOG_REQUESTS: "0" } });
  try {
    const { figures, summary } = await loginBurst(shop);
    printTable(figures);
    printLoginBurst(summary);
  } finally {
    await shop.stop();
  }
}

/**
 * `run.ts hostile-pages [--builds]`: the hostile-pages scenario alone, on a shop of its own
 * (`--builds`: random builds, which the pages read, instead of random unknown parameters).
 */
async function hostilePagesOnly(builds: boolean): Promise<void> {
  const shop = await startShop({ env: { DENO_ENV: "", LOG_REQUESTS: "0" } });
  try {
    printHostilePages(await hostilePages(shop.url, builds));
  } finally {
    await shop.stop();
  }
}

/** Runs this file as a worker process and reads its one JSON line. */
async function runWorker<T = WorkerResult>(args: string[]): Promise<T> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--unstable-kv", new URL(import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`worker ${args[0]} failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** Runs autocannon (npm, its own process) against one route. */
async function autocannon(
  url: string,
  options: { method?: string; headers?: Record<string, string>; seconds?: number } = {},
): Promise<WorkerResult> {
  const args = ["-y", "autocannon@8", "--json", "-n", "-c", String(CONNECTIONS)];
  args.push("-d", String(options.seconds ?? SECONDS), "-m", options.method ?? "GET");
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push("-H", `${k}=${v}`);
  args.push(url);
  const out = await new Deno.Command("npx", { args, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  if (!out.success || !text) {
    throw new Error(`autocannon failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  const r = JSON.parse(text.split("\n").at(-1)!);
  return {
    requests: r.requests.total,
    seconds: r.duration,
    latenciesMs: { p50: r.latency.p50, p99: r.latency.p99 },
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    statuses: Object.fromEntries(
      Object.entries(r.statusCodeStats ?? {}).map((
        [code, v],
      ) => [code, (v as { count: number }).count]),
    ),
  };
}

async function api(
  shop: ShopProcess,
  path: string,
  init: RequestInit & { admin?: boolean } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.admin) headers.set("Authorization", `Bearer ${shop.adminPassword}`);
  if (init.body) headers.set("Content-Type", "application/json");
  const res = await fetch(`${shop.url}${path}`, { ...init, headers });
  if (!res.ok) {
    throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  }
  return res;
}

/** Gives the Starter pack plenty of stock, so reservations measure writes, not sold-out answers. */
async function stockUp(shop: ShopProcess): Promise<void> {
  const body = JSON.stringify({ stock: 1_000_000 });
  for (const id of STARTER.switchIds) {
    await api(shop, `/api/admin/inventory/switches/${id}`, { method: "PUT", body, admin: true });
  }
  await api(shop, "/api/admin/inventory/components/SMALL_BOX", {
    method: "PUT",
    body,
    admin: true,
  });
}

function figure(
  scenario: string,
  r: WorkerResult,
  ceiling: Figure["ceiling"],
  note?: string,
): Figure {
  return {
    scenario,
    rps: round(r.requests / r.seconds, 0),
    p50Ms: round(r.latenciesMs.p50),
    p99Ms: round(r.latenciesMs.p99),
    requests: r.requests,
    non2xx: r.non2xx,
    errors: r.errors,
    ...(r.statuses ? { statuses: r.statuses } : {}),
    ceiling,
    ratio: null,
    ...(note ? { note } : {}),
  };
}

/**
 * Sets a switch's shelf stock so exactly `units` can still be sold: checkouts left unpaid by the
 * earlier scenarios hold some of the shelf (`reserved`, absent on a server that takes reserved
 * units off `stock` itself), so the shelf becomes units + reserved. Answers what it read and set.
 */
async function setSellable(
  shop: ShopProcess,
  switchId: number,
  units: number,
): Promise<{ reserved: number; stock: number; available: number | null }> {
  interface Entry {
    id: number;
    stock: number;
    reserved?: number;
    available?: number;
  }
  const inventory = async () => {
    const body: { switches: Entry[] } = await (await api(shop, "/api/admin/inventory", {
      admin: true,
    })).json();
    const entry = body.switches.find((s) => s.id === switchId);
    if (!entry) throw new Error(`switch ${switchId} is not in the inventory`);
    return entry;
  };
  const reserved = (await inventory()).reserved ?? 0;
  const stock = units + reserved;
  await api(shop, `/api/admin/inventory/switches/${switchId}`, {
    method: "PUT",
    body: JSON.stringify({ stock }),
    admin: true,
  });
  return { reserved, stock, available: (await inventory()).available ?? null };
}

function printTable(figures: Figure[]): void {
  const rows = [
    ["scenario", "req/s", "p50 ms", "p99 ms", "ratio", "non-2xx", "errors"],
    ...figures.map((f) => [
      f.scenario,
      String(f.rps),
      f.p50Ms.toFixed(2),
      f.p99Ms.toFixed(2),
      f.ratio === null ? "-" : `${f.ratio.toFixed(2)} × ${f.ceiling}`,
      String(f.non2xx),
      String(f.errors),
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const [n, row] of rows.entries()) {
    console.log(
      row.map((cell, i) => (i === 0 ? cell.padEnd : cell.padStart).call(cell, widths[i]))
        .join("  "),
    );
    if (n === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
  for (const f of figures) {
    // Statuses, or outcome labels with one ("checkout 503").
    const failed = Object.entries(f.statuses ?? {}).filter(([code]) => /\b5\d\d\b/.test(code));
    if (failed.length > 0) {
      console.log(`${f.scenario}: ${failed.map(([code, n]) => `${n} × ${code}`).join(", ")}`);
    }
  }
  for (const f of figures) {
    if (!f.checks) continue;
    const { passed, ...counts } = f.checks;
    const text = Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(", ");
    console.log(`${f.scenario}: ${passed ? "checks passed" : "CHECK FAILED"} (${text})`);
  }
}

/** The environment of the bench's shop. */
const BENCH_ENV = {
  DENO_ENV: "",
  LOG_REQUESTS: "0",
  MAX_HOLDS_PER_CLIENT: String(HOLDS_PER_ADDRESS),
  // The server's default, explicit for the same reason; the scenarios' one-unit carts stay
  // far below it.
  MAX_HELD_UNITS_PER_CLIENT: "60",
  // The scenarios measure the work of thousands of shoppers from a few dozen loopback
  // addresses; the per-address rates on new carts and checkouts (tests/api/abuse_test.ts)
  // would measure refusals instead. The holds limit stays on: the scenarios respect it.
  NEW_CARTS_PER_CLIENT: "100000",
  CHECKOUTS_PER_CLIENT: "100000",
};

/** Runs the drop on `shop`: its table rows (the checks on the first) and its summary. */
async function dropRun(shop: ShopProcess): Promise<{ figures: Figure[]; summary: DropSummary }> {
  const summary = await dropScenario(
    shop,
    ADDRESS_BASE.drop,
    (args) => runWorker<DropWorkerResult>(args),
  );
  const w = summary.worker;
  const timed = (t: DropWorkerResult["poll"], seconds: number): WorkerResult => ({
    requests: t.requests,
    seconds,
    latenciesMs: { p50: t.p50Ms, p99: t.p99Ms },
    non2xx: Object.entries(t.statuses).filter(([s]) => !s.startsWith("2"))
      .reduce((sum, [, n]) => sum + n, 0),
    errors: 0,
    statuses: t.statuses,
  });
  const f = w.fairness;
  return {
    summary,
    figures: [
      {
        ...figure(
          `drop: ${DROP_SHOPPERS} shoppers, ${DROP_UNITS} units, limit ${DROP_LIMIT} (buy)`,
          timed(w.buy, w.activeSeconds),
          null,
          `${summary.checks.passed ? "" : "CHECK FAILED: "}${w.paidUnits} paid for ` +
            `(${summary.soldByOwnerView} sold in the owner's view), most by one shopper ` +
            `${w.mostByOne}, ${w.threeRefused} of ${w.triedThree} asks for 3 refused; sold out ` +
            `${w.sellOutSeconds ?? "-"} s after the opening; Spearman ${f.spearman} among the ` +
            `${f.presentAtOpening} present at the opening; health p99 ${summary.health.restP99Ms} ms ` +
            `at rest, ${summary.health.dropP99Ms} ms over the drop (× ${summary.healthRatio}); latency ` +
            "is each add, checkout and pay of the shoppers let in",
        ),
        checks: summary.checks,
      },
      figure(
        "drop: GET /api/drops/{id}/tickets/{ticket} (waiting room poll)",
        timed(w.poll, w.activeSeconds),
        null,
        `each waiting shopper about once a second, ${w.joined} joined; at most 64 requests in ` +
          "flight for all shoppers together",
      ),
      figure("drop: POST /api/drops/{id}/join", timed(w.join, w.activeSeconds), null),
    ],
  };
}

/** `run.ts drop`: the drop alone, on a shop of its own; nothing is written. */
async function dropOnly(): Promise<void> {
  const shop = await startShop({ env: BENCH_ENV });
  try {
    const { figures, summary } = await dropRun(shop);
    printTable(figures);
    printDrop(summary);
    if (!summary.checks.passed) Deno.exitCode = 1;
  } finally {
    await shop.stop();
  }
}

async function main(): Promise<void> {
  const shop = await startShop({ env: BENCH_ENV });
  const figures: Figure[] = [];
  let drop: DropSummary | null = null;
  let burstSummary: LoginBurstSummary | null = null;
  let hostileSummary: HostilePagesSummary | null = null;
  try {
    const step = (name: string) => console.error(`bench: ${name}`);
    await stockUp(shop);
    const cart = await (await api(shop, `/api/cart/add?itemId=${STARTER.id}`, { method: "POST" }))
      .json();
    const probe = await api(shop, "/api/switches");
    await probe.body?.cancel();
    const etag = probe.headers.get("etag");

    step("GET /api/health (warm-up, then measured)");
    await autocannon(`${shop.url}/api/health`, { seconds: 1 });
    figures.push(figure("GET /api/health", await autocannon(`${shop.url}/api/health`), "health"));

    step("raw KV commits");
    figures.push(
      figure(
        "KV atomic commit (raw)",
        await runWorker(["kv-worker", String(KV_SECONDS), String(CONNECTIONS)]),
        "kv-commit",
        "check+set of a new key, in its own process",
      ),
    );

    step("GET /api/switches");
    await autocannon(`${shop.url}/api/switches`, { seconds: 1 });
    figures.push(figure(
      "GET /api/switches",
      await autocannon(`${shop.url}/api/switches`),
      "health",
      "no Accept-Encoding: the whole JSON each time; autocannon decodes every body, which " +
        "bounds this row on the client side",
    ));
    step("GET /api/switches as a browser asks (Accept-Encoding: gzip)");
    figures.push(figure(
      "GET /api/switches (Accept-Encoding: gzip)",
      await autocannon(`${shop.url}/api/switches`, { headers: BROWSER_ENCODINGS }),
      "health",
      "what every browser sends; the body is served gzipped when the server can",
    ));
    if (etag) {
      step("GET /api/switches with If-None-Match");
      figures.push(figure(
        "GET /api/switches (If-None-Match, 304)",
        await autocannon(`${shop.url}/api/switches`, { headers: { "If-None-Match": etag } }),
        "health",
        "non-2xx are the expected 304s",
      ));
    }

    step("GET /testers/starter-pack, server-rendered, as a browser asks");
    await autocannon(`${shop.url}/testers/starter-pack`, {
      seconds: 1,
      headers: BROWSER_ENCODINGS,
    });
    figures.push(figure(
      "GET /testers/starter-pack (rendered page, compressed)",
      await autocannon(`${shop.url}/testers/starter-pack`, { headers: BROWSER_ENCODINGS }),
      "health",
      "React renders the page on the server with its three API answers (read in-process), its " +
        "JSON-LD and preview tags, compressed as it streams",
    ));

    step("GET /api/cart/{id}");
    figures.push(
      figure("GET /api/cart/{id}", await autocannon(`${shop.url}/api/cart/${cart.id}`), "health"),
    );

    step("POST /api/cart/add (a new cart each)");
    figures.push(figure(
      "POST /api/cart/add (new cart each)",
      await autocannon(`${shop.url}/api/cart/add?itemId=${STARTER.id}`, { method: "POST" }),
      "kv-commit",
    ));

    step("PUT /api/cart/{id}/items/{line} (one cart)");
    figures.push(figure(
      "PUT /api/cart/{id}/items/{line} (one cart)",
      await autocannon(`${shop.url}/api/cart/${cart.id}/items/${STARTER.id}?quantity=1`, {
        method: "PUT",
      }),
      "kv-commit",
      "50 writers on one key: measures contention, not throughput",
    ));

    step("POST /api/cart/{id}/checkout/us (reservations)");
    const checkouts = await runWorker([
      "checkout-worker",
      shop.url,
      String(SECONDS),
      String(CONNECTIONS),
      String(ADDRESS_BASE.checkout),
    ]);
    figures.push(figure(
      "POST /api/cart/{id}/checkout/us",
      checkouts,
      "kv-commit",
      "every request reserves the same 11 stock entries; Deno fetch client; none is paid, so " +
        `each of the ${CONNECTIONS} loops is a shopper on its own loopback address that moves to ` +
        `a fresh one every ${HOLDS_PER_ADDRESS} checkouts (the default holds per client), ` +
        `making its carts from the same addresses: ${checkouts.addresses} addresses checked out`,
    ));

    step("paid orders: add, checkout, pay");
    const paid = await runWorker([
      "paid-worker",
      shop.url,
      String(SECONDS),
      String(CONNECTIONS),
      String(ADDRESS_BASE.paid),
    ]);
    figures.push(figure(
      "paid orders (add, checkout, pay)",
      paid,
      "kv-commit",
      `req/s is paid orders per second (${paid.requests} of ${paid.attempts} attempts), latency ` +
        `the whole add+checkout+pay of each; ${paid.addresses} shoppers, each on its own ` +
        "loopback address; non-2xx counts journeys not paid, by failing step in statuses",
    ));

    step(`flash sale: ${FLASH_SHOPPERS} shoppers, ${FLASH_UNITS} units`);
    const shelf = await setSellable(shop, STARTER.switchIds[0], FLASH_UNITS);
    const flash = await runWorker<FlashResult>([
      "flash-worker",
      shop.url,
      String(FLASH_SHOPPERS),
      String(FLASH_UNITS),
      String(ADDRESS_BASE.flash),
    ]);
    // A server that reports `available` must have had exactly FLASH_UNITS to sell.
    const shelfOk = shelf.available === null || shelf.available === FLASH_UNITS;
    const checks = { ...flash.checks, passed: flash.checks.passed && shelfOk };
    const c = checks;
    figures.push({
      ...figure(
        "flash sale (checkout + pay race)",
        flash,
        null,
        `${c.passed ? "" : "CHECK FAILED: "}${FLASH_SHOPPERS} shoppers on ${flash.addresses} ` +
          `addresses raced for ${FLASH_UNITS} units (shelf ${shelf.stock} = ${FLASH_UNITS} + ` +
          `${shelf.reserved} reserved${shelfOk ? "" : `, but available ${shelf.available}`}): ` +
          `${c.paid} paid, ${c.soldOut} told 409 insufficientStock, ${c.unexplained} ` +
          `unexplained, ${c.serverErrors} 5xx; req/s is shoppers answered per second, latency ` +
          "checkout+pay of each (checkout alone for those sold out); carts made untimed first",
      ),
      checks,
    });

    step(`drop: ${DROP_SHOPPERS} shoppers, ${DROP_UNITS} units (about two minutes)`);
    const dropped = await dropRun(shop);
    figures.push(...dropped.figures);
    drop = dropped.summary;

    step(`login burst: ${BURST_LOGINS} wrong sign-ins from ${BURST_LOGINS} addresses`);
    const burst = await loginBurst(shop);
    figures.push(...burst.figures);
    burstSummary = burst.summary;

    step("hostile pages: unique page and preview URLs from 4 + 4 connections");
    hostileSummary = await hostilePages(shop.url);
  } finally {
    await shop.stop();
  }
  // After the shop process is gone, so this in-process pass never shares the cores with it.
  console.error("bench: latency pass (injected KV delays, in this process)");
  const latency = await latencyPass();

  const ceilings = {
    health: figures.find((f) => f.ceiling === "health")!.rps,
    "kv-commit": figures.find((f) => f.ceiling === "kv-commit")!.rps,
  };
  for (const f of figures) if (f.ceiling) f.ratio = round(f.rps / ceilings[f.ceiling], 3);

  printTable(figures);
  if (burstSummary) printLoginBurst(burstSummary);
  if (hostileSummary) printHostilePages(hostileSummary);
  if (drop) printDrop(drop);
  printLatency(latency);
  const report = {
    date: new Date().toISOString(),
    machine: {
      os: Deno.build.os,
      osRelease: Deno.osRelease(),
      arch: Deno.build.arch,
      cpus: navigator.hardwareConcurrency,
      loadavg: Deno.loadavg(),
      deno: Deno.version,
    },
    settings: {
      connections: CONNECTIONS,
      seconds: SECONDS,
      kvSeconds: KV_SECONDS,
      holdsPerAddress: HOLDS_PER_ADDRESS,
      flashSale: { shoppers: FLASH_SHOPPERS, units: FLASH_UNITS },
      drop: { shoppers: DROP_SHOPPERS, units: DROP_UNITS, limit: DROP_LIMIT },
      loginBurst: {
        logins: BURST_LOGINS,
        probeLoops: PROBE_LOOPS,
        probeGapMs: PROBE_GAP_MS,
        probeRestSeconds: PROBE_REST_SECONDS,
      },
      loadGenerator: "autocannon@8 (npm), own process; shopper loads: Deno fetch, one " +
        "loopback address (127.0.X.Y) per shopper",
    },
    ceilings,
    figures,
    loginBurst: burstSummary,
    hostilePages: hostileSummary,
    drop,
    latency,
  };
  const dir = new URL("../../bench-results/", import.meta.url);
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(new URL("latest.json", dir), JSON.stringify(report, null, 2) + "\n");
  console.log(`\nwrote ${new URL("latest.json", dir).pathname}`);
  const failed = figures.filter((f) => f.checks && !f.checks.passed);
  if (failed.length > 0) {
    console.error(`CHECK FAILED: ${failed.map((f) => f.scenario).join(", ")}`);
    Deno.exitCode = 1;
  }
}

if (import.meta.main) {
  const [mode, ...rest] = Deno.args;
  if (mode === "kv-worker") {
    console.log(JSON.stringify(await kvWorker(Number(rest[0]), Number(rest[1]))));
  } else if (mode === "checkout-worker") {
    const [url, seconds, concurrency, base] = rest;
    console.log(JSON.stringify(
      await checkoutWorker(url, Number(seconds), Number(concurrency), Number(base)),
    ));
  } else if (mode === "paid-worker") {
    const [url, seconds, concurrency, base] = rest;
    console.log(JSON.stringify(
      await paidWorker(url, Number(seconds), Number(concurrency), Number(base)),
    ));
  } else if (mode === "login-worker") {
    const [url, logins, base] = rest;
    console.log(JSON.stringify(await loginWorker(url, Number(logins), Number(base))));
  } else if (mode === "latency") {
    await latencyOnly(rest);
  } else if (mode === "login-burst") {
    await loginBurstOnly();
  } else if (mode === "hostile-pages") {
    await hostilePagesOnly(rest.includes("--builds"));
  } else if (mode === "drop") {
    await dropOnly();
  } else if (mode === "drop-worker") {
    const [url, dropId, opensAt, productId, base] = rest;
    console.log(JSON.stringify(
      await dropWorker(url, dropId, Number(opensAt), Number(productId), Number(base)),
    ));
  } else if (mode === "orders-10k") {
    await ordersAtScale();
  } else if (mode === "flash-worker") {
    const [url, shoppers, units, base] = rest;
    console.log(JSON.stringify(
      await flashWorker(url, Number(shoppers), Number(units), Number(base)),
    ));
  } else {
    await main();
  }
}
