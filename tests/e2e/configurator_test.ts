import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { e2eTest } from "./helpers/e2e.ts";
import { axeFindings } from "./helpers/axe.ts";
import { expectToast, turnTheme } from "./helpers/browser.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { allBrands, filterSwitches, sortAvailableFirst } from "../../shared/filter.ts";
import { cubeCents, customTesterCents, formatCents } from "../../shared/pricing.ts";

// A fresh shop seeds every switch with its initial stock, so the data says what the grid shows.
const CATALOGUE = SWITCHES.map((s) => ({ ...s, available: s.initialStock > 0 }));
const byId = new Map(CATALOGUE.map((s) => [s.id, s]));

/** The ids of the grid's cards, in page order. */
async function gridIds(page: Page): Promise<number[]> {
  const ids = await page.locator(".switch-grid [data-testid^='switch-']").evaluateAll((cards) =>
    cards.map((card) => Number(card.getAttribute("data-testid")!.slice("switch-".length)))
  );
  return ids;
}

/** Clicks a switch card and waits until it shows the expected pressed state. */
async function toggle(page: Page, id: number, pressed: boolean): Promise<void> {
  const card = page.getByTestId(`switch-${id}`);
  await card.click();
  assert.equal(await card.getAttribute("aria-pressed"), String(pressed), `switch ${id} pressed`);
}

async function expectCount(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (t) => document.querySelector('[data-testid="selection-count"]')?.textContent === t,
    text,
  );
}

