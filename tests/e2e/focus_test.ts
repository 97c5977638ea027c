/**
 * Focus a keyboard user can see and never loses, with the keyboard only: a focused switch card
 * shows its whole ring in both themes; removing cart lines, a refused checkout, /checkout's Try
 * again, signing out on the home page, the admin's log-in and log-out, and the admin's busy
 * buttons (Test Ping, Remove upload, Reload after a stale save, Retire) each leave the focus
 * where a user expects it, never on the page body; the inventory chart's scroll box is a Tab stop
 * with a name. Also two small traps: the brand filter starts with no brand ticked (all brands
 * shown) and ticking one narrows the grid to it; on a phone the cart stays in the top bar beside
 * the menu.
 */
import assert from "node:assert/strict";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { e2eTest } from "./helpers/e2e.ts";
import { postOk, setSwitchStock } from "./helpers/api.ts";
import { waitForBadge } from "./helpers/browser.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { pngFile } from "../helpers/image_files.ts";

/** What has the focus, as a test asserts it. */
interface Focused {
  body: boolean;
  tag: string;
  label: string;
}

function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      body: el === null || el === document.body,
      tag: el?.tagName.toLowerCase() ?? "",
      label: el === document.body
        ? ""
        : (el?.getAttribute("aria-label") ?? el?.textContent ?? "").trim().slice(0, 80),
    };
  });
}

/** Waits until the focus is on an element matching `selector` and `label`, or fails saying where it is. */
async function focusLandsOn(page: Page, selector: string, label: RegExp, what: string) {
  try {
    await page.waitForFunction(
      ({ selector, source }) => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body || !el.matches(selector)) return false;
        const text = (el.getAttribute("aria-label") ?? el.textContent ?? "").trim();
        return new RegExp(source).test(text);
      },
      { selector, source: label.source },
      { timeout: 5000 },
    );
  } catch {
    assert.fail(`${what}: the focus is on ${JSON.stringify(await focused(page))}`);
  }
}

/** The accessibility tree's node of the focused element (the browser's own role and name). */
async function focusedNode(page: Page): Promise<{ role: string; name: string }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = await cdp.send("Runtime.evaluate", { expression: "document.activeElement" });
    const { nodes } = await cdp.send("Accessibility.getPartialAXTree", {
      objectId: result.objectId,
      fetchRelatives: false,
    });
    const node = nodes[0];
    return { role: String(node?.role?.value ?? ""), name: String(node?.name?.value ?? "") };
  } finally {
    await cdp.detach();
  }
}

/** Presses Tab until a switch card has the focus (bounded), as a keyboard user reaches one. */
async function tabToCard(page: Page): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => document.activeElement?.matches(".switch-card"))) return;
  }
  assert.fail("no switch card within 40 Tabs of the search box");
}

/**
 * Which sides of an element show the focus colour in a screenshot of it and 6 px around: for
 * the middle half of each side (the corners left out, where a clipped ring still shows), the
 * share of positions where a pixel within 8 px of the edge, inside or out, is the focus colour.
 */
async function ringCoverage(
  context: BrowserContext,
  page: Page,
  target: Locator,
): Promise<Record<"top" | "right" | "bottom" | "left", number>> {
  const box = await target.boundingBox();
  assert.ok(box, "the element is shown");
  const pad = 6;
  const png = await page.screenshot({
    clip: {
      x: box.x - pad,
      y: box.y - pad,
      width: box.width + 2 * pad,
      height: box.height + 2 * pad,
    },
  });
  const focus = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue("--focus").trim()
  );
  // Decoded on a blank page of the same browser: a canvas reads the screenshot's pixels.
  const scratch = await context.newPage();
  try {
    return await scratch.evaluate(async ({ b64, focus, pad }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = img.width;
      canvas.height = img.height;
      const g = canvas.getContext("2d")!;
      g.drawImage(img, 0, 0);
      const { data, width, height } = g.getImageData(0, 0, img.width, img.height);
      const hex = focus.replace("#", "");
      const want = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
      const isFocus = (x: number, y: number) => {
        const at = (y * width + x) * 4;
        return want.every((c, i) => Math.abs(data[at + i] - c) <= 40);
      };
      const band = pad + 8;
      const share = (positions: number[], hit: (p: number) => boolean) =>
        positions.filter(hit).length / positions.length;
      const span = (from: number, to: number) => {
        const out: number[] = [];
        for (let p = Math.round(from); p < Math.round(to); p++) out.push(p);
        return out;
      };
      const across = span(width * 0.25, width * 0.75);
      const down = span(height * 0.25, height * 0.75);
      const anyIn = (from: number, to: number, test: (d: number) => boolean) => {
        for (let d = from; d < to; d++) if (test(d)) return true;
        return false;
      };
      return {
        top: share(across, (x) => anyIn(0, band, (y) => isFocus(x, y))),
        bottom: share(across, (x) => anyIn(height - band, height, (y) => isFocus(x, y))),
        left: share(down, (y) => anyIn(0, band, (x) => isFocus(x, y))),
        right: share(down, (y) => anyIn(width - band, width, (x) => isFocus(x, y))),
      };
    }, { b64: png.toString("base64"), focus, pad });
  } finally {
    await scratch.close();
  }
}

