import assert from "node:assert/strict";
import { e2eTest } from "./helpers/e2e.ts";
import { postOk } from "./helpers/api.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { customTesterCents, formatCents, packCents } from "../../shared/pricing.ts";

e2eTest(
  "the cart page changes quantities, removes lines and empties, with the badge following",
  async (e2e) => {
    const { shop } = e2e;
    // Fill a cart through the API, as the storefront would.
    const post = (path: string, body?: unknown) => postOk(shop.url, path, body);
    const first = await post("/api/cart/add?itemId=384&quantity=1");
    const cartId = first.id as string;
    await post(`/api/cart/add?itemId=1&quantity=2&cartId=${cartId}`);
    const picks = SWITCHES.filter((s) => s.initialStock > 10).slice(0, 10);
    await post("/api/cart/add/tester", {
      cartId,
      name: "Custom Switch Tester",
      size: 10,
      keycaps: "transparent",
      switches: picks.map((s) => ({ id: s.id, quantity: 1 })),
      quantity: 1,
      bodyColor: "white",
      price: 0.01,
    });

    const { page, problems } = await e2e.newPage({ storage: { cartId } });
    await page.goto("/cart");
    const badge = page.getByTestId("cart-badge");
    await badge.waitFor();
    assert.equal(await badge.textContent(), "4", "badge is the sum of quantities (1 + 2 + 1)");

    const lines = page.getByTestId("cart-line");
    // The badge can arrive (from the header's load) before the page's own load renders the lines.
    await lines.nth(2).waitFor();
    assert.equal(await lines.count(), 3);
    const testerPrice = customTesterCents(10, "transparent", picks.map((s) => s.extraPriceCents));
    const tester = lines.filter({ hasText: "Custom Switch Tester" });
    assert.equal(await tester.locator(".price").textContent(), formatCents(testerPrice));
    await tester.getByRole("button", { name: "Show 10 switches" }).click();
    assert.equal(await tester.locator(".switch-chips li").count(), 10);
    const expectedSubtotal = packCents(false) + 2 * 799 + testerPrice;
    assert.equal(
      await page.getByTestId("cart-subtotal").textContent(),
      formatCents(expectedSubtotal),
    );
    assert.ok(await page.getByText("Shipping: Calculated at checkout").isVisible());

    // Increase the pack, then decrease the layout tester.
    const pack = lines.filter({ hasText: "Starter Pack" });
    await pack.getByRole("button", { name: "Increase Starter Pack" }).click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="cart-badge"]')?.textContent === "5"
    );
    assert.equal(await pack.getByTestId("line-quantity").textContent(), "2");
    const layout = lines.filter({ hasText: "Layout Tester" });
    await layout.getByRole("button", { name: "Decrease Layout Tester" }).click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="cart-badge"]')?.textContent === "4"
    );
    // At quantity 1 the decrease button becomes Remove.
    assert.equal(
      await layout.getByRole("button", { name: "Remove Layout Tester" }).textContent(),
      "Remove",
    );
    await layout.getByRole("button", { name: "Remove Layout Tester" }).click();
    await page.waitForFunction(() =>
      document.querySelectorAll('[data-testid="cart-line"]').length === 2
    );

    // A reload keeps the cart (the id lives in localStorage and the cart on the server).
    await page.reload();
    await page.getByTestId("cart-line").first().waitFor();
    assert.equal(await page.getByTestId("cart-badge").textContent(), "3");

    await lines.filter({ hasText: "Custom Switch Tester" }).getByRole("button", {
      name: "Remove Custom Switch Tester",
    }).click();
    await pack.getByRole("button", { name: "Decrease Starter Pack" }).click();
    await pack.getByRole("button", { name: "Remove Starter Pack" }).click();
    await page.getByText("Nothing here yet!").waitFor();
    assert.equal(await page.getByTestId("cart-badge").count(), 0, "no badge when empty");
    assert.equal(await page.getByRole("link", { name: "(fix it)" }).getAttribute("href"), "/shop");
    for (const name of ["Checkout (United States)", "Checkout (International)"]) {
      assert.ok(
        await page.getByRole("button", { name }).isDisabled(),
        `${name} disabled when empty`,
      );
    }
    assert.deepEqual(problems.errors, []);
  },
);

e2eTest("an empty cart shows its message, and a stale cart id is forgotten", async (e2e) => {
  const { page, problems } = await e2e.newPage({ allow: [/\/api\/cart\/stale-cart-id-123/] });
  await page.goto("/cart");
  await page.getByText("Nothing here yet!").waitFor();
  await page.evaluate(() => localStorage.setItem("cartId", "stale-cart-id-123"));
  await page.reload();
  await page.getByText("Nothing here yet!").waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem("cartId")), null);
  assert.deepEqual(problems.errors, []);
});
