/**
 * The bench's latency pass: the shop's requests against a KV that answers as a distributed one
 * would (tests/helpers/remote_kv.ts, its default delays), counting for each request the KV calls
 * it makes and how many of them wait on one another (sequential round trips). On Deno Deploy every
 * round trip is a network hop, so this count, not local throughput, sets what a shopper waits.
 *
 * It runs in this process (createApp over the wrapped KV, requests through `app.request`), so
 * every request is measured on its own: first `SEQUENTIAL` one after another (the round-trip
 * counts, free of other requests' waiting), then up to `CONCURRENT_REQUESTS` from `CONCURRENCY`
 * loops (p50 and p99 under load). Bounded in time: each phase stops at its deadline.
 * `run.ts latency` runs this pass alone.
 *
 * A call counts for the request in whose async context it starts. So a snapshot rebuild a request
 * starts without waiting for it (`peek`) counts in that request's calls, and under concurrency a
 * group commit (server/db/stock_batch.ts) counts for the request that started the batch: the
 * round trips reported are the sequential phase's, where neither blurs the figure.
 */
import { createApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import type { LogEntry } from "../../server/log.ts";
import { seedKv } from "../../server/ops/seed.ts";
import { keys } from "../../server/kv/keys.ts";
import { commitStockChange, TRUST_MS } from "../../server/kv/version.ts";
import { memoryMailer } from "../../server/email/mailer.ts";
import { demoPayments } from "../../server/payments/demo/provider.ts";
import { startQueueWorker } from "../../server/queue.ts";
import { DEMO_PAY_BODY, STARTER } from "../helpers/shop_fixtures.ts";
import {
  DEFAULT_LATENCY,
  type KvCall,
  type Latency,
  type RemoteKv,
  remoteKv,
} from "../helpers/remote_kv.ts";

/** Requests of each scenario measured one after another. */
const SEQUENTIAL = 50;
/** Requests of each scenario's concurrent phase, and how many are in flight at once. */
const CONCURRENT_REQUESTS = 100;
const CONCURRENCY = 10;
/** Unmeasured requests first, so caches and the JIT are warm (not for "after a change" rows). */
const WARM_UP = 3;
/** Seconds each phase of a scenario may take at most. */
const PHASE_SECONDS = 15;

/** One scenario's figures under injected latency. */
export interface LatencyFigure {
  scenario: string;
  /** Most sequential round trips per request this request should need (issue 19). */
  target: number;
  /** Requests measured one after another. */
  requests: number;
  /** KV calls per request, the mean (a list counts once per page). */
  callsPerRequest: number;
  /** Sequential KV round trips per request. */
  roundTrips: { min: number; median: number; max: number };
  /** The median request needs more round trips than the target. */
  overTarget: boolean;
  /** Some request needs more (say when the stock version's trust window lapsed). */
  maxOverTarget: boolean;
  sequential: { p50Ms: number; p99Ms: number };
  concurrent: {
    concurrency: number;
    requests: number;
    p50Ms: number;
    p99Ms: number;
    roundTripsMedian: number;
  };
  /** Answers by status, both phases. */
  statuses: Record<string, number>;
  /** The KV calls of a request with the median round trips, in the order they started. */
  typicalCalls: KvCall[];
  /** The same of the request with the most round trips. */
  worstCalls: KvCall[];
}

/** What the latency pass writes into bench-results/latest.json. */
export interface LatencyReport {
  latency: Latency;
  settings: {
    sequential: number;
    concurrentRequests: number;
    concurrency: number;
    warmUp: number;
  };
  figures: LatencyFigure[];
  /** KV calls made outside any request (queue jobs, the pass's own setup excluded). */
  backgroundCalls: number;
}

/** One request of a scenario: what to send, and what to keep from its answer. */
interface Scenario {
  name: string;
  target: number;
  /** How many requests it can send at most (each needs an input of its own, say a cart). */
  available?: () => number;
  /** Unmeasured work before each request (a stock change made elsewhere). */
  before?: () => Promise<void>;
  /** Skips the warm-up, for rows about what a cold cache costs. */
  cold?: boolean;
  send: (n: number) => { path: string; init?: RequestInit; client: number };
  /** Keeps what later scenarios need from a 2xx answer. */
  keep?: (n: number, body: Record<string, unknown>) => void;
}

interface Sample {
  ms: number;
  status: number;
  calls: number;
  roundTrips: number;
  log: KvCall[];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Client address number `n` as 10.X.Y.Z: each simulated shopper is its own client. */
function clientAddress(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** Gives every stock entry plenty of units, so the order rows measure writes, not sold-out answers. */
async function stockUp(kv: Deno.Kv, now: number): Promise<void> {
  const entries = await Array.fromAsync(
    kv.list<Record<string, unknown>>({ prefix: keys.stocks() }),
  );
  for (let i = 0; i < entries.length; i += 100) {
    const op = kv.atomic();
    for (const e of entries.slice(i, i + 100)) op.set(e.key, { ...e.value, stock: 1_000_000 });
    if (!await commitStockChange(kv, op, now)) throw new Error("stocking up failed");
  }
}

/** Runs the latency pass on a fresh in-memory KV wrapped with `latency`; prints progress. */
export async function latencyPass(latency: Partial<Latency> = {}): Promise<LatencyReport> {
  const real = await Deno.openKv(":memory:");
  const kv = remoteKv(real, latency);
  // The real time, plus jumps past the stock version's trust window for the "after a change"
  // rows, so they need not sleep TRUST_MS each.
  let skipped = 0;
  const clock = { now: () => Date.now() + skipped };
  const logs: LogEntry[] = [];
  const config = loadConfig({
    DENO_ENV: "test",
    ADMIN_PASSWORD: "latency-bench-password",
    DIST_DIR: "/nonexistent-dist",
    LOG_REQUESTS: "0",
    // Per-client limits stay at their defaults: every simulated shopper below sends from a client
    // address of its own (app.request's remoteAddr), as on the real shop, so no limit is reached
    // and each request still pays for counting its attempt.
  });
  await seedKv(real, clock);
  await stockUp(real, clock.now());
  const mailer = memoryMailer();
  const deps = {
    kv,
    config,
    clock,
    logger: (entry: LogEntry) => logs.push(entry),
    mailer,
    payments: demoPayments(kv),
  };
  const app = createApp(deps);
  const worker = startQueueWorker(deps);
  const backgroundBefore = kv.background.calls;

  /** Another isolate's stock change: the same store, but not this app's KV object. */
  async function changeStockElsewhere(): Promise<void> {
    if (!await commitStockChange(real, real.atomic(), clock.now())) {
      throw new Error("stock change failed");
    }
    skipped += TRUST_MS + 1;
  }

  const carts: string[] = [];
  const cartsToCheckOut: string[] = [];
  const sessions: string[] = [];
  let nextClient = 1;
  const starterCart = await (async () => {
    const res = await app.request(`/api/cart/add?itemId=${STARTER.id}`, { method: "POST" }, {
      remoteAddr: { hostname: clientAddress(nextClient++), port: 40000, transport: "tcp" },
    });
    return (await res.json()).id as string;
  })();

  // Catalogue answers come from per-version snapshots: nothing to read while the snapshot is
  // fresh, at most 1 round trip when it is not (afterChange below).
  const catalogue = (name: string, path: string): Scenario => ({
    name,
    target: 0,
    send: () => ({ path, client: 0 }),
  });
  const cartRead: Scenario = {
    name: "GET /api/cart/{id}",
    target: 2,
    send: () => ({ path: `/api/cart/${starterCart}`, client: 0 }),
  };
  const newCart: Scenario = {
    name: "POST /api/cart/add (new cart)",
    target: 3,
    send: () => ({
      path: `/api/cart/add?itemId=${STARTER.id}`,
      init: { method: "POST" },
      client: nextClient++,
    }),
    keep: (_n, body) => void carts.push(String(body.id)),
  };
  /**
   * The same request when another isolate has just changed stock (on a shop that sells, every
   * few orders) and this one's trust in its last read of the version has lapsed: what the
   * per-version caches cost when they must be refreshed. Its answers feed no later scenario.
   */
  const afterChange = (scenario: Scenario): Scenario => ({
    ...scenario,
    name: `${scenario.name}, after a stock change elsewhere`,
    target: Math.max(1, scenario.target),
    cold: true,
    before: changeStockElsewhere,
    keep: undefined,
  });
  const switches = catalogue("GET /api/switches", "/api/switches");
  const pack = catalogue("GET /api/packs/{slug}", `/api/packs/${STARTER.slug}`);
  const availability = catalogue(
    "GET /api/testers/{id}/availability",
    `/api/testers/${STARTER.id}/availability`,
  );
  const scenarios: Scenario[] = [
    switches,
    afterChange(switches),
    pack,
    afterChange(pack),
    availability,
    afterChange(availability),
    cartRead,
    afterChange(cartRead),
    newCart,
    afterChange(newCart),
    {
      name: "POST /api/cart/add (to an existing cart)",
      target: 3,
      available: () => carts.length,
      send: (n) => ({
        // A second product line, so the cart a checkout reserves is a typical two-line one.
        path: `/api/cart/add?itemId=${STARTER.idWithKeycaps}&cartId=${carts[n]}`,
        init: { method: "POST" },
        client: nextClient++,
      }),
      keep: (_n, body) => void cartsToCheckOut.push(String(body.id)),
    },
    {
      name: "POST /api/cart/{id}/checkout/us (reservation)",
      target: 4,
      available: () => cartsToCheckOut.length,
      send: (n) => ({
        path: `/api/cart/${cartsToCheckOut[n]}/checkout/us`,
        init: { method: "POST" },
        client: nextClient++,
      }),
      keep: (_n, body) => {
        const url = String(body.url);
        if (url.startsWith("/demo-checkout/")) sessions.push(url.slice("/demo-checkout/".length));
      },
    },
    {
      name: "POST /api/demo/checkout-sessions/{id}/pay (paid order)",
      target: 4,
      available: () => sessions.length,
      send: (n) => ({
        path: `/api/demo/checkout-sessions/${encodeURIComponent(sessions[n])}/pay`,
        init: {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(DEMO_PAY_BODY),
        },
        client: nextClient++,
      }),
    },
  ];

  async function one(scenario: Scenario, n: number): Promise<Sample> {
    await scenario.before?.();
    const { path, init, client } = scenario.send(n);
    const env = {
      remoteAddr: { hostname: clientAddress(client), port: 40000, transport: "tcp" },
    };
    const t0 = performance.now();
    const m = await kv.measure(async () => {
      const res = await app.request(path, init, env);
      return { status: res.status, text: await res.text() };
    });
    const ms = performance.now() - t0;
    if (m.result.status >= 200 && m.result.status < 300 && scenario.keep) {
      scenario.keep(n, JSON.parse(m.result.text));
    }
    return { ms, status: m.result.status, calls: m.calls, roundTrips: m.roundTrips, log: m.log };
  }

  const figures: LatencyFigure[] = [];
  try {
    for (const scenario of scenarios) {
      console.error(`latency: ${scenario.name}`);
      // Inputs (carts, sessions) are used in order: warm-up first, then each phase's own.
      let used = 0;
      const take = () => {
        const n = used++;
        return scenario.available && n >= scenario.available() ? null : n;
      };
      if (!scenario.cold) {
        for (let i = 0; i < WARM_UP; i++) {
          const n = take();
          if (n !== null) await one(scenario, n);
        }
      }
      const sequential: Sample[] = [];
      let deadline = performance.now() + PHASE_SECONDS * 1000;
      while (sequential.length < SEQUENTIAL && performance.now() < deadline) {
        const n = take();
        if (n === null) break;
        sequential.push(await one(scenario, n));
      }
      const concurrent: Sample[] = [];
      deadline = performance.now() + PHASE_SECONDS * 1000;
      let sent = 0;
      // The "after a change" rows change stock before each request: under concurrency that
      // measures the change's own cost, so they have no concurrent phase.
      const loops = scenario.cold ? 0 : CONCURRENCY;
      await Promise.all(Array.from({ length: loops }, async () => {
        while (sent < CONCURRENT_REQUESTS && performance.now() < deadline) {
          sent++;
          const n = take();
          if (n === null) return;
          concurrent.push(await one(scenario, n));
        }
      }));
      figures.push(figureOf(scenario, sequential, concurrent));
    }
  } finally {
    await queueQuiet(kv);
    real.close();
    await worker.stop();
  }
  const failed = logs.filter((l) => l.level === "error");
  if (failed.length > 0) console.error(`latency: ${failed.length} errors logged`, failed[0]);
  return {
    latency: kv.latency,
    settings: {
      sequential: SEQUENTIAL,
      concurrentRequests: CONCURRENT_REQUESTS,
      concurrency: CONCURRENCY,
      warmUp: WARM_UP,
    },
    figures,
    backgroundCalls: kv.background.calls - backgroundBefore,
  };
}

function figureOf(scenario: Scenario, sequential: Sample[], concurrent: Sample[]): LatencyFigure {
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const trips = sorted(sequential.map((s) => s.roundTrips));
  const ms = sorted(sequential.map((s) => s.ms));
  const cms = sorted(concurrent.map((s) => s.ms));
  const statuses: Record<string, number> = {};
  for (const s of [...sequential, ...concurrent]) {
    statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  }
  const worst = sequential.reduce<Sample | null>(
    (w, s) => (w === null || s.roundTrips > w.roundTrips ? s : w),
    null,
  );
  const median = percentile(trips, 50);
  const typical = sequential.find((s) => s.roundTrips === median);
  const calls = sequential.reduce((sum, s) => sum + s.calls, 0);
  return {
    scenario: scenario.name,
    target: scenario.target,
    requests: sequential.length,
    callsPerRequest: round(calls / Math.max(1, sequential.length), 1),
    roundTrips: {
      min: trips[0] ?? 0,
      median,
      max: trips.at(-1) ?? 0,
    },
    overTarget: median > scenario.target,
    maxOverTarget: (trips.at(-1) ?? 0) > scenario.target,
    sequential: { p50Ms: round(percentile(ms, 50), 1), p99Ms: round(percentile(ms, 99), 1) },
    concurrent: {
      concurrency: concurrent.length > 0 ? CONCURRENCY : 0,
      requests: concurrent.length,
      p50Ms: round(percentile(cms, 50), 1),
      p99Ms: round(percentile(cms, 99), 1),
      roundTripsMedian: percentile(sorted(concurrent.map((s) => s.roundTrips)), 50),
    },
    statuses,
    typicalCalls: typical?.log ?? [],
    worstCalls: worst?.log ?? [],
  };
}

/**
 * Prints the pass as a table, then the call sequences (depth, method, keys) of the requests over
 * their target, or of every scenario with `allCalls`.
 */
export function printLatency(report: LatencyReport, allCalls = false): void {
  const { readMs, commitMs, enqueueMs } = report.latency;
  console.log(
    `\nUnder injected KV latency (read ${readMs} ms, commit ${commitMs} ms, enqueue ${enqueueMs} ` +
      `ms); round trips: min/median/max of ${report.settings.sequential} sequential requests`,
  );
  const rows = [
    [
      "scenario",
      "KV calls",
      "round trips",
      "target",
      "p50 ms",
      "p99 ms",
      `p50 @${report.settings.concurrency}`,
      `p99 @${report.settings.concurrency}`,
      "statuses",
    ],
    ...report.figures.map((f) => [
      f.scenario,
      f.callsPerRequest.toFixed(1),
      `${f.roundTrips.min}/${f.roundTrips.median}/${f.roundTrips.max}`,
      `${f.target}${f.overTarget ? " OVER" : f.maxOverTarget ? " max over" : ""}`,
      f.sequential.p50Ms.toFixed(1),
      f.sequential.p99Ms.toFixed(1),
      f.concurrent.requests ? f.concurrent.p50Ms.toFixed(1) : "-",
      f.concurrent.requests ? f.concurrent.p99Ms.toFixed(1) : "-",
      Object.entries(f.statuses).map(([s, n]) => `${n}×${s}`).join(" "),
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const [n, row] of rows.entries()) {
    console.log(
      row.map((cell, i) => (i === 0 || i === 8 ? cell.padEnd : cell.padStart).call(cell, widths[i]))
        .join("  "),
    );
    if (n === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
  console.log(`background KV calls (queue jobs): ${report.backgroundCalls}`);
  for (const f of report.figures) {
    if (!allCalls && !f.maxOverTarget) continue;
    const sequences = f.roundTrips.median === f.roundTrips.max
      ? [["", f.typicalCalls]] as const
      : [["median ", f.typicalCalls], ["worst ", f.worstCalls]] as const;
    for (const [which, calls] of sequences) {
      const trips = Math.max(0, ...calls.map((c) => c.depth));
      console.log(`\n${f.scenario}, ${which}request: ${trips} round trips (target ${f.target})`);
      for (const c of calls) console.log(`  ${c.depth}  ${c.method.padEnd(7)} ${c.detail}`);
    }
  }
}

/** Waits until the queue worker has made no KV call for a while (at most 10 s), so closing the
 * KV does not cut a job off midway. */
async function queueQuiet(kv: RemoteKv): Promise<void> {
  const deadline = performance.now() + 10_000;
  let calls = -1;
  while (calls !== kv.background.calls && performance.now() < deadline) {
    calls = kv.background.calls;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/**
 * `run.ts latency [--calls]`: this pass alone; prints its figures (and with --calls every
 * scenario's call sequence), writes nothing.
 */
export async function latencyOnly(args: string[] = []): Promise<void> {
  printLatency(await latencyPass(DEFAULT_LATENCY), args.includes("--calls"));
}