e2eTest(
  "focus: a switch card's ring is whole in both themes; no brand starts ticked and one ticked narrows the grid",
  async (e2e) => {
    const { page, context, problems } = await e2e.newPage();
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto("/testers/custom");
      await page.locator(".switch-card").first().waitFor();
      await page.getByLabel("Search switches").focus();
      await tabToCard(page);
      const card = page.locator(".switch-card:focus");
      const sides = await ringCoverage(context, page, card);
      for (const [side, share] of Object.entries(sides)) {
        assert.ok(share > 0.9, `${theme}: the ring shows on ${share * 100}% of the ${side} side`);
      }
    }

    // Brands: none ticked to begin with, and the summary says every brand is shown.
    await page.locator(".brand-filter summary").click();
    const brandBoxes = page.locator(".brand-filter input[type=checkbox]");
    assert.ok(await brandBoxes.count() > 10);
    assert.equal(await page.locator(".brand-filter input:checked").count(), 0, "none ticked");
    assert.match(await page.locator(".brand-filter summary").innerText(), /\(all\)/);
    const count = page.getByTestId("result-count");
    assert.equal(
      await count.textContent(),
      `Showing ${SWITCHES.length} of ${SWITCHES.length} switches`,
    );
    // Ticking one brand (with the keyboard) shows that brand's switches only.
    const kailh = SWITCHES.filter((s) => s.brand.split(" x ").includes("Kailh"));
    await page.getByRole("checkbox", { name: "Kailh", exact: true }).focus();
    await page.keyboard.press("Space");
    assert.equal(
      await count.textContent(),
      `Showing ${kailh.length} of ${SWITCHES.length} switches`,
    );
    assert.match(await page.locator(".brand-filter summary").innerText(), /1 of \d+/);
    // Unticking it again is every brand once more.
    await page.keyboard.press("Space");
    assert.equal(
      await count.textContent(),
      `Showing ${SWITCHES.length} of ${SWITCHES.length} switches`,
    );
    assert.deepEqual(problems.errors, []);
  },
);

e2eTest(
  "focus: removing cart lines moves it to the next line, then the heading; a refused checkout keeps it on its button; /checkout's Try again hands it to Payment",
  async (e2e) => {
    const { shop } = e2e;
    const { id: cartId } = await postOk(shop.url, "/api/cart/add?itemId=384&quantity=1");
    await postOk(shop.url, `/api/cart/add?itemId=1&quantity=1&cartId=${cartId}`);
    await postOk(shop.url, `/api/cart/add?itemId=2&quantity=1&cartId=${cartId}`);
    const { page, problems } = await e2e.newPage({
      allow: [/409/, /checkout\/us/, /orders\/create/],
      storage: { cartId },
    });
    await page.goto("/cart");
    const lines = page.getByTestId("cart-line");
    await lines.nth(2).waitFor();
    const names = await lines.locator("h2").allTextContents();

    // The middle line goes: the focus moves to the line that took its place.
    await page.getByRole("button", { name: `Remove ${names[1]}` }).focus();
    await page.keyboard.press("Enter");
    await focusLandsOn(page, "button", new RegExp(`^Remove ${names[2]}$`), "after the middle line");
    assert.equal(await lines.count(), 2);
    // The last line goes: the focus moves to the line before it.
    await page.keyboard.press("Enter");
    await focusLandsOn(page, "button", new RegExp(`^Remove ${names[0]}$`), "after the last line");
    assert.equal(await lines.count(), 1);

    // The pack's first switch runs out: Checkout is refused, and the focus stays on its button.
    const starter = PACKS.find((p) => p.id === 384)!;
    await setSwitchStock(shop, starter.switchIds[0], 0);
    await page.reload();
    await lines.first().waitFor();
    const checkout = page.getByRole("button", { name: "Checkout (United States)" });
    await checkout.focus();
    const refused = page.waitForResponse((r) => r.url().endsWith("/checkout/us"));
    await page.keyboard.press("Enter");
    assert.equal((await refused).status(), 409);
    await focusLandsOn(page, "button", /^Checkout \(United States\)$/, "after a refused checkout");
    assert.ok(await checkout.isEnabled(), "usable again");

    // On /checkout the order is refused too; its Try again goes while the payment is prepared
    // again, and the focus moves to the Payment heading.
    await page.goto("/checkout");
    for (
      const [label, text] of [
        ["Email", "kay@example.com"],
        ["First name", "Kay"],
        ["Last name", "Board"],
        ["Address", "3 Keyboard Lane"],
        ["City", "Austin"],
        ["State", "TX"],
        ["ZIP code", "73301"],
      ]
    ) await page.getByLabel(label, { exact: label === "Address" }).fill(text);
    await page.getByLabel("I agree to the terms of service").check();
    const again = page.getByRole("button", { name: "Try again" });
    await again.focus();
    await page.keyboard.press("Enter");
    await focusLandsOn(page, "h2", /^Payment$/, "after Try again on /checkout");

    // The only line goes: the focus moves to the cart's heading.
    await page.goto("/cart");
    await lines.first().waitFor();
    await page.getByRole("button", { name: `Remove ${names[0]}` }).focus();
    await page.keyboard.press("Enter");
    await focusLandsOn(page, "h1", /^Cart$/, "after the only line");
    await page.getByText("Nothing here yet!").waitFor();
    await waitForBadge(page, null);
    assert.deepEqual(problems.errors, []);
  },
);

