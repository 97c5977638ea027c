/**
 * Staff accounts in a real browser: the owner invites a helper from the Staff tab, the helper
 * chooses a password from the emailed link and signs in with their email (Orders, no Staff tab),
 * sees their session in the Security tab, and once the owner removes them, their open dashboard's
 * next action signs them out with a sentence saying so.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { axeFindings } from "./helpers/axe.ts";
import { e2eTest } from "./helpers/e2e.ts";
import { expectToast, settle } from "./helpers/browser.ts";
import { austinBuyer, paidOrder } from "./helpers/api.ts";
import { listOutbox } from "../../server/email/outbox.ts";

const HELPER = "helper@example.com";
const STARTER_PACK_ID = 384;
const PASSWORD = "PrintDay2026";

/** The invitation link as its recipient gets it, read from the shop's outbox (the Emails tab hides it). */
async function invitationLink(kvPath: string, to: string): Promise<string> {
  await using kv = await Deno.openKv(kvPath);
  const mail = (await listOutbox(kv)).find((e) =>
    e.email.to === to && /invited/.test(e.email.subject)
  );
  assert.ok(mail, `an invitation to ${to} is in the outbox`);
  return /\/admin\?token=[A-Za-z0-9_-]+/.exec(mail.email.text)![0];
}

/** Fails on a serious or critical accessibility violation in what `page` shows now. */
async function accessible(page: Page, what: string): Promise<void> {
  assert.deepEqual(await axeFindings(page), [], `${what}: accessibility violations`);
}

e2eTest(
  "the owner invites a helper, who signs in without the Staff tab, and is removed",
  async (e2e) => {
    const { shop } = e2e;
    // A paid order, for the helper's last action.
    const buyer = austinBuyer("staff@example.com", "Staff Test Buyer", "9 Main Street");
    const orderNumber = await paidOrder(shop.url, buyer, STARTER_PACK_ID);
    const owner = await e2e.newPage();
    await owner.page.goto("/admin");
    await owner.page.getByLabel("Staff email").waitFor();
    await accessible(owner.page, "the sign-in form");
    await owner.page.getByLabel("Enter admin password").fill(shop.adminPassword);
    await owner.page.getByLabel("Enter admin password").press("Enter");
    await owner.page.getByText("Signed in as Owner (Owner)").waitFor();
    await owner.page.getByRole("tab", { name: "Staff" }).click();
    // The shared schema speaks beside the field before anything is sent.
    await owner.page.getByRole("button", { name: "Send invitation" }).click();
    await owner.page.getByText("Please enter a valid email address").waitFor();
    await owner.page.getByLabel("Email", { exact: true }).fill(HELPER);
    await owner.page.getByRole("button", { name: "Send invitation" }).click();
    await expectToast(owner.page, `Invitation sent to ${HELPER}`);
    const row = owner.page.getByRole("row").filter({ hasText: HELPER });
    await row.filter({ hasText: "Invited" }).waitFor();
    await accessible(owner.page, "the Staff tab");

    // The helper, in a browser of their own, follows the emailed link.
    // Expected: the orders read after removal is refused.
    const helper = await e2e.newPage({ allow: [/401.*\/api\/admin\//] });
    await helper.page.goto(await invitationLink(shop.kvPath, HELPER));
    await helper.page.getByLabel("Choose a password").waitFor();
    await accessible(helper.page, "the invitation page");
    await helper.page.getByLabel("Choose a password").fill(PASSWORD);
    await helper.page.getByRole("button", { name: "Set password" }).click();
    await helper.page.getByRole("link", { name: "Go to sign in" }).click();
    await helper.page.getByLabel("Staff email").fill(HELPER);
    await helper.page.getByLabel("Enter admin password").fill(PASSWORD);
    await helper.page.getByLabel("Enter admin password").press("Enter");
    await helper.page.getByText(`Signed in as ${HELPER} (Staff)`).waitFor();
    const tabs = helper.page.getByRole("tablist", { name: "Admin sections" });
    assert.ok(await tabs.getByRole("tab", { name: "Orders" }).isVisible());
    assert.equal(await tabs.getByRole("tab", { name: "Staff" }).count(), 0, "no Staff tab");
    await tabs.getByRole("tab", { name: "Security" }).click();
    await helper.page.getByRole("heading", { name: "Your sessions" }).waitFor();
    await helper.page.getByText("This device").waitFor();
    await accessible(helper.page, "the Security tab");
    assert.equal(
      await helper.page.getByRole("heading", { name: "Everyone's sessions" }).count(),
      0,
    );
    await tabs.getByRole("tab", { name: "Orders" }).click();
    // The order is listed before the helper is removed (a read made after would close the page).
    await helper.page.getByLabel(`Tracking number for ${orderNumber}`).waitFor();

    // The owner sees the helper joined, and removes them (asked once).
    await owner.page.getByRole("button", { name: "Refresh" }).click();
    await row.filter({ hasText: "Active" }).waitFor();
    await row.getByRole("button", { name: `Remove ${HELPER}` }).click();
    await owner.page.getByRole("dialog").getByRole("button", { name: `Remove ${HELPER}` }).click();
    await expectToast(owner.page, `${HELPER} was removed and signed out`);
    await owner.page.getByText("Nobody else has access yet").waitFor();

    // The helper's open dashboard: its next action (a tracking number) is refused and says they
    // were signed out, once: not again by the form, nor by the list's reload after it.
    const newOrders = helper.page.getByTestId("new-orders");
    await newOrders.getByLabel(`Tracking number for ${orderNumber}`).fill("9400111899223344551234");
    await newOrders.getByRole("button", { name: `Add tracking number to order ${orderNumber}` })
      .click();
    await expectToast(helper.page, "Your admin session has ended. Please log in again.");
    await helper.page.getByRole("heading", { name: "Admin Access" }).waitFor();
    await settle(helper.page);
    assert.equal(
      await helper.page.getByRole("status").filter({ hasText: /session has ended/ }).count(),
      1,
    );
    assert.deepEqual(owner.problems.errors, []);
  },
);
