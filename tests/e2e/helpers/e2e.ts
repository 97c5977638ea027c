import process from "node:process";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type ShopOptions, type ShopProcess, startShop } from "../../helpers/shop_process.ts";
import { browserMissing, launchBrowser, type PageProblems, watchProblems } from "./browser.ts";

/** What an end-to-end test gets: a running shop, a browser and a way to open watched pages. */
export interface E2E {
  shop: ShopProcess;
  browser: Browser;
  /** A fresh browser context (own storage) with one page whose problems are recorded. */
  newPage(options?: NewPageOptions): Promise<
    { page: Page; context: BrowserContext; problems: PageProblems }
  >;
}

/** How a test's page is opened. */
export interface NewPageOptions {
  /** Failed requests and console errors the test expects (matched on their text). */
  allow?: RegExp[];
  viewport?: { width: number; height: number };
  /**
   * Whether the page moves as most visitors see it: the logo's colours, the carousels' slides and
   * autoplay, transitions and toast fades. Off by default: pages open as for a visitor who asked
   * for reduced motion (a setting the shop honours: no animation, transition or autoplay), since
   * an open page's logo repainting every second cost about 0.06 s of Chromium's CPU per page per
   * second (measured), the largest part of the browser tests' CPU while they wait, and a test
   * checking colours or positions then never meets a frame mid-animation. The tests of motion
   * itself turn it on.
   */
  motion?: boolean;
  /**
   * What the browser's localStorage holds for the shop before the first page opens, as a returning
   * shopper's does (a cart id, a session token). Opening a page only to write it there cost a
   * whole page load.
   */
  storage?: Record<string, string>;
}

/**
 * The module's Chromium, launched by its first browser test and shared by the rest (each test
 * still gets its own shop and fresh contexts). Launching one costs about a second.
 */
let sharedBrowser: Promise<Browser> | null = null;
/** Browser tests of this module that have not finished; the last one closes the browser. */
let unfinished = 0;

function browser(): Promise<Browser> {
  if (!sharedBrowser) {
    const launching = launchBrowser();
    sharedBrowser = launching;
    const forget = () => {
      if (sharedBrowser === launching) sharedBrowser = null;
    };
    // A browser that failed to start or crashed is launched afresh by the next test.
    launching.then((b) => b.on("disconnected", forget), forget);
  }
  return sharedBrowser;
}

async function closeBrowser(): Promise<void> {
  const closing = sharedBrowser;
  sharedBrowser = null;
  await (await closing?.catch(() => null))?.close().catch(() => {});
}

// When --filter leaves tests out, the count never reaches 0 and the browser is still open when
// the module ends. Playwright kills the browsers it launched on Node's process "exit", which Deno
// does not emit when a test module ends, so emit it then (the module's isolate is going away).
globalThis.addEventListener("unload", () => {
  if (sharedBrowser) process.emit("exit", 0);
});

/**
 * Declares a browser test against its own shop process. Without Chromium it is reported as
 * ignored, loudly (see browser.ts); with REQUIRE_BROWSER=1 a missing browser fails the run.
 */
export function e2eTest(
  name: string,
  fn: (e2e: E2E, t: Deno.TestContext) => Promise<void>,
  options: ShopOptions = {},
): void {
  if (!browserMissing) unfinished++;
  Deno.test({
    name,
    ignore: browserMissing,
    // The one exception to the sanitizers: the module's Chromium (a child process with its pipes
    // and Playwright's timers) is launched by the first browser test and closed by the last, so
    // it outlives every test but the last by design; relaunching it per test costs a second each.
    sanitizeOps: false,
    sanitizeResources: false,
    async fn(t) {
      const contexts: BrowserContext[] = [];
      let shop: ShopProcess | null = null;
      try {
        shop = await startShop(options);
        const shared = await browser();
        const url = shop.url;
        await fn({
          shop,
          browser: shared,
          async newPage(pageOptions = {}) {
            const context = await shared.newContext({
              baseURL: url,
              viewport: pageOptions.viewport ?? { width: 1280, height: 900 },
              acceptDownloads: true,
              reducedMotion: pageOptions.motion ? "no-preference" : "reduce",
              storageState: pageOptions.storage && {
                cookies: [],
                origins: [{
                  origin: new URL(url).origin,
                  localStorage: Object.entries(pageOptions.storage)
                    .map(([name, value]) => ({ name, value })),
                }],
              },
            });
            contexts.push(context);
            const page = await context.newPage();
            waitForHydration(page);
            const problems = watchProblems(page, pageOptions.allow);
            return { page, context, problems };
          },
        }, t);
      } catch (err) {
        if (!shop) throw err;
        const tail = shop.output.slice(-30).join("\n");
        throw new Error(`${(err as Error).message}\n--- shop output (last lines) ---\n${tail}`, {
          cause: err,
        });
      } finally {
        for (const context of contexts) await context.close().catch(() => {});
        if (--unfinished === 0) await closeBrowser();
        await shop?.stop();
      }
    },
  });
}

/**
 * Makes page.goto and page.reload also wait until the page is live (<html data-hydrated>, set
 * by the app once the page has hydrated): a server-rendered page shows its buttons before its
 * code has arrived, and a shopper's test presses them as a shopper would once they work. A page
 * that never hydrates (its code blocked on purpose) is left after a few seconds for the test to
 * judge.
 */
function waitForHydration(page: Page): void {
  const hydrated = () =>
    page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"), null, {
      timeout: 5000,
    }).catch(() => {});
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await hydrated();
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await hydrated();
    return response;
  };
}