e2eTest(
  "focus: signing out on the home page moves it to Sign in; on a phone the cart stays beside the menu",
  async (e2e) => {
    const { shop } = e2e;
    const email = `focus-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const password = "Switches4ever";
    const registered = await fetch(`${shop.url}/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    assert.equal(registered.status, 201, await registered.text());
    const { page, problems } = await e2e.newPage();
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Password", { exact: true }).press("Enter");
    await page.waitForURL((url) => url.pathname === "/");
    // Signing in is a route change: the focus first lands on the home page's heading.
    await focusLandsOn(page, "h1", /./, "after signing in");
    const signOut = page.getByRole("button", { name: `Sign out (${email})` });
    await signOut.focus();
    await page.keyboard.press("Enter");
    await focusLandsOn(page, "a", /^Sign in$/, "after signing out on /");
    assert.equal(new URL(page.url()).pathname, "/");
    assert.deepEqual(problems.errors, []);

    // On a phone the cart is in the top bar, with its count, not in the folded menu: it stays in
    // view beside the open menu, and Tab reaches it just before the menu's button.
    const { id: cartId } = await postOk(shop.url, "/api/cart/add?itemId=1&quantity=2");
    const phone = await e2e.newPage({ viewport: { width: 390, height: 740 }, storage: { cartId } });
    await phone.page.goto("/shop");
    await waitForBadge(phone.page, 2);
    const menuButton = phone.page.getByRole("button", { name: "Open menu" });
    await menuButton.focus();
    await phone.page.keyboard.press("Enter");
    const nav = phone.page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Shop" }).waitFor();
    const cart = phone.page.getByRole("link", { name: "Cart, 2 items" });
    assert.equal(await cart.count(), 1, "one cart link is shown, named with its count");
    assert.ok(await cart.isVisible(), "the cart stays in view while the menu is open");
    const cartBox = (await cart.boundingBox())!;
    const navBox = (await nav.boundingBox())!;
    assert.ok(cartBox.y + cartBox.height <= navBox.y, "the open menu does not cover the cart");
    await phone.page.keyboard.press("Escape");
    await phone.page.keyboard.press("Shift+Tab");
    await phone.page.keyboard.press("Shift+Tab");
    assert.equal((await focused(phone.page)).label, "Cart, 2 items", "the cart is met by Tab");
    assert.deepEqual(phone.problems.errors, []);
  },
);