e2eTest("a shopper builds a 15-switch custom tester and finds it in the cart", async (e2e) => {
  const { page, problems } = await e2e.newPage();
  await page.goto("/testers/custom");
  assert.equal(await page.locator("h1").textContent(), "Custom Switch Tester");
  await page.locator(".switch-grid").waitFor();
  const resultCount = page.getByTestId("result-count");
  assert.equal(
    await resultCount.textContent(),
    `Showing ${CATALOGUE.length} of ${CATALOGUE.length} switches`,
  );
  // Available switches come first.
  assert.deepEqual(await gridIds(page), sortAvailableFirst(CATALOGUE).map((s) => s.id));
  // Each card shows its switch's picture (the page derives the URL from the image name).
  const first = CATALOGUE[0];
  const picture = page.getByTestId(`switch-${first.id}`).locator("img");
  assert.match(
    (await picture.getAttribute("src"))!,
    new RegExp(`/switches/${first.image}-transparent\\.svg$`),
  );
  await picture.scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (id) =>
      (document.querySelector(`[data-testid="switch-${id}"] img`) as HTMLImageElement)
        .naturalWidth > 0,
    first.id,
  );

  // Filter: no clicky switches, 45 g to 65 g (set with the keyboard, in 5 g steps).
  await page.getByRole("checkbox", { name: "Clicky" }).uncheck();
  const low = page.getByLabel("Minimum force");
  const high = page.getByLabel("Maximum force");
  assert.equal(await low.getAttribute("min"), "35");
  assert.equal(await high.getAttribute("max"), "80");
  await low.focus();
  for (let i = 0; i < 2; i++) await page.keyboard.press("ArrowRight");
  await high.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
  assert.equal(await low.inputValue(), "45");
  assert.equal(await high.inputValue(), "65");
  const filters = {
    brands: allBrands(CATALOGUE),
    types: ["tactile", "linear", "silent"],
    forceRange: { low: 45, high: 65 },
    search: "",
  };
  const filtered = sortAvailableFirst(filterSwitches(CATALOGUE, filters));
  assert.equal(
    await resultCount.textContent(),
    `Showing ${filtered.length} of ${CATALOGUE.length} switches`,
  );
  assert.deepEqual(await gridIds(page), filtered.map((s) => s.id));

  // Search by name, case-insensitive: "box" finds the Kailh and NovelKeys Box switches.
  await page.getByLabel("Search switches").fill("box");
  const boxes = sortAvailableFirst(filterSwitches(CATALOGUE, { ...filters, search: "box" }));
  assert.ok(boxes.length >= 3);
  assert.deepEqual(await gridIds(page), boxes.map((s) => s.id));
  assert.ok(boxes.every((s) => /box/i.test(s.name)));

  // The size comes first; 10 is the default.
  await page.getByRole("radio", { name: /^15 switches/ }).check();
  await page.getByRole("radio", { name: /^Transparent/ }).check();
  assert.ok(await page.getByRole("radio", { name: /^Random/ }).isDisabled(), "random disabled");
  assert.ok(await page.getByText("coming soon").isVisible());

  const picks: number[] = [];
  for (const sw of boxes.filter((s) => s.available).slice(0, 3)) {
    await toggle(page, sw.id, true);
    picks.push(sw.id);
  }
  // The keyboard toggles a card too: Enter and Space.
  await page.getByLabel("Search switches").fill("");
  const rest = filtered.filter((s) => s.available && !picks.includes(s.id));
  const byKeyboard = page.getByTestId(`switch-${rest[0].id}`);
  await byKeyboard.focus();
  await page.keyboard.press("Enter");
  assert.equal(await byKeyboard.getAttribute("aria-pressed"), "true");
  await page.keyboard.press("Space");
  assert.equal(await byKeyboard.getAttribute("aria-pressed"), "false");
  await page.keyboard.press("Space");
  assert.equal(await byKeyboard.getAttribute("aria-pressed"), "true");
  picks.push(rest[0].id);
  for (const sw of rest.slice(1, 12)) {
    await toggle(page, sw.id, true);
    picks.push(sw.id);
  }
  assert.equal(picks.length, 15);
  await expectCount(page, "Selected 15 / 15");

  // A 16th is refused.
  await toggle(page, rest[12].id, false);
  await expectToast(page, "You can only select 15 switches.");
  await expectCount(page, "Selected 15 / 15");

  // Lowering the count keeps the picks, turns the counter red and disables Add.
  const add = page.getByRole("button", { name: "Add to Cart" });
  const counter = page.getByTestId("selection-count");
  await page.getByRole("radio", { name: /^10 switches/ }).check();
  await expectCount(page, "Selected 15 / 10");
  assert.match((await counter.getAttribute("class"))!, /\berror-text\b/);
  assert.ok(await add.isDisabled(), "Add is disabled with too many switches");
  await page.getByRole("radio", { name: /^15 switches/ }).check();
  await expectCount(page, "Selected 15 / 15");
  assert.doesNotMatch((await counter.getAttribute("class"))!, /\berror-text\b/);
  assert.ok(await add.isEnabled());
  assert.equal(await add.getAttribute("aria-disabled"), null);

  // The summary prices exactly as the server will.
  const extras = picks.map((id) => byId.get(id)!.extraPriceCents);
  const premium = extras.reduce((a, b) => a + b, 0);
  assert.notEqual(premium, 0, "the picks include premium switches");
  const total = formatCents(customTesterCents(15, "transparent", extras));
  const summary = page.getByTestId("price-summary");
  assert.equal(await page.getByTestId("price-total").textContent(), total);
  assert.ok(await summary.getByText("$14.49").isVisible(), "base price for 15");
  assert.ok(await summary.getByText("$6.00").isVisible(), "15 x $0.40 keycaps");
  assert.ok(await summary.getByText(formatCents(premium)).isVisible(), "premium line");

  await add.click();
  await expectToast(page, "Custom Switch Tester added to cart");
  await expectCount(page, "Selected 0 / 15");
  await page.getByRole("link", { name: "Go to Cart" }).click();
  await page.waitForURL("**/cart");
  const line = page.getByTestId("cart-line").filter({ hasText: "Custom Switch Tester" });
  await line.waitFor();
  assert.equal(await line.locator(".price").textContent(), total);
  assert.match((await line.textContent())!, /15 switches · Transparent keycaps · White body/);

  // Back on the configurator: a short add is refused with the spec's message.
  await page.goto("/testers/custom");
  await page.locator(".switch-grid").waitFor();
  for (const id of picks.slice(0, 3)) await toggle(page, id, true);
  assert.equal(await add.getAttribute("aria-disabled"), "true");
  // aria-disabled: it looks and reads disabled, but a real click still lands and explains why
  // (Playwright waits for 'enabled' unless forced, so force the same mouse click).
  await add.click({ force: true });
  await expectToast(page, "Please select 10 switches. You've only selected 3.");
  await expectCount(page, "Selected 3 / 10");

  // An unavailable switch is shown last, labelled, and cannot be selected.
  const soldOut = CATALOGUE.find((s) => !s.available)!;
  const soldOutCard = page.getByTestId(`switch-${soldOut.id}`);
  assert.equal(await soldOutCard.getAttribute("aria-disabled"), "true");
  assert.match((await soldOutCard.textContent())!, /Out of stock/);
  await soldOutCard.click({ force: true });
  assert.equal(await soldOutCard.getAttribute("aria-pressed"), "false");
  await expectCount(page, "Selected 3 / 10");
  assert.deepEqual(problems.errors, []);
});

