/**
 * What a screen reader hears: every toast's text reaches the live regions the server rendered
 * (a region inserted together with its text is not spoken by NVDA or JAWS), errors that belong to
 * a field mark it invalid and describe it, the empty /checkout form tabbed through raises no
 * alert, a total that changes is said once, controls have names that read right, the carousel
 * speaks on a button press and not on every Tab, and the configurators have a way around their
 * switch list.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { e2eTest } from "./helpers/e2e.ts";
import { expectToast, settle, waitForBadge } from "./helpers/browser.ts";
import { austinBuyer, paidOrder, postOk } from "./helpers/api.ts";

/** The Starter Pack: in stock in the seeded catalogue. */
const STARTER_PACK_ID = 384;

/**
 * Before any script of the page runs (readyState "interactive": parsed, modules not yet run),
 * notes the live regions the server's HTML holds, then records every text they come to hold.
 * `window.__heard` is what a screen reader would have been told, with the region's politeness.
 */
async function listenToFirstPaintRegions(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = globalThis as unknown as {
      __regions: Element[];
      __heard: { live: string; text: string }[];
    };
    w.__regions = [];
    w.__heard = [];
    document.addEventListener("readystatechange", () => {
      if (document.readyState !== "interactive") return;
      w.__regions = [...document.querySelectorAll("[aria-live], [role=status], [role=alert]")]
        .filter((el) => el.getAttribute("aria-live") !== "off");
      for (const region of w.__regions) {
        const live = region.getAttribute("aria-live") ??
          (region.getAttribute("role") === "alert" ? "assertive" : "polite");
        new MutationObserver(() => {
          const text = (region.textContent ?? "").trim();
          if (text) w.__heard.push({ live, text });
        }).observe(region, { childList: true, subtree: true, characterData: true });
      }
    });
  });
}

/** What the first paint's regions were told so far; fails if one of them has left the page. */
async function heard(page: Page): Promise<{ live: string; text: string }[]> {
  await settle(page);
  return await page.evaluate(() => {
    const w = globalThis as unknown as {
      __regions: Element[];
      __heard: { live: string; text: string }[];
    };
    if (w.__regions.length === 0) throw new Error("no live region in the server's HTML");
    for (const region of w.__regions) {
      if (!document.contains(region)) throw new Error("a first-paint live region was replaced");
    }
    return w.__heard;
  });
}

/** Waits until a first-paint region has been told `text` (politeness given: that region's). */
async function waitToHear(page: Page, text: string, live?: "polite" | "assertive") {
  for (let i = 0; i < 100; i++) {
    const all = await heard(page);
    if (all.some((h) => h.text.includes(text) && (!live || h.live === live))) return;
    await page.waitForTimeout(50);
  }
  assert.fail(`never heard ${live ?? ""} "${text}"; heard: ${JSON.stringify(await heard(page))}`);
}

/** The ids an element's aria-describedby lists, as their texts. */
function descriptions(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluate((el) =>
    (el.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? `(missing #${id})`)
  );
}

/** Names Chromium's accessibility tree gives to nodes of a role (what a screen reader reads). */
async function chromiumNames(page: Page, role: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send("Accessibility.getFullAXTree") as {
      nodes: { ignored: boolean; role?: { value: string }; name?: { value: string } }[];
    };
    return nodes.filter((n) => !n.ignored && n.role?.value === role)
      .map((n) => String(n.name?.value ?? ""));
  } finally {
    await cdp.detach();
  }
}

