/**
 * The Audit tab in a real browser: the owner's own moves listed newest first with who, from where
 * and what changed, the kind filter, the CSV export, axe in both themes, and one card per entry
 * on a phone.
 */
import assert from "node:assert/strict";
import { axeFindings } from "./helpers/axe.ts";
import { e2eTest } from "./helpers/e2e.ts";
import { ownerPost, paidOrder } from "./helpers/api.ts";
import { settle, turnTheme } from "./helpers/browser.ts";

const STARTER_PACK_ID = 384;

e2eTest("the owner reads who did what in the Audit tab, filters it and exports it", async (e2e) => {
  const { shop } = e2e;
  const buyer = {
    email: "audit@example.com",
    name: "Audit Buyer",
    address: {
      street: "1 Main Street",
      apartment: "",
      city: "Austin",
      state: "TX",
      zipCode: "73301",
      country: "US",
    },
  };
  const orderNumber = await paidOrder(shop.url, buyer, STARTER_PACK_ID);
  // A script's move, with the admin password as a bearer token: recorded as the owner's.
  await ownerPost(shop, `/api/admin/orders/${orderNumber}/tracking`, {
    trackingNumber: "9400 1111 2222",
  });

  const { page, problems } = await e2e.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto("/admin");
  await page.getByLabel("Enter admin password").fill(shop.adminPassword);
  await page.getByLabel("Enter admin password").press("Enter");
  await page.getByRole("tab", { name: "Audit" }).click();
  const rows = page.getByTestId("audit-entry");
  // The script's move, then the owner's sign-in (the dashboard's own, recorded since sign-ins
  // are audited).
  await page.getByText("2 entries, newest first").waitFor();
  assert.match(await rows.first().innerText(), /Owner\s+\S+\s+sign_in/);
  const row = await rows.nth(1).innerText();
  assert.match(row, /Owner/);
  assert.match(row, /order\.tracking/);
  assert.ok(row.includes(orderNumber), `the order is named: ${row}`);
  assert.match(row, /status PAYMENT_RECEIVED -> PROCESSING/);

  // A choice whose answer is slow: until it comes, the count never calls the entries still shown
  // "matching"; and a later choice answered first is not overwritten when the slow one arrives.
  const count = page.getByRole("status").filter({ hasText: /newest first/ });
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  const slow = /\/api\/admin\/audit\?.*kind=stock/;
  await page.route(slow, async (route) => {
    await held;
    await route.continue();
  });
  const asked = page.waitForRequest(slow);
  await page.getByLabel("Kind").selectOption("stock");
  await page.getByRole("button", { name: "Show" }).click();
  await asked;
  await settle(page);
  assert.equal(
    await count.innerText(),
    "2 entries, newest first",
    "the entries shown are not stock ones",
  );
  await page.getByLabel("Kind").selectOption("");
  await page.getByRole("button", { name: "Show" }).click();
  const answered = page.waitForResponse(slow);
  release();
  await answered;
  await settle(page);
  assert.equal(await count.innerText(), "2 entries, newest first", "the later choice stays shown");
  assert.match(await rows.nth(1).innerText(), /order\.tracking/);
  await page.unroute(slow);

  // A kind with nothing in it.
  await page.getByLabel("Kind").selectOption("stock");
  await page.getByRole("button", { name: "Show" }).click();
  await page.getByText("Nothing recorded for this choice.").waitFor();

  // Back to everything, and the export: the file holds the entry, and the export is recorded.
  await page.getByLabel("Kind").selectOption("");
  await page.getByRole("button", { name: "Show" }).click();
  await page.getByText("2 entries, newest first").waitFor();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export CSV" }).click(),
  ]);
  assert.equal(download.suggestedFilename(), "audit_log.csv");
  const csv = await Deno.readTextFile((await download.path())!);
  assert.ok(csv.includes(orderNumber), "the CSV lists the entry");
  await page.getByRole("button", { name: "Refresh" }).click();
  await page.getByText("3 entries, newest first").waitFor();
  assert.match(await rows.first().innerText(), /export\.audit/);

  // Accessible in both themes (once every toast is gone: axeFindings waits for that).
  for (const colorScheme of ["light", "dark"] as const) {
    await turnTheme(page, colorScheme);
    assert.deepEqual(await axeFindings(page), [], `Audit tab, ${colorScheme} theme`);
  }

  // A phone: each entry is a card of labelled fields, not a squeezed table row.
  await page.setViewportSize({ width: 390, height: 844 });
  assert.equal(await rows.first().evaluate((tr) => getComputedStyle(tr).display), "block");
  assert.deepEqual(problems.errors, []);
});