e2eTest("filters narrow the grid, an empty result offers a reset", async (e2e) => {
  const { page, problems } = await e2e.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto("/testers/custom");
  await page.locator(".switch-grid").waitFor();
  const columns = await page.locator(".switch-grid").evaluate((grid) =>
    getComputedStyle(grid).gridTemplateColumns.split(" ").length
  );
  assert.equal(columns, 2, "two columns on a phone");

  // A collaboration shows under either partner: only Kailh ticked finds NovelKeys x Kailh too.
  await page.locator(".brand-filter summary").click();
  await page.getByRole("checkbox", { name: "Kailh", exact: true }).check();
  const kailh = CATALOGUE.filter((s) => s.brand.split(" x ").includes("Kailh"));
  assert.ok(kailh.some((s) => s.brand === "NovelKeys x Kailh"));
  assert.equal(
    await page.getByTestId("result-count").textContent(),
    `Showing ${kailh.length} of ${CATALOGUE.length} switches`,
  );
  assert.deepEqual((await gridIds(page)).sort(), kailh.map((s) => s.id).sort());

  // Searching matches the brand as well, case-insensitive.
  await page.getByLabel("Search switches").fill("NOVELKEYS");
  const novel = CATALOGUE.filter((s) => s.brand === "NovelKeys x Kailh");
  assert.deepEqual((await gridIds(page)).sort(), novel.map((s) => s.id).sort());

  await page.getByLabel("Search switches").fill("no such switch");
  await page.getByText("No switches match your filters.").waitFor();
  await page.locator(".empty-result").getByRole("button", { name: "Reset filters" }).click();
  await page.locator(".switch-grid").waitFor();
  assert.equal(
    await page.getByTestId("result-count").textContent(),
    `Showing ${CATALOGUE.length} of ${CATALOGUE.length} switches`,
  );
  assert.equal(await page.getByLabel("Search switches").inputValue(), "");
  assert.deepEqual(problems.errors, []);
});

