import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { e2eTest } from "./helpers/e2e.ts";
import { animationsDone } from "./helpers/browser.ts";
import { setComponentStock, setSwitchStock } from "./helpers/api.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { STARTING_PRICE_TEXT, SWITCH_COUNT_TEXT, TIMINGS } from "../../shared/policy.ts";
import { formatCents, PACK_BASE_CENTS, PACK_KEYCAPS_CENTS } from "../../shared/pricing.ts";

/** The Aesthetic pack's switch these tests sell out, to see what shoppers meet. */
const DRAGON_FRUIT = SWITCHES.find((s) => s.name === "Dragon Fruit")!;

const TESTER_PATHS = [
  "/testers/custom",
  ...["starter-pack", "popular", "unique", "linear", "tactile", "aesthetic"].map((s) =>
    `/testers/${s}`
  ),
];

/** Waits until the cart badge shows `count`. */
async function waitForBadge(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="cart-badge"]')?.textContent === String(n),
    count,
  );
}

/** Indexes (0-based) of the tester carousel's slides marked as shown. */
async function shownSlides(carousel: Locator): Promise<number[]> {
  const flags = await carousel.getByRole("group").evaluateAll((slides) =>
    slides.map((s) => s.getAttribute("data-visible"))
  );
  return flags.flatMap((f, i) => (f === "true" ? [i] : []));
}

/** Whether a slide lies inside the carousel's visible box (after the slide transition). */
async function isInView(carousel: Locator, index: number): Promise<boolean> {
  const viewport = await carousel.locator(".carousel-viewport").boundingBox();
  const slide = await carousel.getByRole("group").nth(index).boundingBox();
  return !!viewport && !!slide && slide.x >= viewport.x - 1 &&
    slide.x + slide.width <= viewport.x + viewport.width + 1;
}

/** Waits for the slide transition to settle so bounding boxes are final. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().filter((a) => a.playState === "running").length === 0
  );
}

/**
 * The review currently shown, by its slide label ("Review 2 of 6"). React renders a timer's
 * update in a later task (posted with MessageChannel, which the fake clock leaves alone), so let
 * two such tasks pass first.
 */
async function shownReview(reviews: Locator): Promise<string | null> {
  await reviews.page().evaluate(async () => {
    for (let i = 0; i < 2; i++) {
      await new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = resolve;
        channel.port2.postMessage(null);
      });
    }
  });
  return await reviews.locator(".review:not([hidden])").getAttribute("aria-label");
}

