import assert from "node:assert/strict";
import AxeBuilder from "@axe-core/playwright";
import { e2eTest } from "./helpers/e2e.ts";
import { PAGES } from "../../shared/routes.ts";

/** Every page, with sample values for its parameters. */
const PATHS = PAGES.map((p) => p.path.replace(/:\w+/, "abc"));

for (const theme of ["light", "dark"] as const) {
  e2eTest(
    `no serious or critical accessibility violation on any page (${theme} theme)`,
    async (e2e, t) => {
      const { page } = await e2e.newPage({ allow: [/./] });
      await page.emulateMedia({ colorScheme: theme });
      for (const path of PATHS) {
        await t.step(path, async () => {
          await page.goto(path);
          await page.locator("h1").first().waitFor();
          await page.waitForLoadState("networkidle");
          assert.equal(await page.locator("html").getAttribute("data-theme"), theme);
          const results = await new AxeBuilder({ page })
            .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
            .analyze();
          const serious = results.violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) =>
              `${v.id} (${v.impact}): ${v.help} — ${
                v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")
              }`
            );
          assert.deepEqual(serious, [], `${path} in ${theme}`);
        });
      }
    },
  );
}
