/**
 * `deno task audit`: Lighthouse (mobile preset) on the shop's main pages against a fresh local
 * shop, printing each category's score against its target. Lighthouse runs from npm with the
 * system Chromium (CHROME_PATH); it is a measurement, not a test, so it never fails the suite.
 */
import { startShop } from "../helpers/shop_process.ts";
import { FULL_CHROMIUM_PATH } from "../e2e/helpers/browser.ts";

const LIGHTHOUSE = "lighthouse@12.8.2";
const PAGES = ["/", "/shop", "/testers/starter-pack", "/testers/custom", "/cart"];
const TARGETS: Record<string, number> = {
  performance: 100,
  accessibility: 100,
  "best-practices": 100,
  seo: 100,
};
/** Largest contentful paint (ms) at most, layout shift at most, in the same runs. */
const LCP_TARGET_MS = 1500;
const CLS_TARGET = 0;
// CHROME_PATH, then chromium, chromium-browser, google-chrome: the whole browser, not the headless
// shell the browser tests prefer, since the scores stand for what shoppers' browsers do.
if (!FULL_CHROMIUM_PATH) {
  console.error("No Chromium to audit with: `apt-get install -y chromium`, or set CHROME_PATH.");
  Deno.exit(1);
}
const chrome = FULL_CHROMIUM_PATH;

/** One Lighthouse run on a page, writing its JSON report to `out`. */
function lighthouse(path: string, out: string): Promise<Deno.CommandOutput> {
  return new Deno.Command("npx", {
    args: [
      "-y",
      LIGHTHOUSE,
      `${shop.url}${path}`,
      "--output=json",
      `--output-path=${out}`,
      "--quiet",
      `--only-categories=${Object.keys(TARGETS).join(",")}`,
      "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking " +
      "--disable-component-update --no-first-run",
    ],
    env: { CHROME_PATH: chrome },
    stdout: "piped",
    stderr: "piped",
  }).output();
}

const shop = await startShop({ env: { LOG_REQUESTS: "0" } });
const outDir = await Deno.makeTempDir({ prefix: "lighthouse-" });
const rows: string[][] = [];
let missed = 0;
try {
  for (const path of PAGES) {
    const out = `${outDir}/${path.replace(/\W+/g, "_") || "home"}.json`;
    // Lighthouse sometimes loses its trace on a busy machine (NO_NAVSTART): try twice more.
    let run = await lighthouse(path, out);
    for (let i = 0; i < 2 && !run.success; i++) run = await lighthouse(path, out);
    if (!run.success) {
      console.error(`Lighthouse failed on ${path}:\n${new TextDecoder().decode(run.stderr)}`);
      missed++;
      continue;
    }
    const report = JSON.parse(await Deno.readTextFile(out));
    for (const [id, target] of Object.entries(TARGETS)) {
      const score = Math.round((report.categories[id]?.score ?? 0) * 100);
      if (score < target) missed++;
      rows.push([path, id, String(score), String(target), score >= target ? "ok" : "BELOW"]);
      if (score < target) {
        const failing = Object.values(
          report.audits as Record<string, { score: number | null; title: string }>,
        )
          .filter((a) => a.score !== null && a.score < 0.9)
          .map((a) => a.title)
          .slice(0, 6);
        rows.push(["", "  failing audits", failing.join("; "), "", ""]);
      }
    }
    const audits = report.audits as Record<string, { numericValue?: number }>;
    const lcp = Math.round(audits["largest-contentful-paint"]?.numericValue ?? Infinity);
    const cls = audits["cumulative-layout-shift"]?.numericValue ?? Infinity;
    if (lcp > LCP_TARGET_MS) missed++;
    if (cls > CLS_TARGET) missed++;
    rows.push([
      path,
      "LCP ms",
      String(lcp),
      `<=${LCP_TARGET_MS}`,
      lcp <= LCP_TARGET_MS ? "ok" : "ABOVE",
    ]);
    rows.push([path, "CLS", cls.toFixed(3), `<=${CLS_TARGET}`, cls <= CLS_TARGET ? "ok" : "ABOVE"]);
  }
} finally {
  await shop.stop();
}
/** A row of the table; the first column fits the longest path (/testers/starter-pack). */
function pad(cells: string[]): string {
  return cells.map((c, i) => c.padEnd(i === 0 ? 24 : 16)).join("");
}
console.log(pad(["page", "category", "score", "target", ""]));
for (const row of rows) console.log(pad(row));
console.log(`\n${missed === 0 ? "All targets met." : `${missed} score(s) below target.`}`);
console.log(`Reports: ${outDir}`);
