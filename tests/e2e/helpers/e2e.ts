import type { Browser, BrowserContext, Page } from "playwright-core";
import { type ShopOptions, type ShopProcess, startShop } from "../../helpers/shop_process.ts";
import { browserMissing, launchBrowser, type PageProblems, watchProblems } from "./browser.ts";

/** What an end-to-end test gets: a running shop, a browser and a way to open watched pages. */
export interface E2E {
  shop: ShopProcess;
  browser: Browser;
  /** A fresh browser context (own storage) with one page whose problems are recorded. */
  newPage(options?: { allow?: RegExp[]; viewport?: { width: number; height: number } }): Promise<
    { page: Page; context: BrowserContext; problems: PageProblems }
  >;
}

/**
 * Declares a browser test against its own shop process. Without Chromium it is reported as
 * ignored, loudly (see browser.ts); with REQUIRE_BROWSER=1 a missing browser fails the run.
 */
export function e2eTest(
  name: string,
  fn: (e2e: E2E, t: Deno.TestContext) => Promise<void>,
  options: ShopOptions = {},
): void {
  Deno.test({
    name,
    ignore: browserMissing,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn(t) {
      const shop = await startShop(options);
      const browser = await launchBrowser();
      const contexts: BrowserContext[] = [];
      try {
        await fn({
          shop,
          browser,
          async newPage(pageOptions = {}) {
            const context = await browser.newContext({
              baseURL: shop.url,
              viewport: pageOptions.viewport ?? { width: 1280, height: 900 },
              acceptDownloads: true,
            });
            contexts.push(context);
            const page = await context.newPage();
            const problems = watchProblems(page, pageOptions.allow);
            return { page, context, problems };
          },
        }, t);
      } catch (err) {
        const tail = shop.output.slice(-30).join("\n");
        throw new Error(`${(err as Error).message}\n--- shop output (last lines) ---\n${tail}`, {
          cause: err,
        });
      } finally {
        for (const context of contexts) await context.close().catch(() => {});
        await browser.close().catch(() => {});
        await shop.stop();
      }
    },
  });
}
