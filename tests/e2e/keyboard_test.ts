/**
 * Keyboard use without getting lost, with the keyboard only: focus stays on a pressed Add to
 * Cart, the phone menu closes on Escape (focus back on its button) and on scroll, a route change
 * moves focus to the new page's heading and announces its title, the cart link says its count,
 * what is focused is never under the sticky header, and admin charts are not Tab stops. An axe
 * check follows each state change.
 */
import assert from "node:assert/strict";
import { axeFindings } from "./helpers/axe.ts";
import type { Page } from "playwright-core";
import { e2eTest } from "./helpers/e2e.ts";
import { waitForBadge } from "./helpers/browser.ts";
import { postOk } from "./helpers/api.ts";
import { TIMINGS } from "../../shared/policy.ts";

/** How long the pack page's "View Cart" toast shows (cart_toasts.tsx: twice the default). */
const TOAST_MS = TIMINGS.toastMs * 2;

async function axe(page: Page, when: string): Promise<void> {
  // Not waiting for quiet: some checks are of a toast the keyboard's focus holds open.
  assert.deepEqual(await axeFindings(page, { quiet: false }), [], when);
}

/** What has the focus: its tag, its accessible-ish name, and whether it is the page body. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase() ?? "",
      text: (el?.getAttribute("aria-label") ?? el?.textContent ?? "").trim(),
      body: el === document.body || el === null,
    };
  });
}

/** Tabs forward until the focused element's text matches (a bounded number of presses). */
async function tabTo(page: Page, text: RegExp, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (text.test((await focused(page)).text)) return;
  }
  throw new Error(`no focusable element matching ${text} within ${max} Tabs`);
}

e2eTest(
  "keyboard: Add to Cart keeps the focus, the cart link says its count, a route change lands on the heading",
  async (e2e) => {
    const { page } = await e2e.newPage();
    await page.goto("/shop");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.waitForLoadState("networkidle");
    await tabTo(page, /^Add to Cart$/);
    await page.keyboard.press("Enter");
    await waitForBadge(page, 1);
    const after = await focused(page);
    assert.equal(after.body, false, "focus did not fall to the page");
    assert.equal(after.tag, "button");
    // The toast's link to the cart is offered beside the button too, where the focus is.
    await page.getByRole("link", { name: "See your cart" }).waitFor();
    await page.keyboard.press("Tab");
    assert.equal((await focused(page)).text, "See your cart");
    await axe(page, "after Add to Cart");
    assert.equal(
      await page.getByRole("link", { name: "Cart, 1 item" }).count(),
      1,
      "the cart link's name holds the count",
    );

    // Follow the cart link by keyboard: focus lands on the cart page's heading, its title is said.
    await page.getByRole("link", { name: "Cart, 1 item" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL("**/cart");
    await page.waitForFunction(() => document.activeElement?.tagName === "H1");
    // The add's toast has had its time; axe then sees the page as the shopper does.
    await page.getByRole("status").filter({ hasText: "Added to cart" }).waitFor({
      state: "hidden",
    });
    const title = await page.title();
    await page.getByTestId("announcer-polite").getByText(title).waitFor({ state: "attached" });
    await axe(page, "after the route change");

    // Cart + pressed twice with Enter: the button keeps the focus while the change is saved.
    const plus = page.getByRole("button", { name: /^Increase / });
    await plus.focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.getByTestId("line-quantity").filter({ hasNotText: /^1$/ }).waitFor();
    const still = await focused(page);
    assert.equal(still.body, false, "focus did not fall to the page");
    assert.match(still.text, /^Increase /);
    await axe(page, "after changing the quantity");
  },
);

e2eTest(
  "keyboard: the phone menu closes on Escape (focus back on its button) and on scroll",
  async (e2e) => {
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 740 } });
    await page.goto("/shop");
    await page.getByRole("heading", { level: 1 }).waitFor();
    // The cart is in the top bar on a phone.
    assert.ok(await page.getByRole("link", { name: /^Cart/ }).isVisible());
    const menu = page.getByRole("button", { name: "Open menu" });
    await menu.focus();
    await page.keyboard.press("Enter");
    const shop = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Shop" });
    await shop.waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent === "Home");
    assert.equal((await focused(page)).text, "Home", "opening moves the focus into the menu");
    await axe(page, "menu open");
    await page.keyboard.press("Escape");
    await shop.waitFor({ state: "hidden" });
    assert.equal((await focused(page)).text, "Open menu", "focus back on the menu button");

    await page.keyboard.press("Enter");
    await shop.waitFor();
    await page.mouse.wheel(0, 600);
    await shop.waitFor({ state: "hidden" });
  },
);