e2eTest("a shopper builds a pastel fidget cube in black and finds it in the cart", async (e2e) => {
  const { page, problems } = await e2e.newPage();
  await page.goto("/testers/fidget-cube");
  assert.equal(await page.locator("h1").textContent(), "Custom Fidget Cube");
  await page.locator(".switch-grid").waitFor();
  assert.ok(await page.getByText("Number of switches: 6").isVisible());

  const preview = page.getByTestId("cube-preview");
  assert.match((await preview.getAttribute("src"))!, /\/cubes\/cube-white-white\.svg$/);
  await page.getByRole("radio", { name: "Pastel Mix" }).check();
  assert.match((await preview.getAttribute("src"))!, /\/cubes\/cube-pastel-white\.svg$/);
  await page.getByRole("radio", { name: "Black" }).check();
  assert.match((await preview.getAttribute("src"))!, /\/cubes\/cube-pastel-black\.svg$/);
  assert.match((await preview.getAttribute("alt"))!, /black body with pastel mix keycaps/);
  await page.waitForFunction(() =>
    (document.querySelector('[data-testid="cube-preview"]') as HTMLImageElement).naturalWidth > 0
  );

  const summary = page.getByTestId("price-summary");
  assert.equal(await page.getByTestId("price-total").textContent(), "$12.99");
  assert.equal(await summary.getByText("Premium switches").count(), 0, "no premium line at zero");

  // Premium and plain switches; Holy Panda and Zealios cost extra.
  const picks = [130, 221, 101, 162, 165, 166];
  for (const id of picks) await toggle(page, id, true);
  await expectCount(page, "Selected 6 / 6");
  await toggle(page, 102, false);
  await expectToast(page, "You can only select 6 switches for the Fidget Cube.");

  // Clicking a selected switch deselects it; Add with five explains what is missing.
  await toggle(page, 166, false);
  const add = page.getByRole("button", { name: "Add to Cart" });
  assert.equal(await add.getAttribute("aria-disabled"), "true");
  // aria-disabled: it looks and reads disabled, but a real click still lands and explains why
  // (Playwright waits for 'enabled' unless forced, so force the same mouse click).
  await add.click({ force: true });
  await expectToast(page, "Please select 6 switches. You've selected 5.");
  await toggle(page, 166, true);
  assert.equal(await add.getAttribute("aria-disabled"), null);

  const extras = picks.map((id) => byId.get(id)!.extraPriceCents);
  const total = formatCents(cubeCents(extras));
  assert.equal(await page.getByTestId("price-total").textContent(), total);
  assert.ok(await summary.getByText("Premium switches").isVisible());
  assert.ok(await summary.getByText("$12.99").isVisible());

  await add.click();
  await expectToast(page, "Custom Fidget Cube added to cart");
  await expectCount(page, "Selected 0 / 6");
  await page.getByRole("link", { name: "Go to Cart" }).click();
  await page.waitForURL("**/cart");
  const line = page.getByTestId("cart-line").filter({ hasText: "Custom Fidget Cube" });
  await line.waitFor();
  assert.equal(await line.locator(".price").textContent(), total);
  assert.match((await line.textContent())!, /6 switches · Pastel Mix keycaps · Black body/);
  assert.deepEqual(problems.errors, []);
});

e2eTest("a failed switch list shows an inline message, and Retry loads it", async (e2e) => {
  const { page, problems } = await e2e.newPage({ allow: [/\/api\/switches/] });
  let fail = true;
  await page.route("**/api/switches", (route) =>
    fail
      ? route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: "Service unavailable" }),
      })
      : route.continue());
  // The server renders the page with its list; moving to it within the app loads it here.
  await page.goto("/shop");
  await page.locator('a[href="/testers/fidget-cube"]').first().click();
  await page.getByText("Could not load switches.").waitFor();
  assert.equal(await page.locator(".switch-grid").count(), 0);
  fail = false;
  await page.getByRole("button", { name: "Retry" }).click();
  await page.locator(".switch-grid").waitFor();
  assert.equal(
    await page.getByTestId("result-count").textContent(),
    `Showing ${CATALOGUE.length} of ${CATALOGUE.length} switches`,
  );
  assert.deepEqual(problems.errors, []);
});

