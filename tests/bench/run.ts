/**
 * `deno task bench`: load figures for the shop, each as a ratio to a ceiling measured in the same
 * run on the same machine (DESIGN.md section 6), so numbers from different machines compare.
 *
 * - Framework ceiling: GET /api/health (no storage touched).
 * - Storage ceiling: raw Deno KV atomic commits (check + set of a new key, 50 in flight) on a fresh
 *   KV file in a process of its own.
 * - Scenarios: the catalogue, a cart read, cart writes (a new cart per request, and one contended
 *   cart), and checkout reservations.
 *
 * HTTP load comes from autocannon (npm) in its own process; the checkout load, whose every request
 * needs its own cart, comes from this file run as a worker process (`run.ts checkout-worker ...`),
 * as does the raw KV load (`run.ts kv-worker ...`). All load stays on 127.0.0.1 and is bounded in
 * time and in requests. Figures are printed as a table and written to bench-results/latest.json.
 * Benchmarks are never timed assertions: this reports, it does not fail on a slow machine.
 */
import { type ShopProcess, startShop } from "../helpers/shop_process.ts";
import { STARTER } from "../helpers/shop_fixtures.ts";

/** Concurrent connections (or requests in flight) of every scenario. */
const CONNECTIONS = 50;
/** Seconds of load per autocannon scenario, after a short warm-up. */
const SECONDS = 5;
/** Seconds of the raw KV commit load. */
const KV_SECONDS = 3;
/** Upper bounds of the worker loads, so a fast machine cannot run away. */
const MAX_KV_COMMITS = 200_000;
const MAX_CHECKOUTS = 4_000;
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
}

/** What a worker process prints as its one JSON line. */
interface WorkerResult {
  requests: number;
  seconds: number;
  latenciesMs: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  statuses?: Record<string, number>;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Runs `work` from `concurrency` loops until the deadline or the request budget is spent. */
async function closedLoop(
  concurrency: number,
  seconds: number,
  maxRequests: number,
  work: (i: number) => Promise<number | null>,
): Promise<WorkerResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  async function loop() {
    while (performance.now() < deadline) {
      const i = next++;
      if (i >= maxRequests) return;
      const t0 = performance.now();
      try {
        const status = await work(i);
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

/**
 * Worker: checkout reservations. Each needs its own cart, so carts are made first (not timed),
 * then every timed request reserves the Starter pack's stock for a new order.
 */
async function checkoutWorker(url: string, seconds: number, concurrency: number) {
  const carts: string[] = [];
  await closedLoop(concurrency, 4, MAX_CHECKOUTS, async () => {
    const res = await fetch(`${url}/api/cart/add?itemId=${STARTER.id}`, { method: "POST" });
    const body = await res.json();
    if (res.ok) carts.push(body.id);
    return res.status;
  });
  return await closedLoop(concurrency, seconds, carts.length, async (i) => {
    const res = await fetch(`${url}/api/cart/${carts[i]}/checkout/us`, { method: "POST" });
    await res.body?.cancel();
    return res.status;
  });
}

/** Runs this file as a worker process and reads its one JSON line. */
async function runWorker(args: string[]): Promise<WorkerResult> {
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
    const failed = Object.entries(f.statuses ?? {}).filter(([code]) => code.startsWith("5"));
    if (failed.length > 0) {
      console.log(`${f.scenario}: ${failed.map(([code, n]) => `${n} × ${code}`).join(", ")}`);
    }
  }
}

async function main(): Promise<void> {
  const shop = await startShop({ env: { DENO_ENV: "", LOG_REQUESTS: "0" } });
  const figures: Figure[] = [];
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
    figures.push(figure(
      "POST /api/cart/{id}/checkout/us",
      await runWorker(["checkout-worker", shop.url, String(SECONDS), String(CONNECTIONS)]),
      "kv-commit",
      "every request reserves the same 11 stock entries; Deno fetch client",
    ));
  } finally {
    await shop.stop();
  }

  const ceilings = {
    health: figures.find((f) => f.ceiling === "health")!.rps,
    "kv-commit": figures.find((f) => f.ceiling === "kv-commit")!.rps,
  };
  for (const f of figures) if (f.ceiling) f.ratio = round(f.rps / ceilings[f.ceiling], 3);

  printTable(figures);
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
      loadGenerator: "autocannon@8 (npm), own process",
    },
    ceilings,
    figures,
  };
  const dir = new URL("../../bench-results/", import.meta.url);
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(new URL("latest.json", dir), JSON.stringify(report, null, 2) + "\n");
  console.log(`\nwrote ${new URL("latest.json", dir).pathname}`);
}

if (import.meta.main) {
  const [mode, ...rest] = Deno.args;
  if (mode === "kv-worker") {
    console.log(JSON.stringify(await kvWorker(Number(rest[0]), Number(rest[1]))));
  } else if (mode === "checkout-worker") {
    console.log(
      JSON.stringify(await checkoutWorker(rest[0], Number(rest[1]), Number(rest[2]))),
    );
  } else {
    await main();
  }
}