e2eTest(
  "keyboard: tabbing backwards never leaves the focus under the sticky header",
  async (e2e) => {
    const { page } = await e2e.newPage({ viewport: { width: 1024, height: 700 } });
    await page.goto("/testers/custom");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.waitForLoadState("networkidle");
    // Deep into the page, then back: each focused element's top is below the header's bottom.
    for (let i = 0; i < 30; i++) await page.keyboard.press("Tab");
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Shift+Tab");
      const hidden = await page.evaluate(() => {
        const header = document.querySelector(".site-header")!.getBoundingClientRect();
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body || header.bottom <= 0) return false;
        if (el.closest(".site-header")) return false;
        const rect = el.getBoundingClientRect();
        return rect.bottom > 0 && rect.top < header.bottom;
      });
      assert.equal(hidden, false, `Shift+Tab ${i + 1}: the focused element is under the header`);
    }
  },
);

e2eTest("keyboard: the admin's charts are not Tab stops", async (e2e) => {
  const { shop } = e2e;
  const { page } = await e2e.newPage();
  await page.goto("/admin");
  await page.getByLabel("Enter admin password").fill(shop.adminPassword);
  await page.getByLabel("Enter admin password").press("Enter");
  await page.getByRole("tab", { name: "Inventory" }).click();
  await page.locator(".admin-pie-chart svg").first().waitFor();
  // The bar chart's scroll box is the one stop (a named region the arrow keys scroll,
  // focus_test.ts); nothing inside a chart is.
  const stops = await page.evaluate(() =>
    [...document.querySelectorAll(".admin-chart, .admin-sales-chart")]
      .flatMap((el) => [el, ...el.querySelectorAll("*")])
      .filter((el) => (el as HTMLElement).tabIndex >= 0).length
  );
  assert.equal(stops, 0);
  await axe(page, "inventory tab");
});

e2eTest(
  "keyboard: the carousel's last Next and a removed chip keep the focus on the page",
  async (e2e) => {
    const { page } = await e2e.newPage();
    await page.goto("/");
    const next = page.getByRole("button", { name: "Next testers" });
    await next.focus();
    for (let i = 0; i < 10; i++) await page.keyboard.press("Enter");
    assert.equal(await next.getAttribute("aria-disabled"), "true", "at the last page");
    assert.equal((await focused(page)).text, "Next testers", "the focus stayed on Next");
    await axe(page, "carousel at its end");

    await page.goto("/testers/custom");
    const cards = page.locator('button[data-testid^="switch-"]:not([aria-disabled="true"])');
    await cards.first().waitFor();
    for (let i = 0; i < 3; i++) {
      await cards.nth(i).focus();
      await page.keyboard.press("Enter");
    }
    const removes = page.getByRole("list", { name: "Your switches" }).getByRole("button");
    assert.equal(await removes.count(), 3);
    const second = await removes.nth(1).getAttribute("aria-label");
    await removes.first().focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      (label) => document.activeElement?.getAttribute("aria-label") === label,
      second,
    );
    assert.equal(await removes.count(), 2);
    await axe(page, "after removing a chip");
  },
);

e2eTest(
  "keyboard: a declined card on the payment page puts the focus back on the card field",
  async (e2e) => {
    const { shop } = e2e;
    const { id: cartId } = await postOk(shop.url, "/api/cart/add?itemId=384&quantity=1");
    const { url } = await postOk(shop.url, `/api/cart/${cartId}/checkout/us`);
    const { page } = await e2e.newPage({ allow: [/402|400|declined/i] });
    await page.goto(url);
    const card = page.getByLabel("Card number");
    await card.waitFor();
    await card.fill("4000 0000 0000 0002");
    for (const [label, value] of [["Email", "kim@example.com"], ["Name", "Kim Lee"]]) {
      const field = page.getByLabel(label, { exact: true });
      if (await field.count()) await field.fill(value);
    }
    await card.press("Enter");
    await page.getByRole("alert").filter({ hasText: /declined|address|required|enter/i }).first()
      .waitFor();
    // The focus is on the field in error (the card, or a detail the page still needs).
    await page.waitForFunction(() =>
      document.activeElement?.tagName === "INPUT" &&
      document.activeElement.getAttribute("aria-invalid") === "true"
    );
    await axe(page, "after a declined card");
  },
);

/** Types into a field reached with the keyboard: focused, then typed, as Tab and keys would. */
async function typeInto(page: Page, label: string, text: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).focus();
  await page.keyboard.type(text);
}