e2eTest(
  "a switch in a drop: its card and panel say so with the countdown, and picking it says how to get in",
  async (e2e) => {
    const sw = sortAvailableFirst(CATALOGUE)[0];
    // A day ahead: the page counts down and nothing waits for the opening.
    const opensAt = new Date(Date.now() + 24 * 3_600_000 + 5 * 60_000).toISOString();
    const scheduled = await fetch(`${e2e.shop.url}/api/admin/drops`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${e2e.shop.adminPassword}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({
        target: { kind: "switch", id: sw.id },
        units: 2,
        opensAt,
        perPersonLimit: 1,
      }),
    });
    assert.equal(scheduled.status, 201, await scheduled.clone().text());
    const { id } = await scheduled.json() as { id: string };

    // The add below is answered by the test (its place is made up): its refusal is expected.
    const { page, problems } = await e2e.newPage({ allow: [/\/api\/cart\/add\/tester/] });
    const asked: string[] = [];
    page.on("request", (req) => {
      if (new URL(req.url()).pathname.startsWith("/api/drops")) asked.push(req.url());
    });
    await page.goto("/testers/custom");
    // The card says it is in a drop, in its accessible name, with the countdown.
    const card = page.getByTestId(`switch-${sw.id}`);
    await card.locator(".switch-card-drop").waitFor();
    assert.match(
      (await card.locator(".switch-card-drop").textContent())!,
      /^Limited drop: opens in 1 day 00:0[45]:\d\d$/,
    );
    assert.equal(await card.getAttribute("aria-disabled"), "true");
    assert.match(
      await card.evaluate((el) => el.textContent ?? ""),
      new RegExp(`${sw.name}.*Limited drop: opens in`),
    );
    // Above the list, the drop's panel: its countdown ticks on, and "Email me when it opens".
    const panel = page.getByTestId("drop-panel");
    await panel.getByRole("heading", { name: /^Limited drop: / }).waitFor();
    await panel.getByRole("button", { name: /Email me when it opens/ }).waitFor();
    const clock = panel.locator(".drop-countdown-clock");
    const first = await clock.textContent();
    await page.waitForFunction(
      (before) => document.querySelector(".drop-countdown-clock")?.textContent !== before,
      first,
      { timeout: 3_000 },
    );
    // Rendered with the page: the browser asked nothing about drops to show them.
    assert.deepEqual(asked, []);

    // Picking it (by keyboard) is refused with the sentence and the way in.
    await card.focus();
    await page.keyboard.press("Enter");
    const refusal = page.getByTestId("drop-refusal");
    await refusal.getByText(/is in a limited drop: you can pick it once it is your turn/).waitFor();
    assert.equal(await card.getAttribute("aria-pressed"), "false");
    await expectCount(page, "Selected 0 / 10");
    assert.equal(
      await refusal.getByRole("link", { name: /Go to the waiting room/ }).getAttribute("href"),
      `/drops/${id}?target=switch-${sw.id}`,
    );
    // The card, the panel and the refusal in both themes.
    for (const theme of ["light", "dark"] as const) {
      await turnTheme(page, theme);
      // Only the parts this test added to the page: axe over the whole grid takes seconds.
      const findings = await axeFindings(page, {
        include: [".switch-drop-panels", `.switch-grid li:has([data-testid="switch-${sw.id}"])`],
      });
      assert.deepEqual(findings, [], theme);
    }

    // A shopper whose turn came (the waiting room's link keeps the place in the browser; the
    // drop's opening and the admission are played by the test): the switch can be picked, and the
    // add carries the place.
    const ticket = "t".repeat(22);
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key, value),
      [
        `switch-tester-shop:drop:${id}`,
        JSON.stringify({ ticket, cartId: null, target: { kind: "switch", id: sw.id } }),
      ],
    );
    const listed = await (await fetch(`${e2e.shop.url}/api/drops/switches`)).json();
    await page.route(
      "**/api/drops/switches",
      (route) => route.fulfill({ json: listed.map((d: object) => ({ ...d, phase: "open" })) }),
    );
    await page.route(`**/api/drops/${id}/tickets/${ticket}*`, (route) =>
      route.fulfill({
        json: { state: "admitted", serverTime: new Date().toISOString(), opensAt, holdMinutes: 10 },
      }));
    let added: { ticket?: string; switches: { id: number }[] } | null = null;
    await page.route("**/api/cart/add/tester", (route) => {
      added = route.request().postDataJSON();
      return route.fulfill({ status: 409, json: { error: "Your turn ended" } });
    });
    // Moving to the page within the app: it asks for the drops and the place itself.
    await page.goto("/shop");
    await page.locator('a[href="/testers/custom"]').first().click();
    await card.getByText("Limited drop: your turn, pick it now").waitFor();
    await toggle(page, sw.id, true);
    await page.getByRole("button", { name: "Fill the rest" }).click();
    await expectCount(page, "Selected 10 / 10");
    await page.getByRole("button", { name: "Add to Cart" }).first().click();
    await expectToast(page, "Your turn ended");
    assert.equal(added!.ticket, ticket);
    assert.ok(added!.switches.some((s) => s.id === sw.id));
    assert.deepEqual(problems.errors, []);
  },
);
