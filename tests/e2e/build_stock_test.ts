/**
 * Configurators against live stock in a real browser: sizes, keycaps and cube colours turn off
 * with their reason as their parts run out, a switch says how few are left, "Fill the rest"
 * completes a build that can be bought, and a shared link rebuilds the same tester.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { e2eTest } from "./helpers/e2e.ts";
import { expectToast, waitForBadge } from "./helpers/browser.ts";
import { setComponentStock, setSwitchStock } from "./helpers/api.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";

const radio = (page: Page, name: string, value: string) =>
  page.locator(`input[type="radio"][name="${name}"][value="${value}"]`);

e2eTest("sizes, keycaps and cube colours turn off as their parts run out", async (e2e) => {
  const { shop } = e2e;
  await setComponentStock(shop, "LARGE_BOX", 0);
  await setComponentStock(shop, "TRANSPARENT_KEYCAP", 12);
  await setSwitchStock(shop, SWITCHES[0].id, 2);
  const { page } = await e2e.newPage();
  await page.goto("/testers/custom");
  const reason =
    "No large tester boxes are left, so the 20-switch tester cannot be made right now.";
  await page.getByText(reason).waitFor();
  assert.ok(await radio(page, "tester-size", "20").isDisabled());
  assert.ok(await radio(page, "tester-size", "15").isDisabled());
  assert.ok(!(await radio(page, "tester-size", "10").isDisabled()));
  const described = await radio(page, "tester-size", "20").getAttribute("aria-describedby");
  assert.equal(await page.locator(`#${described}`).innerText(), reason, "read with the option");
  // 12 transparent keycaps cover a 10-switch tester.
  assert.ok(!(await radio(page, "tester-keycaps", "transparent").isDisabled()));
  await page.getByTestId(`switch-${SWITCHES[0].id}`).getByText("Only 2 left").waitFor();

  await setComponentStock(shop, "TRANSPARENT_KEYCAP", 9);
  await setComponentStock(shop, "CUBE_BODY", 0);
  // Coming back to the tab asks again.
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  await page.getByText("Only 9 transparent keycaps are left, fewer than the 10 this tester needs.")
    .waitFor();
  assert.ok(await radio(page, "tester-keycaps", "transparent").isDisabled());

  await page.goto("/testers/fidget-cube");
  await page.getByText("No fidget cube bodies are left, so a cube cannot be made right now.")
    .first()
    .waitFor();
  assert.ok(await radio(page, "cube-body", "white").isDisabled());
  assert.ok(await radio(page, "cube-body", "black").isDisabled());
});

e2eTest(
  "fill the rest completes a build that is bought, and a shared link rebuilds it",
  async (e2e) => {
    const { page } = await e2e.newPage();
    await page.goto("/testers/custom");
    await radio(page, "tester-size", "15").check();
    const first = page.locator('button[data-testid^="switch-"]:not([aria-disabled="true"])')
      .first();
    await first.click();
    await page.getByRole("button", { name: "Fill the rest" }).click();
    const note = page.getByTestId("fill-rest-note");
    await note.getByText(/^Added 14 switches: /).waitFor();
    assert.equal(
      await page.locator('button[data-testid^="switch-"][aria-pressed="true"]').count(),
      15,
    );

    // The link of this build, as Copy link makes it, opens the same tester elsewhere.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy link to this build" }).click();
    await expectToast(page, "Link to this build copied");
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(
      link,
      /\/testers\/custom\?size=15&keycaps=none&body=white&switches=(\d+%2C){14}\d+$/,
    );
    const picked = await page.locator('button[data-testid^="switch-"][aria-pressed="true"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")).sort());

    // Link previews: the page's HTML names a picture of this build, a 1200×630 PNG.
    const html = await (await fetch(link.replace(/^https?:\/\/[^/]+/, e2e.shop.url))).text();
    const image = /<meta property="og:image" content="([^"]+)">/.exec(html)![1].replaceAll(
      "&amp;",
      "&",
    );
    assert.match(html, /<meta name="twitter:card" content="summary_large_image">/);
    const png = await fetch(image.replace(/^https?:\/\/[^/]+/, e2e.shop.url));
    assert.equal(png.headers.get("content-type"), "image/png");
    const bytes = new DataView(await png.arrayBuffer());
    assert.deepEqual([bytes.getUint32(16), bytes.getUint32(20)], [1200, 630]);

    await page.getByRole("button", { name: /Add to Cart/i }).first().click();
    await waitForBadge(page, 1);

    const other = await e2e.newPage();
    await other.page.goto(new URL(link).pathname + new URL(link).search);
    await other.page.getByTestId("shared-build-note").getByText("The shared build is open.")
      .waitFor();
    assert.ok(await radio(other.page, "tester-size", "15").isChecked());
    const rebuilt = await other.page.locator('button[data-testid^="switch-"][aria-pressed="true"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")).sort());
    assert.deepEqual(rebuilt, picked);

    // A link with unknown and too many switches opens what it can and says what it dropped.
    const ids = SWITCHES.slice(0, 12).map((s) => s.id).join(",");
    await other.page.goto(`/testers/custom?size=10&switches=${ids},999999&keycaps=gold`);
    const dropped = other.page.getByTestId("shared-build-note");
    await dropped.getByText(
      /without the keycaps "gold", 1 switch no longer sold, 2 switches past 10/,
    )
      .waitFor();
    assert.equal(
      await other.page.locator('button[data-testid^="switch-"][aria-pressed="true"]').count(),
      10,
    );
  },
);
