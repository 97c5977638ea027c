/**
 * A small drop in a real browser, on the shop's real time: two shoppers see the countdown on the
 * product page, join the waiting room, keep their place through a reload, are put in a random
 * order at the opening; the one let in buys and pays (demo provider, the drop's shorter hold on
 * the payment page), and the other is told at once that it sold out, with the restock sign-up.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { axeFindings } from "./helpers/axe.ts";
import { turnTheme } from "./helpers/browser.ts";
import { e2eTest } from "./helpers/e2e.ts";
import { PACK_INFO } from "../../shared/catalog/pack_info.ts";
import { ITEMS } from "../../shared/catalog/items.ts";

const PACK = PACK_INFO.find((p) => p.slug === "starter-pack")!;
/** The shop takes a drop at least a minute ahead; a little more, so the request's trip fits. */
const LEAD_MS = 63_000;
/** Every wait past the opening is bounded: admission, a poll (3 s) and a page's work. */
const AFTER_OPENING_MS = 25_000;
const HOLD_MINUTES = 5;

/** The payment page's hold countdown in seconds ("We're holding your items for 04:59"). */
async function holdSeconds(page: Page): Promise<number> {
  const timer = page.getByRole("timer");
  await timer.waitFor();
  const match = ((await timer.textContent()) ?? "").match(/(\d{2,}):(\d{2})$/);
  assert.ok(match, "the hold reads mm:ss");
  return Number(match[1]) * 60 + Number(match[2]);
}

/** Serious or critical axe findings on the page as it is, in the given theme. */
async function findingsIn(page: Page, theme: "light" | "dark"): Promise<string[]> {
  await turnTheme(page, theme);
  return (await axeFindings(page)).map((finding) => `${page.url()} ${finding}`);
}

/** The waiting room's box of the shopper's place (the announcer says the same words elsewhere). */
function place(page: Page) {
  return page.getByRole("region", { name: "Your place" });
}

/** Resolves with the page once it says it is the shopper's turn; null if it never does. */
function turnOf(page: Page, timeout: number): Promise<Page | null> {
  return place(page).getByText("It's your turn").waitFor({ timeout }).then(() => page, () => null);
}