e2eTest(
  "announcer: toasts are spoken by the first paint's live region; field errors mark their field",
  async (e2e) => {
    const { shop } = e2e;
    const { page } = await e2e.newPage({
      allow: [/401.*\/auth\/login/, /401.*\/api\/admin\/verify/, /401.*\/api\/admin\/session/],
    });
    await listenToFirstPaintRegions(page);

    // The server's HTML carries the empty regions (a script-less page too).
    const html = await (await fetch(`${shop.url}/contact`)).text();
    assert.match(html, /data-testid="announcer-polite"[^>]*>\s*<\/div>/);
    assert.match(html, /data-testid="announcer-assertive"[^>]*>\s*<\/div>/);

    // A failed sign-in: both fields marked invalid, described by the message beside them, and
    // the toast's words spoken at once.
    await page.goto("/login");
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByLabel("Password", { exact: true }).fill("Wrong-password-1");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectToast(page, "Invalid email or password");
    await waitToHear(page, "Invalid email or password", "assertive");
    for (const id of ["#login-email", "#login-password"]) {
      assert.equal(await page.locator(id).getAttribute("aria-invalid"), "true", id);
      assert.ok(
        (await descriptions(page, id)).includes("Invalid email or password"),
        `${id} is described by the message`,
      );
    }
    assert.ok(await page.getByText("Invalid email or password").first().isVisible());
    // Fixing a field clears the mark.
    await page.getByLabel("Password", { exact: true }).fill("Another-password-2");
    assert.equal(await page.locator("#login-password").getAttribute("aria-invalid"), null);

    // The contact form says which fields are required, in words and to assistive technology.
    await page.goto("/contact");
    const subject = page.getByLabel("Subject (required)", { exact: true });
    const message = page.getByLabel("Message (required)", { exact: true });
    assert.equal(await subject.getAttribute("required"), "");
    assert.equal(await message.getAttribute("required"), "");
    assert.ok(await page.getByText("(required)").first().isVisible());
    await subject.fill("A question");
    await message.fill("Do you ship to Canada?");
    await page.getByRole("button", { name: "Send message" }).click();
    await expectToast(page, "Message sent successfully!");
    await waitToHear(page, "Message sent successfully!", "polite");

    // The switch limit on the fidget cube: fill the six, then a seventh.
    await page.goto("/testers/fidget-cube");
    await page.getByRole("button", { name: "Fill the rest" }).click();
    await page.getByTestId("selection-count").getByText("Selected 6 / 6").waitFor();
    await page.locator(".switch-card[aria-pressed=false]:not([aria-disabled])").first().click();
    await expectToast(page, "You can only select 6 switches for the Fidget Cube.");
    await waitToHear(page, "You can only select 6 switches for the Fidget Cube.", "assertive");

    // The admin: a wrong password marks the field, then the result of signing in is spoken.
    await page.goto("/admin");
    const password = page.getByLabel("Enter admin password");
    await password.fill("not-the-password");
    await password.press("Enter");
    await expectToast(page, "Invalid password");
    await waitToHear(page, "Invalid password", "assertive");
    assert.equal(await password.getAttribute("aria-invalid"), "true");
    assert.deepEqual(await descriptions(page, "#admin-password"), ["Invalid password"]);
    await password.fill(shop.adminPassword);
    await password.press("Enter");
    await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();
    await waitToHear(page, "Admin access granted", "polite");
    // The toasts' own regions are silent: each toast is said once, by the announcer.
    assert.equal(await page.locator("[role=status][aria-live=polite]").count(), 0);
  },
);

