/**
 * The tracking field's own error, as the owner meets it when the server refuses a number (a tab
 * opened before the rule changed): the message beside the field is the answer to the last try,
 * and an answer that arrives late does not pull the focus from where the owner moved on to.
 */
import assert from "node:assert/strict";
import type { Route } from "playwright-core";
import { e2eTest } from "./helpers/e2e.ts";
import { austinBuyer, paidOrder } from "./helpers/api.ts";
import { expectToast } from "./helpers/browser.ts";
import { PACKS } from "../../shared/catalog/packs.ts";

const REFUSED = "That tracking number is not one the carrier issues";
const CONFLICT = "Cannot add a tracking number to an order that is CANCELLED";

e2eTest(
  "a tracking number's field error follows the last answer and leaves the focus alone",
  async (e2e) => {
    const { shop } = e2e;
    const buyer = (n: number) =>
      austinBuyer(`owner${n}@example.com`, `Buyer ${n}`, `${n} Main Street`);
    const first = await paidOrder(shop.url, buyer(1), PACKS[0].id);
    const second = await paidOrder(shop.url, buyer(2), PACKS[0].id);
    const { page, problems } = await e2e.newPage({ allow: [/\/tracking/] });

    // The server's answers, each given when the test says: a 400 about the number, then a 409.
    const waiting: Route[] = [];
    let arrived: (() => void) | null = null;
    await page.route("**/api/admin/orders/*/tracking", (route) => {
      waiting.push(route);
      arrived?.();
    });
    async function answer(status: number, error: string): Promise<void> {
      if (waiting.length === 0) await new Promise<void>((resolve) => (arrived = resolve));
      const route = waiting.shift()!;
      await route.fulfill({
        status,
        contentType: "application/json",
        body: JSON.stringify({ error }),
      });
    }

    await page.goto("/admin");
    await page.getByLabel("Enter admin password").fill(shop.adminPassword);
    await page.getByLabel("Enter admin password").press("Enter");
    await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();
    const row = page.getByTestId("new-orders").locator(`[data-order="${first}"]`);
    const field = row.getByLabel(`Tracking number for ${first}`);
    const other = page.getByTestId("new-orders").getByLabel(`Tracking number for ${second}`);
    await field.fill("9400111122223333444455");
    /** Waits until the field is marked invalid (or not): the last answer has been drawn. */
    async function settled(invalid: boolean): Promise<void> {
      await page.waitForFunction(
        ([id, want]) =>
          (document.getElementById(id)?.getAttribute("aria-invalid") === "true") === want,
        [`tracking-${first}`, invalid] as const,
      );
    }

    // A refusal about the number: beside the field, which it marks and describes.
    await row.getByRole("button", { name: /^Add tracking number/ }).click();
    await answer(400, REFUSED);
    await expectToast(page, REFUSED);
    assert.equal(await field.getAttribute("aria-invalid"), "true");

    // The same number again, now refused for another reason (the order was cancelled meanwhile),
    // while the owner has moved on to the next order's field: the old message about the number
    // goes, and the focus stays where the owner put it.
    await row.getByRole("button", { name: /^Add tracking number/ }).click();
    await other.focus();
    await answer(409, CONFLICT);
    await expectToast(page, CONFLICT);
    // The toast is raised before the field's state is drawn: wait for the answer to land.
    await settled(false);
    assert.equal(await field.getAttribute("aria-invalid"), null, "no stale mark on the field");
    assert.equal(await row.getByText(REFUSED).count(), 0, "no stale message beside the field");
    assert.ok(await other.evaluate((el) => el === document.activeElement), "focus not taken back");

    // A late refusal about the number does not pull the focus back either, though it is shown.
    await row.getByRole("button", { name: /^Add tracking number/ }).click();
    await other.focus();
    await answer(400, REFUSED);
    // The first refusal's toast may still be up (errors stay 6 s): wait for the field instead.
    await settled(true);
    assert.equal(await field.getAttribute("aria-invalid"), "true");
    assert.ok(await other.evaluate((el) => el === document.activeElement), "focus not taken back");
    assert.deepEqual(problems.errors, []);
  },
);