e2eTest(
  "a drop: two shoppers wait with the countdown and their place, one pays, the other hears it sold out",
  async (e2e) => {
    const opensAt = new Date(Date.now() + LEAD_MS).toISOString();
    const scheduled = await fetch(`${e2e.shop.url}/api/admin/drops`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${e2e.shop.adminPassword}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({
        target: { kind: "pack", id: PACK.id },
        units: 1,
        opensAt,
        perPersonLimit: 1,
        holdMinutes: HOLD_MINUTES,
      }),
    });
    assert.equal(scheduled.status, 201, await scheduled.clone().text());
    const { id } = await scheduled.json() as { id: string };

    const shoppers = [await e2e.newPage(), await e2e.newPage()];
    const findings: string[] = [];
    for (const [n, { page }] of shoppers.entries()) {
      // The product page: the drop, its limit and hold, and the countdown on the server's clock.
      await page.goto(`/testers/${PACK.slug}`);
      const panel = page.getByTestId("drop-panel");
      await panel.getByText(`At most 1 per person`).waitFor();
      await panel.getByText(`${HOLD_MINUTES} minutes to check out`).waitFor();
      const clock = panel.locator(".drop-countdown-clock");
      const first = await clock.textContent();
      assert.match(first ?? "", /^0[01]:\d{2}$/, "about a minute to the opening");
      await page.waitForFunction(
        (before) => document.querySelector(".drop-countdown-clock")?.textContent !== before,
        first,
        { timeout: 3_000 },
      );
      // Checked while the minute runs anyway: the panel in one theme per shopper.
      findings.push(...await findingsIn(page, n === 0 ? "light" : "dark"));
      // The room is open two minutes before the opening: join it.
      await panel.getByRole("button", { name: "Join the waiting room" }).click();
      await page.waitForURL(`**/drops/${id}?target=pack-${PACK.id}`);
      await page.getByRole("heading", { level: 1, name: PACK.title }).waitFor();
      await place(page).getByText("You are in the waiting room").waitFor();
      await place(page).getByText(/random order at the opening/).waitFor();
    }

    // The place belongs to the shopper, not the tab: a reload finds it again.
    const [a, b] = shoppers.map((s) => s.page);
    await b.reload();
    await place(b).getByText("You are in the waiting room").waitFor();
    assert.equal(await b.getByRole("button", { name: "Join the waiting room" }).count(), 0);
    findings.push(...await findingsIn(a, "dark"), ...await findingsIn(b, "light"));
    assert.deepEqual(findings, []);

    // Meanwhile the owner watches it in the Catalogue tab, and schedules and calls off another.
    const { page: owner, problems: ownerProblems } = await e2e.newPage();
    await owner.goto("/admin");
    await owner.getByLabel("Enter admin password").fill(e2e.shop.adminPassword);
    await owner.getByLabel("Enter admin password").press("Enter");
    await owner.getByRole("tab", { name: "Catalogue" }).click();
    await owner.getByRole("tab", { name: "Drops" }).click();
    const card = owner.locator(`[data-drop="${id}"]`);
    await card.getByText("Waiting room open").waitFor();
    await owner.waitForFunction(
      (dropId) =>
        document.querySelector(`[data-drop="${dropId}"] [data-testid="drop-waiting"]`)
          ?.textContent === "2",
      id,
    );
    await owner.getByRole("button", { name: "Schedule a drop" }).click();
    const form = owner.getByRole("form", { name: "Schedule a drop" });
    await form.getByLabel("What kind").selectOption("item");
    await form.getByLabel("What it sells").selectOption({ label: ITEMS[0].name });
    await form.getByLabel("Units", { exact: true }).fill("1");
    await form.getByText(/^That is \d{4}-\d{2}-\d{2} \d{2}:00 UTC$/).waitFor();
    await form.getByRole("button", { name: "Schedule drop" }).click();
    const later = owner.locator("[data-drop]").filter({ hasText: ITEMS[0].name });
    await later.getByText("Scheduled").waitFor();
    // A shopper finds it on the item's card in the shop, a day ahead, and asks for the opening.
    const watcher = await e2e.newPage();
    await watcher.page.goto("/shop");
    const itemDrop = watcher.page.locator(`[data-product-id="${ITEMS[0].id}"]`)
      .getByTestId("drop-panel");
    await itemDrop.getByText(/Opens in 1 day|Opens in \d{2}:\d{2}:\d{2}/).waitFor();
    await itemDrop.getByRole("button", { name: /Email me when it opens/ }).click();
    await itemDrop.getByLabel("Your email").fill("watcher@example.com");
    await itemDrop.getByRole("button", { name: "Notify me" }).click();
    await itemDrop.getByText(/Check your inbox/).waitFor();
    shoppers.push(watcher);
    owner.once("dialog", (dialog) => dialog.accept());
    await later.getByRole("button", { name: /^Call off/ }).click();
    await later.getByText("Called off").waitFor();

    // At the opening the two are drawn in a random order: one is let in (one unit, one each).
    const wait = Date.parse(opensAt) - Date.now() + AFTER_OPENING_MS;
    const winner = await Promise.race([turnOf(a, wait), turnOf(b, wait)]);
    assert.ok(winner, "one shopper is let in after the opening");
    const other = winner === a ? b : a;
    await place(other).getByText("You are next in line").waitFor({ timeout: AFTER_OPENING_MS });
    await place(winner).getByText(/Start your checkout within/).waitFor();

    // The one let in adds the pack with the place and pays; the drop's hold is its own, shorter.
    await winner.getByRole("button", { name: "Add to cart and check out" }).click();
    await winner.waitForURL("**/cart");
    await winner.getByRole("button", { name: "Checkout (United States)" }).click();
    await winner.waitForURL(/\/demo-checkout\/cs_demo_/);
    const held = await holdSeconds(winner);
    assert.ok(held > 0 && held <= HOLD_MINUTES * 60, `the drop's hold: ${held} s`);
    await winner.getByLabel("Email").fill("first@example.com");
    await winner.getByLabel("Full name").fill("Ada Lovelace");
    await winner.getByLabel("Address", { exact: true }).fill("1 Analytical Way");
    await winner.getByLabel("City").fill("San Francisco");
    await winner.getByLabel("State").fill("CA");
    await winner.getByLabel("ZIP code").fill("94103");
    await winner.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
    await winner.getByRole("button", { name: "Pay now" }).click();
    await winner.waitForURL(/\/order\/track\/[A-Z0-9]+$/);

    // The other is told at once that nothing is left, and may ask to hear of a restock.
    await place(other).getByText("Sold out", { exact: true }).waitFor({
      timeout: AFTER_OPENING_MS,
    });
    await place(other).getByRole("button", { name: /Email me when it's back/ }).waitFor();

    // A waiting room's link naming a target without this drop says there is none.
    await other.goto(`/drops/${id}?target=item-${ITEMS[1].id}`);
    await other.getByRole("alert").filter({ hasText: "There is no drop here" }).waitFor();

    const view = await fetch(`${e2e.shop.url}/api/admin/drops/${id}`, {
      headers: { Authorization: `Bearer ${e2e.shop.adminPassword}` },
    });
    const figures = await view.json();
    assert.equal(figures.sold, 1, JSON.stringify(figures));
    assert.equal(figures.holding, 0);
    // The owner's live view followed it to the end, and reports it.
    await card.getByText("Sold out").waitFor();
    assert.equal(await card.getByTestId("drop-sold").textContent(), "1 of 1");
    await card.getByRole("region", { name: /^Report/ }).getByText(/Time to sell out: \d+ s/)
      .waitFor();
    for (const { problems } of [...shoppers, { problems: ownerProblems }]) {
      assert.deepEqual(problems.errors, []);
    }
  },
);