e2eTest(
  "announcer: a quiet checkout form, totals said once, names that read right, ways around lists",
  async (e2e) => {
    const { shop } = e2e;
    const orderNumber = await paidOrder(
      shop.url,
      austinBuyer("names@example.com", "Nia Names", "2 Elm Street"),
      STARTER_PACK_ID,
    );
    const { id: cartId } = await postOk(
      shop.url,
      `/api/cart/add?itemId=${STARTER_PACK_ID}&quantity=1`,
    );
    const { page } = await e2e.newPage();
    await listenToFirstPaintRegions(page);

    // The carousel speaks when a button moves it, not when Tab walks onto a card out of view.
    await page.goto("/");
    const carousel = page.locator(".carousel");
    await carousel.locator(".carousel-slide a").first().focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press("Tab");
    assert.deepEqual(
      (await heard(page)).filter((h) => /Showing testers/.test(h.text)),
      [],
      "nothing said while tabbing through the cards",
    );
    await page.getByRole("button", { name: "Previous testers" }).click();
    await waitToHear(page, "Showing testers", "polite");

    // The cart: the subtotal that changes with a quantity is said.
    await page.evaluate((id) => localStorage.setItem("cartId", id), cartId);
    await page.goto("/cart");
    await waitForBadge(page, 1);
    await page.getByRole("button", { name: "Increase Starter Pack" }).click();
    await waitForBadge(page, 2);
    await waitToHear(page, "Subtotal $19.98", "polite");
    const subtotalSaid = (await heard(page)).filter((h) => h.text.includes("Subtotal $19.98"));
    assert.equal(subtotalSaid.length, 1, "said once");

    // /checkout: tabbing through the empty form shows each message by its field, with no alert.
    await page.goto("/checkout");
    const email = page.locator("#checkout-email");
    await email.focus();
    for (let i = 0; i < 7; i++) await page.keyboard.press("Tab");
    await page.locator("#checkout-firstName[aria-invalid=true]").waitFor({ state: "attached" });
    assert.equal(await page.getByRole("alert").count(), 0, "no alert while tabbing");
    assert.deepEqual(
      (await heard(page)).filter((h) => h.live === "assertive"),
      [],
      "nothing assertive while tabbing",
    );
    for (const name of ["email", "firstName", "lastName", "address", "city"]) {
      const field = `#checkout-${name}`;
      assert.equal(await page.locator(field).getAttribute("aria-invalid"), "true", field);
      assert.ok((await descriptions(page, field)).some((d) => d.length > 0), field);
    }
    // Optional fields' names are spaced as they read.
    await page.getByLabel("State (optional)", { exact: true }).waitFor();
    await page.getByLabel("Apartment, suite, etc. (optional)", { exact: true }).waitFor();

    // The configurator's brand filter: its name reads "Brands (all)"; the switch list can be
    // skipped, and from after it the options and Add to Cart are one key away.
    await page.goto("/testers/custom");
    await page.getByTestId("result-count").waitFor();
    assert.ok(
      (await chromiumNames(page, "DisclosureTriangle")).includes("Brands (all)"),
      `brand filter names: ${await chromiumNames(page, "DisclosureTriangle")}`,
    );
    const firstCard = page.locator(".switch-card").first();
    await firstCard.focus();
    await page.keyboard.press("Shift+Tab");
    const skip = page.getByRole("link", { name: "Skip the switch list" });
    assert.equal(await skip.evaluate((el) => el === document.activeElement), true);
    await page.keyboard.press("Enter");
    const back = page.getByRole("link", { name: "Back to Add to Cart" });
    await page.waitForFunction(() => document.activeElement?.textContent === "Back to the options");
    await page.keyboard.press("Tab");
    assert.equal(await back.evaluate((el) => el === document.activeElement), true);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      document.activeElement?.classList.contains("configurator-add") ?? false
    );
    await page.getByRole("link", { name: "Back to the options" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      document.activeElement?.closest(".configurator-aside") !== null &&
      document.activeElement?.tagName === "INPUT"
    );

    // The admin's row buttons name their order; the visible words stay short.
    await page.goto("/admin");
    const password = page.getByLabel("Enter admin password");
    await password.fill(shop.adminPassword);
    await password.press("Enter");
    const row = page.getByTestId("new-orders").locator(`[data-order="${orderNumber}"]`);
    await row.waitFor();
    await row.getByRole("button", { name: `Show Details of order ${orderNumber}`, exact: true })
      .waitFor();
    await row.getByRole("button", {
      name: `Add tracking number to order ${orderNumber}`,
      exact: true,
    })
      .waitFor();
  },
);
