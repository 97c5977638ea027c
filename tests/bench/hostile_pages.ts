/**
 * The hostile-pages scenario of `deno task bench`: GET /api/health's p99 at rest, then while 4
 * connections ask for pages under URLs never seen before (`?u=<random>` on several pages) and 4
 * for build previews the same way, and the ratio of the two. Unknown parameters must cost no new
 * render (server/ssr/page_server.ts, server/routes/images.ts), so the ratio should stay within 3.
 * With `builds` (`run.ts hostile-pages --builds`) the URLs are random builds instead, parameters
 * the pages do read: each is a new render until the client's budget is spent, then the app
 * unrendered (the browser renders it); previews past theirs are refused with 429.
 * Each page and preview is asked for once, plainly, before anything is measured, as a running
 * shop has them kept. Every loop is bounded in time and in requests; all load goes to the shop on
 * 127.0.0.1.
 */

/** Seconds of health probes at rest, then of the hostile load. */
const REST_SECONDS = 3;
const HOSTILE_SECONDS = 5;
/** Loops of each kind of hostile request, one request in flight each. */
const CONNECTIONS = 4;
/** Health probe loops, and their pause after each answer. */
const PROBE_LOOPS = 4;
const PROBE_GAP_MS = 5;
/** Upper bound of the requests of any one loop. */
const MAX_PER_LOOP = 20_000;
const TIMEOUT_MS = 30_000;

/** The pages asked for, each with a new random parameter every time. */
const PAGES = [
  "/testers/custom",
  "/",
  "/shop",
  "/testers/starter-pack",
  "/faq",
  "/testers/fidget-cube",
];
/** The previews asked for likewise: builds the configurators make. */
const PREVIEWS = [
  "/images/build.png?kind=tester&size=10&switches=101,102,103,104,105,106,107,108,109,110",
  "/images/build.png?kind=tester&size=20&switches=111,112,113,114,115",
  "/images/build.png?kind=cube&keycaps=pastel&body=black&switches=101,102,103,104,105,106",
];

/** What the scenario measured. */
export interface HostilePagesSummary {
  healthP99RestMs: number;
  healthP99HostileMs: number;
  p99Ratio: number;
  healthProbes: { rest: number; hostile: number };
  /** Random builds (parameters the pages read) rather than random unknown parameters. */
  builds: boolean;
  /** Answers to the hostile requests, by kind and status. */
  pages: Record<string, number>;
  previews: Record<string, number>;
}

function p99(latencies: number[]): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Runs `send` from `loops` loops, one request each at a time, for `seconds`. */
async function loops(
  count: number,
  seconds: number,
  send: (n: number) => Promise<void>,
  gapMs = 0,
): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  let sent = 0;
  await Promise.all(Array.from({ length: count }, async () => {
    for (let i = 0; performance.now() < deadline && i < MAX_PER_LOOP; i++) {
      await send(sent++);
      if (gapMs) await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
  }));
}

/** Health latencies (ms) over `seconds`. */
async function probe(url: string, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  await loops(PROBE_LOOPS, seconds, async () => {
    const t0 = performance.now();
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
    } catch { /* counted as missing */ }
  }, PROBE_GAP_MS);
  return latencies;
}

/** GETs `path`, counting its status (or "no answer") in `tally`. */
async function count(url: string, path: string, tally: Record<string, number>): Promise<void> {
  let status = "no answer";
  try {
    const res = await fetch(`${url}${path}`, {
      headers: { "Accept-Encoding": "gzip, deflate, br" },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.arrayBuffer();
    status = String(res.status);
  } catch { /* no answer */ }
  tally[status] = (tally[status] ?? 0) + 1;
}

/** The scenario against the shop at `url` (its client built, its catalogue seeded). */
export async function hostilePages(url: string, builds = false): Promise<HostilePagesSummary> {
  // A running shop has its pages and previews kept already (its shoppers asked for them): each is
  // asked for once first, so the hostile phase measures what unique URLs cost, not a cold start.
  const warm: Record<string, number> = {};
  for (const path of [...PAGES, ...PREVIEWS]) await count(url, path, warm);
  await probe(url, 0.5); // warm-up
  const rest = await probe(url, REST_SECONDS);
  const pages: Record<string, number> = {};
  const previews: Record<string, number> = {};
  const random = () => crypto.randomUUID().slice(0, 8);
  // A random build of 10 switches of the catalogue's first (ids 101 to 222).
  const build = () =>
    Array.from({ length: 10 }, () => 101 + Math.floor(Math.random() * 122)).join(",");
  const pagePath = (n: number) =>
    builds ? `/testers/custom?switches=${build()}` : `${PAGES[n % PAGES.length]}?u=${random()}`;
  const previewPath = (n: number) =>
    builds
      ? `/images/build.png?kind=tester&switches=${build()}`
      : `${PREVIEWS[n % PREVIEWS.length]}&u=${random()}`;
  const [, hostile] = await Promise.all([
    Promise.all([
      loops(
        CONNECTIONS,
        HOSTILE_SECONDS,
        (n) => count(url, pagePath(n), pages),
      ),
      loops(
        CONNECTIONS,
        HOSTILE_SECONDS,
        (n) => count(url, previewPath(n), previews),
      ),
    ]),
    probe(url, HOSTILE_SECONDS),
  ]);
  const restP99 = p99(rest);
  const hostileP99 = p99(hostile);
  return {
    healthP99RestMs: round(restP99),
    healthP99HostileMs: round(hostileP99),
    p99Ratio: round(restP99 > 0 ? hostileP99 / restP99 : 0),
    healthProbes: { rest: rest.length, hostile: hostile.length },
    builds,
    pages,
    previews,
  };
}

/** One line with the scenario's figures. */
export function printHostilePages(s: HostilePagesSummary): void {
  const tally = (t: Record<string, number>) =>
    Object.entries(t).map(([status, n]) => `${n} × ${status}`).join(", ");
  console.log(
    `hostile pages: GET /api/health p99 ${s.healthP99RestMs} ms at rest, ` +
      `${s.healthP99HostileMs} ms during ${CONNECTIONS} connections of unique page URLs and ` +
      `${CONNECTIONS} of unique preview URLs${s.builds ? " (random builds)" : ""} ` +
      `(× ${s.p99Ratio}, target within 3); ` +
      `pages ${tally(s.pages)}; previews ${tally(s.previews)}; health probes ` +
      `${s.healthProbes.rest} at rest, ${s.healthProbes.hostile} during`,
  );
}