e2eTest("keyboard: a whole purchase, shop to cart to the payment page to tracking", async (e2e) => {
  const { page } = await e2e.newPage();
  await page.goto("/shop");
  await page.getByRole("heading", { level: 1 }).waitFor();
  await page.waitForLoadState("networkidle");
  await tabTo(page, /^Add to Cart$/);
  await page.keyboard.press("Enter");
  await waitForBadge(page, 1);
  await page.getByRole("link", { name: "See your cart" }).waitFor();
  await tabTo(page, /^See your cart$/, 3);
  await page.keyboard.press("Enter");
  await page.waitForURL("**/cart");
  await axe(page, "the cart");
  await tabTo(page, /^Checkout \(United States\)$/);
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/demo-checkout\/cs_demo_/);
  await page.getByTestId("demo-line").first().waitFor();
  await axe(page, "the payment page");
  for (
    const [label, text] of [
      ["Email", "kay@example.com"],
      ["Full name", "Kay Board"],
      ["Address", "3 Keyboard Lane"],
      ["City", "Austin"],
      ["State", "TX"],
      ["ZIP code", "73301"],
      ["Card number", "4242424242424242"],
    ]
  ) await typeInto(page, label, text);
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/order\/track\/[A-Z0-9]+$/);
  await page.getByRole("heading", { level: 1, name: "Thank you for your order!" }).waitFor();
  await axe(page, "the tracking page");
});

e2eTest("keyboard: a custom tester built and added with the keyboard", async (e2e) => {
  const { page } = await e2e.newPage();
  await page.goto("/testers/custom");
  await page.getByRole("heading", { level: 1 }).waitFor();
  await page.locator('button[data-testid^="switch-"]').first().waitFor();
  await tabTo(page, /^Fill the rest$/, 200);
  await page.keyboard.press("Enter");
  await page.getByTestId("fill-rest-note").getByText(/^Added 10 switches/).waitFor();
  await axe(page, "after fill the rest");
  // The summary with its Add to Cart comes before the switch grid: back up to it.
  for (let i = 0; i < 60 && (await focused(page)).text !== "Add to Cart"; i++) {
    await page.keyboard.press("Shift+Tab");
  }
  assert.equal((await focused(page)).text, "Add to Cart");
  await page.keyboard.press("Enter");
  await waitForBadge(page, 1);
  assert.equal((await focused(page)).body, false);
});

e2eTest(
  "keyboard: a toast holds while its link has the focus; the menu closes when Tab leaves it",
  async (e2e) => {
    const { page } = await e2e.newPage();
    // The page's own clock, moved by the test: the toast's seconds pass at once, not in real time.
    await page.clock.install();
    await page.goto("/testers/starter-pack");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.waitForLoadState("networkidle");
    await tabTo(page, /^Add to Cart$/);
    // From here only runFor moves the page's time, so a slow machine cannot end the toast early.
    await page.clock.pauseAt(await page.evaluate(() => Date.now()) + 1000);
    await page.keyboard.press("Enter");
    const link = page.getByRole("link", { name: "View Cart" });
    await link.waitFor();
    await link.focus();
    // Twice the toast's own time (4 s): it is still there while focused.
    await page.clock.runFor(TOAST_MS * 2);
    assert.ok(await link.isVisible(), "the toast waits for the keyboard user");
    // The focus moves on (back to the Add button): the toast then goes in its own time, and not
    // before it.
    await page.getByRole("button", { name: "Add to Cart" }).focus();
    await page.clock.runFor(TOAST_MS - 500);
    assert.ok(await link.isVisible(), "the toast keeps its own time once the focus leaves");
    // Its own time, then react-hot-toast's second to take it off the page.
    await page.clock.runFor(500 + 1000);
    await page.clock.resume();
    await link.waitFor({ state: "detached", timeout: 10_000 });

    const phone = await e2e.newPage({ viewport: { width: 390, height: 740 } });
    await phone.page.goto("/shop");
    await phone.page.getByRole("heading", { level: 1 }).waitFor();
    await phone.page.getByRole("button", { name: "Open menu" }).focus();
    await phone.page.keyboard.press("Enter");
    const nav = phone.page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Shop" }).waitFor();
    for (let i = 0; i < 12 && await nav.getByRole("link", { name: "Shop" }).isVisible(); i++) {
      await phone.page.keyboard.press("Tab");
    }
    assert.equal(
      await nav.getByRole("link", { name: "Shop" }).isVisible(),
      false,
      "leaving the menu by Tab closes it",
    );
  },
);
