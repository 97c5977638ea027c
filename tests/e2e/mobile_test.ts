/**
 * A 390 px phone: the cart and its count in the top bar, and long unbroken text (a customer name
 * without spaces) wrapping on the order page and in the admin's table instead of widening them.
 */
import assert from "node:assert/strict";
import { e2eTest } from "./helpers/e2e.ts";
import { austinBuyer, paidOrder } from "./helpers/api.ts";
import { waitForBadge } from "./helpers/browser.ts";

const LONG_NAME = "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaftschaferswessen";

e2eTest("on a phone: the cart in the top bar, and long names wrap", async (e2e) => {
  const { shop } = e2e;
  const buyer = austinBuyer("long@example.com", LONG_NAME, `1 ${LONG_NAME} Strasse`);
  const orderNumber = await paidOrder(shop.url, buyer, 384);
  const { page } = await e2e.newPage({ viewport: { width: 390, height: 800 } });
  await page.goto("/shop");
  await page.getByRole("button", { name: /^Add to Cart$/ }).first().click();
  await waitForBadge(page, 1);
  const topBar = page.getByRole("link", { name: "Cart, 1 item" });
  assert.ok(await topBar.isVisible(), "the cart and its count in the top bar");
  assert.equal(await page.getByTestId("top-bar-cart-badge").innerText(), "1");

  const wide = () =>
    page.evaluate(() =>
      document.documentElement.scrollWidth > document.documentElement.clientWidth
    );
  await page.goto(`/order/track/${orderNumber}`);
  await page.getByText(LONG_NAME).first().waitFor();
  assert.equal(await wide(), false, "the order page does not scroll sideways");

  await page.goto("/admin");
  await page.getByLabel("Enter admin password").fill(shop.adminPassword);
  await page.getByLabel("Enter admin password").press("Enter");
  await page.getByText(LONG_NAME).first().waitFor();
  const cell = page.locator('[data-testid="admin-order"] td').filter({ hasText: LONG_NAME })
    .first();
  const overflow = await cell.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  assert.equal(overflow, false, "the name wraps inside its cell");
});
