/**
 * The browser tests' one accessibility check: axe-core's WCAG 2.1 A and AA rules over the page as
 * it is now, answering its serious and critical findings (each file used to spell this out).
 */
import assert from "node:assert/strict";
import type { AxeResults, RunOptions } from "axe-core";
import type { Page } from "playwright-core";
import { animationsDone } from "./browser.ts";

/**
 * axe-core's minified build (650 KB), injected into pages: the package's `source` is its readable
 * build, 1.5 MB for the browser to parse at each injection.
 */
const AXE_SOURCE = await Deno.readTextFile(new URL(import.meta.resolve("axe-core/axe.min.js")));

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
  const results = await runAxe(page, {
    include: options.include ?? [],
    options: {
      runOnly: theme === "dark"
        ? { type: "rule", values: COLOUR_RULES }
        : { type: "tag", values: WCAG },
      // Only the violations are read: axe still finds every one, with every node, but keeps one
      // node of each passing rule instead of all of them. Building and sending back the passes
      // was a third to a half of a check's CPU in Chromium and nearly all of it in Deno (the
      // custom tester's page: 0.84 s -> 0.54 s and 0.28 s -> 0.02 s; measured, same findings).
      resultTypes: ["violations"],
    },
  });
  return results.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) =>
      `${theme}: ${v.id} (${v.impact}): ${v.help} — ${
        v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")
      }`
    );
}

/**
 * axe run in the page's document, its script injected once per document (a theme's two
 * checks share it). Not @axe-core/playwright's AxeBuilder: its default run gathers each frame's
 * results in a blank page it opens and injects the script into again, and it injects into the
 * page at every check; together about two thirds of a check's CPU in Chromium (0.45 s -> 0.15 s
 * on the home, configurator and admin pages, same findings, measured). One document is what this
 * reads, so a page with a frame fails here rather than being checked in part.
 */
async function runAxe(
  page: Page,
  run: { include: string[]; options: RunOptions },
): Promise<AxeResults> {
  const frames = page.frames().filter((f) => f !== page.mainFrame()).map((f) => f.url());
  assert.deepEqual(frames, [], "the page has frames, which this check does not read");
  const injected = await page.evaluate(() =>
    typeof (globalThis as { axe?: { run?: unknown } }).axe?.run === "function"
  );
  if (!injected) await page.evaluate(AXE_SOURCE);
  return await page.evaluate(({ include, options }) => {
    const inPage = globalThis as unknown as {
      axe: { run(context: unknown, options: RunOptions): Promise<AxeResults> };
    };
    return inPage.axe.run(include.length ? { include } : document, options);
  }, run);
}
