/**
 * A name the owner types without a space (the catalogue takes up to 60 characters) is the long
 * word the wrapping rule promises to break at its box's edge: it must not widen its card past its
 * column nor make the page scroll sideways (the configurator's switch cards on a phone, the shop's
 * cards at each width).
 */
import assert from "node:assert/strict";
import { e2eTest } from "./helpers/e2e.ts";
import { installLayoutFaults } from "./helpers/layout.ts";

/** 40 letters, no space or hyphen: a name only an owner's typo or a brand's style would give. */
const LONG_NAME = "UltraSilentLinearPrototypeEditionVersion";

e2eTest(
  "a switch or product named without a space stays in its card, and the page in the window",
  async (e2e) => {
    const { shop } = e2e;
    const res = await fetch(`${shop.url}/api/admin/catalog/switches`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Authorization: `Bearer ${shop.adminPassword}`,
      },
      body: JSON.stringify({
        name: LONG_NAME,
        brand: "Gateron",
        type: "linear",
        force: "45g",
        extraPrice: 0,
        stock: 50,
      }),
    });
    assert.ok(res.ok, await res.text());
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 900 } });
    await installLayoutFaults(page);
    await page.goto("/testers/custom");
    const card = page.locator(".switch-card", { hasText: LONG_NAME });
    await card.scrollIntoViewIfNeeded();
    await card.waitFor();
    const faults = await page.evaluate(() =>
      (globalThis as unknown as { layoutFaults: (g: number) => string[] }).layoutFaults(2)
    );
    const column = await page.locator(".switch-grid li").first().evaluate((li) =>
      li.getBoundingClientRect().width
    );
    const width = await card.evaluate((el) => el.getBoundingClientRect().width);
    assert.ok(width <= column + 1, `the card is ${width} px wide in a ${column} px column`);
    assert.deepEqual(faults.filter((f) => /sideways|cut off|overflows/.test(f)), []);

    // An item renamed so (80 characters), on /shop's cards, whose columns it widened at 768 px.
    const renamed = await fetch(`${shop.url}/api/admin/catalog/items/1`, {
      method: "PATCH",
      headers: {
        "Content-Type": "application/json",
        Authorization: `Bearer ${shop.adminPassword}`,
      },
      body: JSON.stringify({ name: LONG_NAME + LONG_NAME }),
    });
    assert.ok(renamed.ok, await renamed.text());
    for (const w of [390, 768, 1280]) {
      await page.setViewportSize({ width: w, height: 900 });
      await page.goto("/shop");
      await page.locator("h3", { hasText: LONG_NAME }).waitFor();
      const shopFaults = await page.evaluate(() =>
        (globalThis as unknown as { layoutFaults: (g: number) => string[] }).layoutFaults(2)
      );
      assert.deepEqual(
        shopFaults.filter((f) => /sideways|cut off|overflows/.test(f)),
        [],
        `/shop at ${w} px`,
      );
    }
  },
);
