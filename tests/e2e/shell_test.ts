import assert from "node:assert/strict";
import { e2eTest } from "./helpers/e2e.ts";
import { PAGES } from "../../shared/routes.ts";
import { SHOP_NAME, TIMINGS } from "../../shared/policy.ts";
import { SEEDED_NOTICE_TEXT } from "../../server/catalog/notice_store.ts";
import { settle, turnTheme } from "./helpers/browser.ts";
import { axeFindings } from "./helpers/axe.ts";
import { TEMPLATE_PATHS } from "./helpers/accessibility.ts";

const SAMPLE_PATHS = PAGES.map((p) => p.path.replace(/:\w+/, "abc"));

/**
 * Every route, and on the way the accessibility of one page of each template (pages sharing a
 * template differ only in data, so one stands for all): axe whole in the light theme, then the
 * page turned dark as a visitor's system setting turns it, and its colours checked (the dark theme
 * is the same markup under other colours: tests/e2e/helpers/axe.ts). One load serves both checks.
 */
e2eTest(
  "every route loads inside the site frame with a heading and no errors; each template passes axe in both themes",
  async (e2e, t) => {
    assert.ok(TEMPLATE_PATHS.every((p) => SAMPLE_PATHS.includes(p)), "every template is a route");
    // Looking up an unknown order or payment session is expected to answer 404 from the API.
    const { page, problems } = await e2e.newPage({
      allow: [/\/api\/orders\/abc/, /\/api\/demo\/checkout-sessions\/abc/],
    });
    for (const path of SAMPLE_PATHS) {
      await t.step(path, async () => {
        problems.errors.length = 0;
        await page.emulateMedia({ colorScheme: "light" });
        const response = await page.goto(path);
        assert.equal(response?.status(), 200, `${path} answers the app`);
        await page.locator("h1").first().waitFor();
        assert.ok((await page.locator("h1").first().textContent())?.trim(), "has a heading");
        assert.equal(await page.locator(".banner").textContent(), SEEDED_NOTICE_TEXT);
        assert.equal(await page.locator(".logo").textContent(), SHOP_NAME);
        for (const link of ["Home", "Shop", "Contact"]) {
          assert.equal(
            await page.getByRole("navigation", { name: "Main" })
              .getByRole("link", { name: link, exact: true }).count(),
            1,
          );
        }
        assert.equal(await page.getByRole("link", { name: /^Cart(, \d+ items?)?$/ }).count(), 1);
        const footer = page.getByRole("navigation", { name: "Policies" });
        for (
          const href of [
            "/refund-policy",
            "/privacy-policy",
            "/shipping-policy",
            "/tos",
            "/contact",
          ]
        ) {
          assert.equal(
            await footer.locator(`a[href="${href}"]`).count(),
            1,
            `footer links ${href}`,
          );
        }
        assert.match(await page.title(), new RegExp(SHOP_NAME));
        // Give late requests (lazy chunks, data) a moment to fail if they are going to.
        await page.waitForLoadState("networkidle");
        assert.deepEqual(problems.errors, [], `${path} has no console errors or failed requests`);
        if (!TEMPLATE_PATHS.includes(path)) return;
        assert.equal(await page.locator("html").getAttribute("data-theme"), "light", path);
        for (const theme of ["light", "dark"] as const) {
          await turnTheme(page, theme);
          assert.deepEqual(
            await axeFindings(page, { quiet: false }),
            [],
            `${path}, ${theme} theme`,
          );
        }
      });
    }
  },
);

