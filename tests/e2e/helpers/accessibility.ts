/**
 * axe-core over one page of each page template (a module under client/features/) in one theme.
 * Pages sharing a template (the six pack pages) differ only in data, so one of them stands for
 * all. Each theme is its own test file, so the two run in parallel, and within one the pages are
 * checked from a few tabs at once: most of a check is waiting for the page to settle.
 */
import assert from "node:assert/strict";
import { axeFindings } from "./axe.ts";
import { e2eTest } from "./e2e.ts";
import { PAGES } from "../../../shared/routes.ts";

/** One path per page template, with sample values for its parameters. */
export const TEMPLATE_PATHS: readonly string[] = [
  ...new Map(PAGES.map((p) => [p.module, p.path.replace(/:\w+/, "abc")])).values(),
];

/** Tabs checking pages at once, per theme. */
const TABS = 3;

/** Registers the accessibility test of every page template in `theme`. */
export function accessibilityTest(theme: "light" | "dark"): void {
  e2eTest(
    `no serious or critical accessibility violation on any page template (${theme} theme)`,
    async (e2e) => {
      const queue = [...TEMPLATE_PATHS];
      const found: string[] = [];
      const checked: string[] = [];
      await Promise.all(Array.from({ length: TABS }, async () => {
        const { page } = await e2e.newPage({ allow: [/./] });
        await page.emulateMedia({ colorScheme: theme });
        for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
          await page.goto(path);
          await page.locator("h1").first().waitFor();
          await page.waitForLoadState("networkidle");
          assert.equal(await page.locator("html").getAttribute("data-theme"), theme, path);
          found.push(
            ...(await axeFindings(page, { quiet: false })).map((finding) => `${path}: ${finding}`),
          );
          checked.push(path);
        }
      }));
      assert.deepEqual(found, [], `violations in the ${theme} theme`);
      assert.deepEqual(checked.sort(), [...TEMPLATE_PATHS].sort(), "every template was checked");
    },
  );
}