e2eTest("home: intro, gift box, a non-looping tester carousel, partners and call to action", async (
  e2e,
) => {
  const { page, problems } = await e2e.newPage({ motion: true });
  await page.goto("/");
  await page.locator("h1").waitFor();
  const intro = await page.locator(".home-intro").textContent();
  assert.ok(intro?.includes(STARTING_PRICE_TEXT), `intro says ${STARTING_PRICE_TEXT}`);
  assert.ok(intro?.includes(SWITCH_COUNT_TEXT), `intro says ${SWITCH_COUNT_TEXT}`);
  assert.equal(
    await page.getByRole("link", { name: /Looking for a gift/ }).getAttribute("href"),
    "/friendly-gift-guide",
  );

  const carousel = page.getByRole("region", { name: "Pick your tester" });
  assert.equal(await carousel.getAttribute("aria-roledescription"), "carousel");
  const slides = carousel.getByRole("group");
  assert.equal(await slides.count(), 7);
  for (let i = 0; i < 7; i++) {
    assert.equal(await slides.nth(i).getAttribute("aria-roledescription"), "slide");
    assert.equal(await slides.nth(i).getByRole("link").getAttribute("href"), TESTER_PATHS[i]);
  }
  // The carousel lists the custom tester, then every pack in the order PACKS has them.
  const titles = await slides.locator("h3").allTextContents();
  assert.deepEqual(titles, ["Custom Switch Tester", ...PACKS.map((p) => p.title)]);
  for (const img of await carousel.locator("img").all()) {
    assert.ok(await img.getAttribute("alt"), "every card image has alt text");
  }

  // Three cards at 1280 px; Previous is disabled at the start, Next walks to the end and stops.
  const previous = carousel.getByRole("button", { name: "Previous testers" });
  const next = carousel.getByRole("button", { name: "Next testers" });
  assert.deepEqual(await shownSlides(carousel), [0, 1, 2]);
  assert.ok(await previous.isDisabled(), "Previous disabled at the start");
  let clicks = 0;
  while (await next.isEnabled()) {
    await next.click();
    clicks++;
    assert.ok(clicks <= 4, "Next stops at the end");
  }
  assert.equal(clicks, 4, "seven cards, three at a time: four steps to the end");
  assert.deepEqual(await shownSlides(carousel), [4, 5, 6]);
  assert.ok(await next.isDisabled(), "Next disabled at the end (no looping)");
  assert.ok(await previous.isEnabled());
  await settle(page);
  assert.ok(await isInView(carousel, 6), "the last card is really on screen");
  assert.ok(!(await isInView(carousel, 0)), "the first card has moved out");

  // Keyboard: Previous works with Enter, and tabbing onto a hidden card brings it into view.
  await previous.focus();
  await page.keyboard.press("Enter");
  assert.deepEqual(await shownSlides(carousel), [3, 4, 5]);
  await slides.nth(3).getByRole("link").focus();
  await page.keyboard.press("Shift+Tab");
  assert.deepEqual(await shownSlides(carousel), [2, 3, 4], "focused card scrolled into view");
  assert.ok(
    await slides.nth(2).getByRole("link").evaluate((a) => a === document.activeElement),
  );

  // A card leads to its page. Clicked once the track has stopped sliding: Playwright's check that
  // the link stands still can pass between two slow frames of the slide, and the click then landed
  // beside the link (once in CI at load 14: no navigation).
  await animationsDone(page);
  await slides.nth(4).getByRole("link").click();
  await page.waitForURL("**/testers/linear");
  await page.getByRole("heading", { level: 1, name: "Linear Collection" }).waitFor();
  await page.goBack();
  await page.getByRole("region", { name: "Pick your tester" }).waitFor();

  const partners = page.getByRole("region", { name: "Our partners" }).getByRole("link");
  assert.equal(await partners.count(), 2);
  for (const link of await partners.all()) {
    assert.match((await link.getAttribute("href"))!, /^https:\/\//);
    assert.equal(await link.getAttribute("target"), "_blank");
    assert.match((await link.getAttribute("rel"))!, /noopener/);
  }
  const cta = page.getByRole("region", { name: "Ready to find your switch?" });
  assert.equal(await cta.getByRole("link").getAttribute("href"), "/shop");
  assert.deepEqual(problems.errors, []);
});

e2eTest("home: the tester carousel shows one card at a time at 390 px", async (e2e) => {
  const { page, problems } = await e2e.newPage({
    viewport: { width: 390, height: 844 },
    motion: true,
  });
  await page.goto("/");
  const carousel = page.getByRole("region", { name: "Pick your tester" });
  await carousel.waitFor();
  assert.deepEqual(await shownSlides(carousel), [0]);
  const next = carousel.getByRole("button", { name: "Next testers" });
  for (let i = 1; i <= 6; i++) {
    await next.click();
    assert.deepEqual(await shownSlides(carousel), [i]);
  }
  assert.ok(await next.isDisabled(), "Next disabled on the seventh card");
  await settle(page);
  assert.ok(await isInView(carousel, 6));
  // Nothing sticks out sideways on a phone.
  assert.ok(
    await page.evaluate(() => document.documentElement.scrollWidth <= globalThis.innerWidth),
    "no horizontal scrolling at 390 px",
  );
  assert.deepEqual(problems.errors, []);
});

e2eTest("home: the reviews carousel loops, auto-advances and pauses", async (e2e) => {
  const { page, problems } = await e2e.newPage({ motion: true });
  await page.clock.install();
  await page.goto("/");
  const reviews = page.getByRole("region", { name: "What testers say" });
  await reviews.waitFor();
  assert.equal(await reviews.getAttribute("aria-roledescription"), "carousel");
  const count = await reviews.locator(".review").count();
  assert.ok(count >= 5 && count <= 6, `5-6 reviews, got ${count}`);
  for (const link of await reviews.getByRole("link").all()) {
    assert.match((await link.getAttribute("href"))!, /^https:\/\//);
    assert.equal(await link.getAttribute("target"), "_blank");
    assert.match((await link.getAttribute("rel"))!, /noopener/);
  }
  assert.match((await shownReview(reviews))!, new RegExp(`^Review \\d of ${count}$`));

  // Freeze the page's clock, then restart the rotation timer by hovering in and out: from here
  // on only runFor moves time, so a slow machine cannot make the carousel turn early.
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 1000);
  await reviews.hover();
  await page.mouse.move(0, 0);
  const label = (n: number) => `Review ${((n - 1) % count) + 1} of ${count}`;
  const first = Number((await shownReview(reviews))!.match(/^Review (\d+)/)![1]);

  // Auto-advance every TIMINGS.reviewsAutoplayMs, not before.
  await page.clock.runFor(TIMINGS.reviewsAutoplayMs - 200);
  assert.equal(await shownReview(reviews), label(first), "not before the interval");
  await page.clock.runFor(400);
  assert.equal(await shownReview(reviews), label(first + 1), "advanced after the interval");
  await page.clock.runFor(TIMINGS.reviewsAutoplayMs);
  assert.equal(await shownReview(reviews), label(first + 2), "and again");

  // Hovering pauses it.
  await reviews.hover();
  await page.clock.runFor(TIMINGS.reviewsAutoplayMs * 2);
  assert.equal(await shownReview(reviews), label(first + 2), "paused while hovered");

  // It loops: Previous from the first shows the last, Next from the last shows the first.
  const previous = reviews.getByRole("button", { name: "Previous review" });
  const next = reviews.getByRole("button", { name: "Next review" });
  for (let i = 0; i < count && (await shownReview(reviews)) !== label(1); i++) {
    await previous.click();
  }
  assert.equal(await shownReview(reviews), label(1));
  await previous.click();
  assert.equal(await shownReview(reviews), `Review ${count} of ${count}`, "Previous loops");
  await next.click();
  assert.equal(await shownReview(reviews), `Review 1 of ${count}`, "Next loops");

  // Focus inside pauses it too, even with the pointer gone.
  await page.mouse.move(0, 0);
  await page.clock.runFor(TIMINGS.reviewsAutoplayMs * 2);
  assert.equal(await shownReview(reviews), `Review 1 of ${count}`, "paused while focused");

  // The stop button turns rotation off for good; start turns it back on.
  await reviews.getByRole("button", { name: "Stop automatic review rotation" }).click();
  await page.locator("h1").click();
  await page.clock.runFor(TIMINGS.reviewsAutoplayMs * 2);
  assert.equal(await shownReview(reviews), `Review 1 of ${count}`, "stopped");
  await reviews.getByRole("button", { name: "Start automatic review rotation" }).click();
  await page.locator("h1").click();
  await page.clock.runFor(TIMINGS.reviewsAutoplayMs + 100);
  assert.equal(await shownReview(reviews), `Review 2 of ${count}`, "rotating again");
  assert.deepEqual(problems.errors, []);
});

e2eTest("home: reviews do not rotate under prefers-reduced-motion", async (e2e) => {
  // Motion on at first, so the page's own switch to reduced motion below is what stops them.
  const { page, problems } = await e2e.newPage({ motion: true });
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.clock.install();
  await page.goto("/");
  const reviews = page.getByRole("region", { name: "What testers say" });
  await reviews.waitFor();
  await page.clock.runFor(TIMINGS.reviewsAutoplayMs * 3);
  assert.match((await shownReview(reviews))!, /^Review 1 of/);
  assert.equal(
    await reviews.getByRole("button", { name: "Start automatic review rotation" }).count(),
    1,
  );
  assert.deepEqual(problems.errors, []);
});

e2eTest("shop: sections, links, and adding the Starter pack and the Layout Tester", async (
  e2e,
) => {
  const { page, problems } = await e2e.newPage();
  await page.goto("/shop");
  await page.getByRole("heading", { level: 1, name: "Shop" }).waitFor();
  for (
    const name of ["Build Your Custom Experience", "Themed Tester Sets", "Bring Your Own Switches"]
  ) {
    assert.equal(await page.getByRole("heading", { level: 2, name }).count(), 1, name);
  }
  const custom = page.getByRole("article", { name: "Custom Switch Tester" });
  assert.equal(
    await custom.getByRole("link", { name: /^Customize/ }).getAttribute("href"),
    "/testers/custom",
  );
  assert.ok((await custom.textContent())?.includes("From $9.99"));
  const cube = page.getByRole("article", { name: "Fidget Cube", exact: true });
  assert.equal(
    await cube.getByRole("link", { name: /^Customize/ }).getAttribute("href"),
    "/testers/fidget-cube",
  );
  assert.ok((await cube.textContent())?.includes("From $12.99"));

  const themed = page.getByRole("region", { name: "Themed Tester Sets" }).getByRole("article");
  assert.deepEqual(await themed.locator("h3").allTextContents(), [
    "Starter Pack",
    "Popular Pack",
    "Linear Collection",
    "Tactile Collection",
  ]);
  const aboutPaths = await themed.getByRole("link", { name: /^About/ }).evaluateAll((links) =>
    links.map((a) => a.getAttribute("href"))
  );
  assert.deepEqual(aboutPaths, [
    "/testers/starter-pack",
    "/testers/popular",
    "/testers/linear",
    "/testers/tactile",
  ]);
  for (const card of await themed.all()) {
    assert.equal(await card.locator(".price").textContent(), formatCents(PACK_BASE_CENTS));
  }
  const byo = page.getByRole("region", { name: "Bring Your Own Switches" });
  const layout = byo.getByRole("article", { name: "Layout Tester" });
  assert.equal(await layout.locator(".price").textContent(), "$7.99");
  assert.equal(
    await byo.getByRole("article", { name: "Fidget Cube Case" }).locator(".price").textContent(),
    "$3.99",
  );

  const starter = page.getByRole("article", { name: "Starter Pack" });
  const addStarter = starter.getByRole("button", { name: "Add to Cart" });
  await addStarter.click();
  await page.getByRole("status").filter({ hasText: "Item added to cart" }).first().waitFor();
  await waitForBadge(page, 1);
  await layout.getByRole("button", { name: "Add to Cart" }).click();
  await waitForBadge(page, 2);
  assert.ok(
    await page.getByRole("status").filter({ hasText: "Item added to cart" }).count() >= 1,
  );

  // The server's cart holds exactly what was clicked.
  const cartId = await page.evaluate(() => localStorage.getItem("cartId"));
  const cart = await (await fetch(`${e2e.shop.url}/api/cart/${cartId}`)).json();
  const names = cart.items.map((l: { item: { name: string } }) => l.item.name).sort();
  assert.deepEqual(names, ["Layout Tester", "Starter Pack"]);
  assert.deepEqual(problems.errors, []);
});

e2eTest("shop: out-of-stock items are dimmed and locked, and a failed add says so", async (
  e2e,
) => {
  const { page, problems } = await e2e.newPage({ allow: [/\/api\/cart\/add/] });
  // The case's cube bodies run out on the shelf, and the cart fails.
  await setComponentStock(e2e.shop, "CUBE_BODY", 0);
  await page.route(
    /\/api\/cart\/add\?/,
    (route) => route.fulfill({ status: 500, json: { error: "Internal error" } }),
  );
  await page.goto("/shop");
  const caseCard = page.getByRole("article", { name: "Fidget Cube Case" });
  const caseButton = caseCard.getByRole("button", { name: "Out of Stock" });
  await caseButton.waitFor();
  assert.ok(await caseButton.isDisabled());
  assert.match((await caseCard.getAttribute("class"))!, /\bunavailable\b/);
  const opacity = await caseCard.locator("img").evaluate((img) => getComputedStyle(img).opacity);
  assert.ok(Number(opacity) < 1, "the image is dimmed");

  await page.getByRole("article", { name: "Layout Tester" })
    .getByRole("button", { name: "Add to Cart" }).click();
  await page.getByRole("status").filter({ hasText: "Error adding item to cart" }).waitFor();
  assert.equal(await page.getByTestId("cart-badge").count(), 0);
  assert.deepEqual(problems.errors, []);
});

e2eTest("pack page: the Aesthetic pack is out of stock and lists its 10 switches", async (e2e) => {
  const { page, problems } = await e2e.newPage();
  await setSwitchStock(e2e.shop, DRAGON_FRUIT.id, 0);
  await page.goto("/testers/aesthetic");
  await page.getByRole("heading", { level: 1, name: "Aesthetic Pack" }).waitFor();
  const button = page.getByRole("button", { name: "Out of Stock" });
  await button.waitFor();
  assert.ok(await button.isDisabled());
  assert.ok(await page.locator(".stock-overlay", { hasText: "Out of Stock" }).isVisible());

  const pack = PACKS.find((p) => p.slug === "aesthetic")!;
  const contains = page.getByRole("region", { name: "Contains" }).getByRole("listitem");
  assert.equal(await contains.count(), 10);
  for (const [i, id] of pack.switchIds.entries()) {
    const sw = SWITCHES.find((s) => s.id === id)!;
    const item = contains.nth(i);
    const link = item.getByRole("link");
    assert.equal(await link.getAttribute("href"), sw.referralLink);
    assert.equal(await link.getAttribute("target"), "_blank");
    assert.match((await link.getAttribute("rel"))!, /noopener/);
    assert.ok((await item.textContent())?.includes(sw.name));
    assert.ok((await item.textContent())?.includes(sw.brand));
  }
  assert.deepEqual(problems.errors, []);
  await setSwitchStock(e2e.shop, DRAGON_FRUIT.id, DRAGON_FRUIT.initialStock);
});

e2eTest("pack page: adding a pack with transparent keycaps at $11.99", async (e2e) => {
  const { page, problems } = await e2e.newPage();
  await page.goto("/testers/linear");
  await page.getByRole("heading", { level: 1, name: "Linear Collection" }).waitFor();
  const price = page.getByTestId("pack-price");
  const withKeycaps = formatCents(PACK_BASE_CENTS + PACK_KEYCAPS_CENTS);
  assert.equal(await price.textContent(), "$9.99");
  assert.equal(withKeycaps, "$11.99");
  assert.equal(
    await page.getByRole("region", { name: "Contains" }).getByRole("listitem").count(),
    10,
  );
  const add = page.getByRole("button", { name: "Add to Cart" });
  await page.waitForFunction(() =>
    !(document.querySelector(".pack-add") as HTMLButtonElement | null)?.disabled
  );

  await page.getByRole("checkbox", { name: "Add transparent keycaps (+$2)" }).check();
  assert.equal(await price.textContent(), withKeycaps);
  // The id changed, so availability is checked again before the button unlocks.
  await page.waitForFunction(() =>
    !(document.querySelector(".pack-add") as HTMLButtonElement | null)?.disabled
  );
  await add.click();
  const toast = page.getByRole("status").filter({ hasText: "Added to cart" });
  await toast.waitFor();
  await waitForBadge(page, 1);
  await toast.getByRole("link", { name: "View Cart" }).click();
  await page.waitForURL("**/cart");
  const line = page.getByTestId("cart-line");
  await line.first().waitFor();
  assert.equal(await line.count(), 1);
  assert.ok((await line.textContent())?.includes("Linear Collection with transparent keycaps"));
  assert.equal(await line.locator(".price").textContent(), withKeycaps);
  assert.deepEqual(problems.errors, []);
});

e2eTest("pack page: a failed load shows a message and a retry that works", async (e2e) => {
  const { page, problems } = await e2e.newPage({ allow: [/\/api\/packs\/popular/] });
  let failures = 1;
  await page.route(
    "**/api/packs/popular",
    (route) =>
      failures-- > 0
        ? route.fulfill({ status: 500, json: { error: "Internal error" } })
        : route.continue(),
  );
  // The server renders the pack with its data; moving to it within the app loads it here.
  await page.goto("/shop");
  await page.locator('a[href="/testers/popular"]').first().click();
  await page.getByRole("alert").filter({ hasText: "Please try again" }).waitFor();
  await page.getByRole("button", { name: "Try again" }).click();
  await page.getByRole("heading", { level: 1, name: "Popular Pack" }).waitFor();
  assert.deepEqual(problems.errors, []);
});

const QUIZ_PATHS: { answers: string[]; picks: string[] }[] = [
  { answers: ["No"], picks: ["Starter Pack", "Popular Pack"] },
  { answers: ["Yes", "No"], picks: ["Starter Pack", "Popular Pack"] },
  { answers: ["Yes", "Yes", "Just 1"], picks: ["Unique Kit", "Popular Pack"] },
  {
    answers: ["Yes", "Yes", "More than 1", "Yes"],
    picks: ["Linear Collection", "Tactile Collection"],
  },
  { answers: ["Yes", "Yes", "More than 1", "No idea"], picks: ["Aesthetic Pack", "Unique Kit"] },
];

e2eTest("gift guide: every quiz path, Back, Start Over and adding a pick", async (e2e, t) => {
  const { page, problems } = await e2e.newPage();
  await page.goto("/friendly-gift-guide");
  await page.getByRole("heading", { level: 1, name: "Friendly gift guide" }).waitFor();
  const quiz = page.locator(".quiz");
  const back = quiz.getByRole("button", { name: "Back" });
  const startOver = quiz.getByRole("button", { name: "Start Over" });
  const question = quiz.getByRole("heading", { level: 2 });
  const picks = quiz.locator(".quiz-results h3");
  /**
   * Waits until the quiz asks `text`: a question is waited for, not read at once after a click,
   * since with four test files at a time it may be drawn just after the click returns (a subset
   * run read the previous path's results heading there).
   */
  const shows = async (text: string) => {
    await quiz.getByRole("heading", { level: 2, name: text, exact: true }).waitFor();
    assert.equal(await question.textContent(), text);
  };
  /**
   * Answers the question shown, then waits until the quiz has moved on, as a shopper reads the
   * next question before answering it: the answers were once pressed faster than the quiz drew
   * its questions, and one run of four files at a time ended on an unexpected step.
   */
  const answer = async (label: string) => {
    const asked = await question.textContent();
    await quiz.getByRole("button", { name: label, exact: true }).click();
    await page.waitForFunction(
      (before) => document.querySelector(".quiz h2")?.textContent !== before,
      asked,
    );
  };

  for (const path of QUIZ_PATHS) {
    await t.step(`${path.answers.join(" > ")} recommends ${path.picks.join(" + ")}`, async () => {
      await startOver.click();
      await shows("Does the recipient have a keyboard?");
      assert.ok(await back.isDisabled(), "Back disabled on the first question");
      for (const label of path.answers) {
        await answer(label);
      }
      await picks.first().waitFor();
      assert.deepEqual(await picks.allTextContents(), path.picks);
      const slugs = path.picks.map((name) => PACKS.find((p) => p.title === name)!.slug);
      assert.deepEqual(
        await quiz.getByRole("link", { name: /^About/ }).evaluateAll((links) =>
          links.map((a) => a.getAttribute("href"))
        ),
        slugs.map((s) => `/testers/${s}`),
      );
      assert.equal(await quiz.locator(".quiz-results img").count(), 2);
    });
  }

  await t.step("Back steps through the questions", async () => {
    await startOver.click();
    await shows("Does the recipient have a keyboard?");
    for (const label of ["Yes", "Yes", "More than 1"]) {
      await answer(label);
    }
    await shows("Do you know their preferred switch type?");
    await answer("No idea");
    await picks.first().waitFor();
    await back.click();
    await shows("Do you know their preferred switch type?");
    await back.click();
    await shows("How many keyboards?");
    await back.click();
    await shows("Did they pick or build it themselves?");
    await back.click();
    await shows("Does the recipient have a keyboard?");
    assert.ok(await back.isDisabled());
    await quiz.getByRole("button", { name: "Yes", exact: true }).click();
    await startOver.click();
    await shows("Does the recipient have a keyboard?");
  });

  await t.step(
    "the Aesthetic pick is out of stock, a Starter pick goes into the cart",
    async () => {
      await setSwitchStock(e2e.shop, DRAGON_FRUIT.id, 0);
      await startOver.click();
      await shows("Does the recipient have a keyboard?");
      for (const label of QUIZ_PATHS[4].answers) {
        await answer(label);
      }
      const aesthetic = quiz.getByRole("article", { name: "Aesthetic Pack" });
      await aesthetic.getByRole("button", { name: "Out of Stock" }).waitFor();
      assert.ok(await aesthetic.getByRole("button", { name: "Out of Stock" }).isDisabled());
      // An in-stock pack is offered right after it, saying why.
      await quiz.getByText("In stock now, instead of the Aesthetic Pack").waitFor();
      assert.deepEqual(await picks.allTextContents(), [
        "Aesthetic Pack",
        "Popular Pack",
        "Unique Kit",
      ]);
      await setSwitchStock(e2e.shop, DRAGON_FRUIT.id, DRAGON_FRUIT.initialStock);

      await startOver.click();
      await quiz.getByRole("button", { name: "No", exact: true }).click();
      const starter = quiz.getByRole("article", { name: "Starter Pack" });
      const add = starter.getByRole("button", { name: "Add to Cart" });
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLButtonElement>(".quiz-results .add-to-cart")]
          .every((b) => !b.disabled)
      );
      await add.click();
      await page.getByRole("status").filter({ hasText: "Added to cart" }).waitFor();
      await waitForBadge(page, 1);
      const cartId = await page.evaluate(() => localStorage.getItem("cartId"));
      const cart = await (await fetch(`${e2e.shop.url}/api/cart/${cartId}`)).json();
      assert.deepEqual(cart.items.map((l: { item: { name: string } }) => l.item.name), [
        "Starter Pack",
      ]);
    },
  );
  assert.deepEqual(problems.errors, []);
});
