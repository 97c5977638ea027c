/**
 * Every page template, and the states a shopper or the owner meets (the admin's tabs, a paid
 * order's tracking page, a sold-out pack, a promo applied at checkout, an empty cart, /shop after
 * an add), at 390, 768 and 1280 px: no control, tab, label or status word broken mid-letter, none
 * overflowing or cut off, no two controls touching, chart labels whole and distinct, no page
 * scrolling sideways. One browser page does it all: each state is opened once and resized in
 * place (tests/e2e/helpers/layout.ts). The light theme's geometry stands for the dark one's,
 * whose CSS sets colours and nothing else (tests/unit/theme_css_test.ts).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { e2eTest } from "./helpers/e2e.ts";
import { TEMPLATE_PATHS } from "./helpers/accessibility.ts";
import { faultsAtEveryWidth, installLayoutFaults, LAYOUT_WIDTHS } from "./helpers/layout.ts";
import { austinBuyer, ownerPost, paidOrder, setSwitchStock } from "./helpers/api.ts";
import { waitForBadge } from "./helpers/browser.ts";
import { PACKS } from "../../shared/catalog/packs.ts";

const STARTER = PACKS[0];
/** Sold out for the test: one of its switches is set to none (and no Starter Pack switch). */
const SOLD_OUT = PACKS.find((p) => p.slug === "linear")!;
const SOLD_OUT_SWITCH = SOLD_OUT.switchIds.find((id) => !STARTER.switchIds.includes(id))!;

/** Where every state is opened, before it is widened (see faultsAtEveryWidth). */
const PHONE = { width: LAYOUT_WIDTHS[0], height: 900 };

/** Waits until the page has drawn what it loads: its heading and no request in flight. */
async function settled(page: Page): Promise<void> {
  await page.locator("h1").first().waitFor();
  await page.waitForLoadState("networkidle");
  await loaded(page);
}

/** Waits until no section of the page still says it is loading. */
async function loaded(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector("main .loading") === null);
}

e2eTest(
  "layout: no word broken, nothing cut off, no controls touching, at 390, 768 and 1280 px",
  async (e2e) => {
    const { shop } = e2e;
    // A long, ordinary email address, as the owner's tables meet them.
    const tracked = await paidOrder(
      shop.url,
      austinBuyer(
        "margaret.hamilton.apollo@example-university.edu",
        "Margaret Hamilton",
        "1 Main Street",
      ),
      STARTER.id,
    );
    const paid = await paidOrder(
      shop.url,
      austinBuyer("grace@example.com", "Grace Hopper", "2 Main Street"),
      STARTER.id,
    );
    const shipped = await paidOrder(
      shop.url,
      austinBuyer("alan@example.com", "Alan Turing", "3 Main Street"),
      STARTER.id,
    );
    // One order with a tracking number (Processing), one shipped (its link beside Mark
    // Delivered), one only paid.
    for (const orderNumber of [tracked, shipped]) {
      await ownerPost(shop, `/api/admin/orders/${orderNumber}/tracking`, {
        trackingNumber: "9400111122223333444455",
      });
    }
    await ownerPost(shop, "/api/admin/orders/ship-processed", { orderNumbers: [shipped] });
    await setSwitchStock(shop, SOLD_OUT_SWITCH, 0);

    const { page } = await e2e.newPage({ allow: [/./] });
    await installLayoutFaults(page);
    const found: string[] = [];
    const check = async (where: string) => found.push(...await faultsAtEveryWidth(page, where));
    // Each state opens on a phone and is widened from there (see faultsAtEveryWidth).
    const open = async (path: string) => {
      await page.setViewportSize(PHONE);
      await page.goto(path);
      await settled(page);
    };

    // Every template with an empty cart (the /cart template is the empty cart).
    for (const path of TEMPLATE_PATHS) {
      await open(path);
      await check(path);
    }
    for (
      const [path, where] of [
        [`/testers/${SOLD_OUT.slug}`, "a sold-out pack"],
        [`/order/track/${paid}`, "the tracking page of a paid order"],
        [`/order/track/${tracked}`, "the tracking page of an order with tracking"],
        [`/order/track/${shipped}`, "the tracking page of a shipped order"],
      ]
    ) {
      await open(path);
      await check(`${path} (${where})`);
    }

    // /shop after an add: "See your cart" beside the button.
    await open("/shop");
    await page.getByRole("button", { name: /^Add to Cart$/ }).first().click();
    await waitForBadge(page, 1);
    await page.getByRole("link", { name: "See your cart" }).first().waitFor();
    await check("/shop (after an add)");

    await open("/cart");
    await check("/cart (one line)");

    // /checkout with the banner's code applied: the code and its Remove button.
    await open("/checkout");
    await page.getByLabel("Promo code").fill("LATEDELIVERY");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByTestId("summary-discount").waitFor();
    // The focus moves to the code's Remove button (scrolling it into view) before measuring.
    await page.waitForFunction(() => document.activeElement?.id === "promo-remove");
    await check("/checkout (promo applied)");

    // The admin, each tab and each catalogue section.
    await page.setViewportSize(PHONE);
    await page.goto("/admin");
    await page.getByLabel("Enter admin password").fill(shop.adminPassword);
    await page.getByLabel("Enter admin password").press("Enter");
    await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();
    const tabs = page.getByRole("tablist", { name: "Admin sections" }).getByRole("tab");
    for (const name of await tabs.allInnerTexts()) {
      await page.setViewportSize(PHONE);
      await tabs.filter({ hasText: name }).click();
      await page.waitForLoadState("networkidle");
      await loaded(page);
      if (name === "Catalogue") {
        const sections = page.getByRole("tablist", { name: "Catalogue sections" })
          .getByRole("tab");
        await sections.first().waitFor();
        for (const section of await sections.allInnerTexts()) {
          await page.setViewportSize(PHONE);
          await sections.filter({ hasText: section }).click();
          await page.waitForLoadState("networkidle");
          await loaded(page);
          await check(`/admin (${name}: ${section})`);
        }
      } else {
        await check(`/admin (${name})`);
      }
    }
    // One line per fault, as a reader would list them (a deepEqual diff would print each twice).
    assert.ok(found.length === 0, `${found.length} layout faults:\n${found.join("\n")}`);
  },
);