/** Sets the site notice as the owner would (the admin PUT). */
async function putNotice(
  shop: { url: string; adminPassword: string },
  notice: { text: string; active: boolean },
): Promise<void> {
  const res = await fetch(`${shop.url}/api/admin/notice`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${shop.adminPassword}`, "Content-Type": "application/json" },
    body: JSON.stringify(notice),
  });
  assert.equal(res.status, 200, await res.text());
}

e2eTest(
  "the red banner is the owner's notice, kept in place for a returning visitor, gone when off",
  async (e2e) => {
    const { page, problems } = await e2e.newPage();
    await page.goto("/");
    await page.locator("h1").waitFor();
    assert.equal(await page.locator(".banner").textContent(), SEEDED_NOTICE_TEXT);

    await putNotice(e2e.shop, { text: "Orders ship Monday.", active: true });
    await page.reload();
    await page.locator(".banner", { hasText: "Orders ship Monday." }).waitFor();

    // On the next visit the last notice is drawn at once, before the shop has answered.
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route("**/api/notice", async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await page.locator("h1").waitFor();
    assert.equal(await page.locator(".banner").textContent(), "Orders ship Monday.");
    answer();

    await putNotice(e2e.shop, { text: "Orders ship Monday.", active: false });
    await page.reload();
    await page.locator(".banner").waitFor({ state: "detached" });
    await page.waitForLoadState("networkidle");
    assert.equal(await page.locator(".banner").count(), 0, "no banner while the notice is off");
    assert.deepEqual(problems.errors, []);
  },
);

e2eTest("the header hides when scrolling down and shows when scrolling up", async (e2e) => {
  const { page, problems } = await e2e.newPage({ viewport: { width: 1000, height: 500 } });
  await page.goto("/tos");
  await page.locator("h1").waitFor();
  const header = page.locator(".site-header");
  assert.equal(await header.getAttribute("data-visible"), "true");
  // A small scroll: once it has ended and any render it caused is done, the header still shows.
  type Scrolling = { scrollEnded?: Promise<number> };
  await page.evaluate(() => {
    (globalThis as Scrolling).scrollEnded = new Promise((resolve) =>
      addEventListener("scrollend", () => resolve(scrollY), { once: true })
    );
  });
  await page.mouse.wheel(0, 30);
  const scrolled = await page.evaluate(() => (globalThis as Scrolling).scrollEnded);
  assert.ok(scrolled! > 0 && scrolled! <= TIMINGS.headerHideThresholdPx, `scrolled ${scrolled}`);
  await settle(page);
  assert.equal(await header.getAttribute("data-visible"), "true", "still shown within 50 px");
  await page.mouse.wheel(0, 400);
  await page.waitForFunction(() =>
    document.querySelector(".site-header")?.getAttribute("data-visible") === "false"
  );
  await page.mouse.wheel(0, -100);
  await page.waitForFunction(() =>
    document.querySelector(".site-header")?.getAttribute("data-visible") === "true"
  );
  assert.deepEqual(problems.errors, []);
});

e2eTest("the theme follows the OS until chosen, and the choice survives a reload", async (e2e) => {
  const { page, problems } = await e2e.newPage();
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  await page.locator("h1").waitFor();
  assert.equal(await page.locator("html").getAttribute("data-theme"), "dark", "system: dark OS");
  await page.emulateMedia({ colorScheme: "light" });
  await page.waitForFunction(() => document.documentElement.dataset.theme === "light");
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  assert.equal(await page.locator("html").getAttribute("data-theme"), "dark");
  await page.reload();
  await page.locator("h1").waitFor();
  assert.equal(await page.locator("html").getAttribute("data-theme"), "dark", "kept after reload");
  assert.equal(
    await page.evaluate(() => localStorage.getItem("switch-tester-shop:theme")),
    "dark",
  );
  assert.deepEqual(problems.errors, []);
});

// The 404 status, heading and link as the server renders them are checked without a browser
// (tests/api/server_rendering_test.ts); here, that the hydrated page's link works.
e2eTest("the not-found page's link takes a shopper on to the shop", async (e2e) => {
  const { page } = await e2e.newPage({ allow: [/404 .*\/no-such-page/] });
  await page.goto("/no-such-page");
  await page.getByRole("link", { name: "Browse the shop" }).click();
  await page.waitForURL("**/shop");
  await page.getByRole("heading", { level: 1, name: "Shop" }).waitFor();
});

e2eTest("the logo changes colour every second and the mobile menu holds the cart", async (e2e) => {
  const { page, problems } = await e2e.newPage({
    viewport: { width: 390, height: 800 },
    motion: true,
  });
  await page.goto("/");
  const logo = page.locator(".logo");
  const first = await logo.getAttribute("data-color-index");
  await page.waitForFunction(
    (before) => document.querySelector(".logo")?.getAttribute("data-color-index") !== before,
    first,
    { timeout: 3000 },
  );
  // The nav is folded on a phone, but the cart stays in the top bar.
  const cart = page.getByRole("link", { name: /^Cart(, \d+ items?)?$/ });
  assert.equal(
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", {
      name: "Shop",
      exact: true,
    }).isVisible(),
    false,
  );
  assert.equal(await cart.isVisible(), true);
  await page.getByRole("button", { name: "Open menu" }).click();
  assert.equal(
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", {
      name: "Shop",
      exact: true,
    }).isVisible(),
    true,
  );
  await cart.click();
  await page.waitForURL("**/cart");
  assert.deepEqual(problems.errors, []);
});
