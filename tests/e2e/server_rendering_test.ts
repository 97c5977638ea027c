/**
 * Server-rendered pages in a real browser: each public page arrives with its content and data,
 * hydrates without a mismatch and without asking the API again at load; the theme is right
 * before any script of ours runs; and with JavaScript off a visitor still reads every product,
 * price and policy.
 */
import assert from "node:assert/strict";
import { e2eTest } from "./helpers/e2e.ts";
import { settle, waitForBadge } from "./helpers/browser.ts";
import { austinBuyer, paidOrder } from "./helpers/api.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { formatCents, PACK_BASE_CENTS } from "../../shared/pricing.ts";

const HYDRATED = [
  "/",
  "/shop",
  "/testers/starter-pack",
  "/testers/custom",
  "/testers/fidget-cube",
  "/friendly-gift-guide",
  "/faq",
  "/refund-policy",
  "/contact",
  "/cart",
];

/**
 * URLs with parameters no page reads (a newsletter's, a random one), a trailing slash, a path
 * with no page: each is served the document kept for its page, which must hydrate as well.
 */
const KEPT_FOR_ITS_PAGE = [
  "/shop?utm_source=newsletter",
  "/faq/?u=1",
  "/testers/custom?u=2&switches=101,102&size=15",
  "/no-such-page?u=3",
];

e2eTest(
  "public pages hydrate the server's HTML: no mismatch, no second load of their data",
  async (e2e) => {
    const { page, problems } = await e2e.newPage();
    const apiCalls: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/api/")) apiCalls.push(`${url.pathname}${url.search}`);
    });
    const buyer = austinBuyer("rendered@example.com", "Ada Lovelace", "1 Analytical Way");
    const orderNumber = await paidOrder(e2e.shop.url, buyer, 384);
    // An unknown order too: the page says so from the server, with no second (counted) miss.
    const paths = [
      ...HYDRATED,
      ...KEPT_FOR_ITS_PAGE,
      `/order/track/${orderNumber}`,
      "/order/track/NOSUCHORDER1",
    ];
    for (const path of paths) {
      apiCalls.length = 0;
      await page.goto(path);
      // Hydrated: React has attached its handlers to the server's root.
      await page.waitForFunction(() =>
        Object.keys(document.getElementById("root")!).some((k) => k.startsWith("__reactContainer"))
      );
      await page.waitForLoadState("networkidle");
      await settle(page);
      assert.deepEqual(apiCalls, [], `${path} asked the API again at load`);
    }
    // The path with no page is answered 404, as it should be: the only problem allowed.
    const expected = (e: string) => /404 .*\/no-such-page\?u=3/.test(e);
    problems.errors.splice(0, Infinity, ...problems.errors.filter((e) => !expected(e)));
    assert.deepEqual(problems.errors, [], "no hydration error or warning on any page");

    // A returning shopper: a cart, a session and the dark theme in the browser's storage, none
    // of which the server knows. The pages still hydrate cleanly, then show what it kept.
    await page.goto("/shop");
    await page.getByRole("button", { name: /^Add to Cart$/ }).first().click();
    await waitForBadge(page, 1);
    await page.evaluate(() => {
      localStorage.setItem("token", "a-session-token");
      localStorage.setItem("userId", "u-1");
      localStorage.setItem("userEmail", "returning@example.com");
      localStorage.setItem("switch-tester-shop:theme", "dark");
    });
    for (const path of HYDRATED) {
      await page.goto(path);
      await waitForBadge(page, 1);
      await page.getByTestId("account-menu").waitFor();
      const theme = await page.evaluate(() => document.documentElement.dataset.theme);
      assert.equal(theme, "dark", path);
    }
    assert.deepEqual(problems.errors, [], "no hydration error for a returning shopper either");
  },
);

e2eTest(
  "with JavaScript off, the products, prices and policies are all there to read",
  async (e2e) => {
    const context = await e2e.browser.newContext({
      baseURL: e2e.shop.url,
      javaScriptEnabled: false,
    });
    try {
      const page = await context.newPage();
      const starter = PACKS.find((p) => p.slug === "starter-pack")!;
      await page.goto("/testers/starter-pack");
      const text = await page.locator("main").innerText();
      for (const id of starter.switchIds) {
        const sw = SWITCHES.find((s) => s.id === id)!;
        assert.ok(text.includes(sw.name), `the pack lists ${sw.name}`);
      }
      assert.ok(text.includes(formatCents(PACK_BASE_CENTS)), "the pack's price");

      await page.goto("/shop");
      const shop = await page.locator("main").innerText();
      assert.match(shop, /Starter Pack/);
      assert.match(shop, /\$\d+\.\d\d/);

      await page.goto("/testers/custom");
      assert.ok(await page.getByText(SWITCHES[0].name).first().isVisible(), "the switch list");

      await page.goto("/refund-policy");
      assert.match(await page.locator("main h1").innerText(), /Refund/);
    } finally {
      await context.close();
    }
  },
);

e2eTest(
  "the chosen theme is applied before the shop's script runs, and the badge shows at once",
  async (e2e) => {
    const { page, context } = await e2e.newPage();
    await page.goto("/shop");
    await page.getByRole("button", { name: /^Add to Cart$/ }).first().click();
    await waitForBadge(page, 1);
    await page.getByRole("button", { name: "Switch to dark theme" }).click();

    // The app's script never arrives: what shows is the server's HTML and the inline theme script.
    await context.route(/\/assets\/main-.*\.js$/, (route) => route.abort());
    await page.goto("/testers/starter-pack");
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
    assert.ok(await page.getByRole("heading", { level: 1 }).isVisible(), "the page is there");
    await context.unroute(/\/assets\/main-.*\.js$/);

    // With the script, the badge comes from the browser's storage before the cart is fetched:
    // the cart's request is held until the badge shows (a condition, not a fixed delay).
    let cartAnswered = false;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await context.route(/\/api\/cart\//, async (route) => {
      await held;
      cartAnswered = true;
      await route.continue().catch(() => {});
    });
    await page.goto("/faq");
    await waitForBadge(page, 1);
    assert.equal(cartAnswered, false, "the badge did not wait for the cart's request");
    release();
  },
);