e2eTest(
  "focus: admin log-in and log-out land on the new heading; busy admin buttons keep it; the stock chart's scroll box has a name",
  async (e2e) => {
    const { shop } = e2e;
    const { page, problems } = await e2e.newPage({ allow: [/409.*\/api\/admin\/catalog/] });
    await page.goto("/admin");
    const password = page.getByLabel("Enter admin password");
    await password.focus();
    await page.keyboard.type(shop.adminPassword);
    await page.keyboard.press("Enter");
    await focusLandsOn(page, "h1", /^Admin Dashboard$/, "after admin log-in");

    // The inventory tab, by keyboard: every Tab stop up to the chart's scroll box has a name,
    // the box among them, and the arrow keys scroll it.
    await page.getByRole("tab", { name: "Inventory" }).focus();
    await page.keyboard.press("Enter");
    await page.locator(".admin-bar-scroll svg").first().waitFor();
    let reached = false;
    for (let i = 0; i < 6 && !reached; i++) {
      await page.keyboard.press("Tab");
      const node = await focusedNode(page);
      const where = await focused(page);
      assert.notEqual(
        node.name,
        "",
        `Tab ${i + 1} lands on a nameless ${where.tag} (${node.role})`,
      );
      reached = await page.evaluate(() => !!document.activeElement?.closest(".admin-bar-scroll"));
      if (reached) {
        assert.equal(node.role, "region");
        assert.match(node.name, /Switches Stock/i);
      }
    }
    assert.ok(reached, "the chart's scroll box is reached by Tab");
    const scroller = page.locator(".admin-bar-scroll");
    await page.keyboard.press("PageDown");
    await page.waitForFunction(() => document.querySelector(".admin-bar-scroll")!.scrollTop > 0);
    assert.ok(await scroller.evaluate((el) => el.scrollHeight > el.clientHeight), "it scrolls");

    // The Test tab's buttons keep the focus while they work.
    await page.getByRole("tab", { name: "Test" }).focus();
    await page.keyboard.press("Enter");
    const ping = page.getByRole("button", { name: "Test Ping" });
    await ping.focus();
    const pinged = page.waitForResponse((r) => r.url().endsWith("/api/test/ping"));
    await page.keyboard.press("Enter");
    await pinged;
    await focusLandsOn(page, "button", /^Test Ping$/, "after Test Ping");

    // The Catalogue: a switch with an uploaded image, edited in its dialog.
    // One in no pack, so it may be retired.
    const sw = SWITCHES.find((s) => !PACKS.some((p) => p.switchIds.includes(s.id)))!;
    const label = `${sw.brand} ${sw.name}`;
    const uploaded = await fetch(`${shop.url}/api/admin/catalog/switches/${sw.id}/image`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${shop.adminPassword}`, "Content-Type": "image/png" },
      body: await pngFile(),
    });
    assert.equal(uploaded.status, 200, await uploaded.text());
    await page.getByRole("tab", { name: "Catalogue" }).focus();
    await page.keyboard.press("Enter");
    await page.getByLabel("Search switches").fill(sw.name);
    const row = page.locator("tr", { hasText: sw.name }).first();
    await row.getByRole("button", { name: `Edit ${label}` }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: `Edit ${label}` });
    // Remove upload goes with the upload: the focus moves to the file input beside it.
    await dialog.getByRole("button", { name: "Remove upload" }).focus();
    await page.keyboard.press("Enter");
    await focusLandsOn(page, "input[type=file]", /.*/, "after Remove upload");
    // A stale save: Reload takes the notice away, and the focus moves to the form's first field.
    const current = await (await fetch(`${shop.url}/api/admin/catalog/switches`, {
      headers: { Authorization: `Bearer ${shop.adminPassword}` },
    })).json() as { id: number; version: string }[];
    const elsewhere = await fetch(`${shop.url}/api/admin/catalog/switches/${sw.id}`, {
      method: "PATCH",
      headers: {
        Authorization: `Bearer ${shop.adminPassword}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({
        force: "61g",
        version: current.find((c) => c.id === sw.id)!.version,
      }),
    });
    assert.equal(elsewhere.status, 200, await elsewhere.text());
    await dialog.getByLabel("Stock (on shelf)", { exact: true }).fill("35");
    await dialog.getByRole("button", { name: "Save switch" }).focus();
    await page.keyboard.press("Enter");
    const reload = dialog.getByRole("button", { name: "Reload this switch" });
    await reload.waitFor();
    await reload.focus();
    await page.keyboard.press("Enter");
    await focusLandsOn(page, "input, select, textarea", /.*/, "after reloading a stale switch");
    assert.equal(await dialog.getByRole("alert").count(), 0, "the notice has gone");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    // Retire keeps the focus on its row while it works (its name then says what it will do).
    await row.getByRole("button", { name: `Retire ${label}` }).focus();
    await page.keyboard.press("Enter");
    await focusLandsOn(page, "button", /^Put .* back on sale$/, "after Retire");

    await page.getByRole("button", { name: "Log out" }).focus();
    await page.keyboard.press("Enter");
    await focusLandsOn(page, "h1", /^Admin Access$/, "after admin log-out");
    assert.deepEqual(problems.errors, []);
  },
);
