/**
 * The browser tests' one accessibility check: axe-core's WCAG 2.1 A and AA rules over the page as
 * it is now, answering its serious and critical findings (each file used to spell this out).
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { animationsDone } from "./browser.ts";

/** What the shop's pages are held to. */
const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * The rules whose answer depends on colours. The dark theme is the same markup under other CSS
 * colours (data-theme picks the variables), so a page in it is checked against these alone: every
 * other rule gives the same answer in both themes, and axe's full run cost a theme check about
 * 40% more of Chromium's CPU (measured on the home, configurator and admin pages). The pages the
 * browser tests check in the dark theme are checked in the light one too.
 */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/** How the check runs. */
export interface AxeOptions {
  /**
   * Wait first until no toast shows and no finite animation runs (animationsDone): a colour
   * measured mid-fade is a failure of the moment, not of the page. Off where a test holds a toast
   * on purpose.
   */
  quiet?: boolean;
  /** Only these parts of the page (CSS selectors): axe over a whole grid takes seconds. */
  include?: string[];
}

/** Serious or critical findings on `page` now, each as "theme: rule (impact): help — nodes". */
export async function axeFindings(page: Page, options: AxeOptions = {}): Promise<string[]> {
  if (options.quiet ?? true) await animationsDone(page);
  const theme = await page.evaluate(() => document.documentElement.dataset.theme ?? "light");
  let builder = new AxeBuilder({ page });
  for (const part of options.include ?? []) builder = builder.include(part);
  builder = theme === "dark" ? builder.withRules(COLOUR_RULES) : builder.withTags(WCAG);
  const results = await builder.analyze();
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) =>
      `${theme}: ${v.id} (${v.impact}): ${v.help} — ${
        v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")
      }`
    );
}
