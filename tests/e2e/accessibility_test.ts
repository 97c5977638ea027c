/**
 * axe-core over one page of each page template, in both themes: each page is loaded once, checked
 * whole in the light theme, then turned dark (as a visitor's system setting turns it) and checked
 * against the colour rules, the dark theme being the same markup under other colours
 * (tests/e2e/helpers/axe.ts). The pages are checked from a few tabs at once: most of a check is
 * waiting for the page to settle.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { axeFindings } from "./helpers/axe.ts";
import { e2eTest } from "./helpers/e2e.ts";
import { TEMPLATE_PATHS } from "./helpers/accessibility.ts";

/** Tabs checking pages at once. */
const TABS = 3;

/** Turns the page to `theme` as the visitor's system setting would, once the page has followed. */
async function turn(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
}

e2eTest(
  "no serious or critical accessibility violation on any page template, in either theme",
  async (e2e) => {
    const queue = [...TEMPLATE_PATHS];
    const found: string[] = [];
    const checked: string[] = [];
    await Promise.all(Array.from({ length: TABS }, async () => {
      const { page } = await e2e.newPage({ allow: [/./] });
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        await page.emulateMedia({ colorScheme: "light" });
        await page.goto(path);
        await page.locator("h1").first().waitFor();
        await page.waitForLoadState("networkidle");
        assert.equal(await page.locator("html").getAttribute("data-theme"), "light", path);
        for (const theme of ["light", "dark"] as const) {
          await turn(page, theme);
          const findings = await axeFindings(page, { quiet: false });
          found.push(...findings.map((finding) => `${path}: ${finding}`));
        }
        checked.push(path);
      }
    }));
    assert.deepEqual(found, [], "violations");
    assert.deepEqual(checked.sort(), [...TEMPLATE_PATHS].sort(), "every template was checked");
  },
);
