/**
 * A helper's print day, the whole of staff accounts in one journey in a real browser: the owner
 * invites a helper, the helper chooses a password, adds a passkey (Chromium's virtual
 * authenticator through the DevTools protocol) and signs in with it alone, tracks and ships a paid
 * order; the owner reads it in the Audit tab filtered to the helper, removes the helper, and the
 * helper's open dashboard signs them out on its next request, their passkey no longer known.
 */
import assert from "node:assert/strict";
import { e2eTest } from "./helpers/e2e.ts";
import { expectToast } from "./helpers/browser.ts";
import { austinBuyer, paidOrder } from "./helpers/api.ts";
import { listOutbox } from "../../server/email/outbox.ts";
import { addVirtualAuthenticator } from "./helpers/virtual_authenticator.ts";

const STARTER_PACK_ID = 384;
const HELPER = "helper@example.com";
const PASSWORD = "PrintDay2026";
const TRACKING = "9400 1111 2222 3333";

/** The invitation link's path as its recipient gets it, read from the shop's outbox. */
async function invitationPath(kvPath: string, to: string): Promise<string> {
  await using kv = await Deno.openKv(kvPath);
  const mail = (await listOutbox(kv)).find((e) =>
    e.email.to === to && /invited/.test(e.email.subject)
  );
  assert.ok(mail, `an invitation to ${to} is in the outbox`);
  return /\/admin\?token=[A-Za-z0-9_-]+/.exec(mail.email.text)![0];
}

e2eTest(
  "the owner invites a helper who signs in with a passkey, ships an order, is audited and removed",
  async (e2e) => {
    const { shop } = e2e;
    // 1. A paid order, nothing shipped.
    const buyer = austinBuyer("printday@example.com", "Print Day Buyer", "7 Main Street");
    const orderNumber = await paidOrder(shop.url, buyer, STARTER_PACK_ID);

    // 2. The owner invites the helper as Staff.
    const owner = await e2e.newPage();
    await owner.page.goto("/admin");
    await owner.page.getByLabel("Enter admin password").fill(shop.adminPassword);
    await owner.page.getByLabel("Enter admin password").press("Enter");
    await owner.page.getByText("Signed in as Owner (Owner)").waitFor();
    await owner.page.getByRole("tab", { name: "Staff" }).click();
    await owner.page.getByLabel("Email", { exact: true }).fill(HELPER);
    await owner.page.getByRole("button", { name: "Send invitation" }).click();
    await expectToast(owner.page, `Invitation sent to ${HELPER}`);
    const memberRow = owner.page.getByRole("row").filter({ hasText: HELPER });
    await memberRow.filter({ hasText: "Invited" }).filter({ hasText: "Staff" }).waitFor();

    // 3. The helper, in a browser of their own with a passkey reader. A passkey's relying party
    // is a domain name, never an IP address: the helper reaches the shop as localhost.
    const helper = await e2e.newPage({
      // After removal: the dashboard's next read and the forgotten passkey are refused (the
      // dashboard says the session ended, once).
      allow: [/401.*\/api\/admin\//, /Admin authentication required/],
    });
    const page = helper.page;
    const origin = shop.url.replace("127.0.0.1", "localhost");
    await addVirtualAuthenticator(page);
    await page.goto(`${origin}${await invitationPath(shop.kvPath, HELPER)}`);
    await page.getByLabel("Choose a password").fill(PASSWORD);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("link", { name: "Go to sign in" }).click();
    await page.getByLabel("Staff email").fill(HELPER);
    await page.getByLabel("Enter admin password").fill(PASSWORD);
    await page.getByLabel("Enter admin password").press("Enter");
    await page.getByText(`Signed in as ${HELPER} (Staff)`).waitFor();

    const tabs = page.getByRole("tablist", { name: "Admin sections" });
    await tabs.getByRole("tab", { name: "Security" }).click();
    await page.getByLabel("Name of the new passkey").fill("Print room laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expectToast(page, "Passkey added");
    await page.getByLabel("I saved them").check();
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("button", { name: "Remove Print room laptop" }).waitFor();

    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expectToast(page, "Admin access granted");
    await page.getByText(`Signed in as ${HELPER} (Staff)`).waitFor();
    assert.equal(await page.getByLabel("Enter admin password").count(), 0, "no password typed");

    // 4. Orders, and none of the owner's tabs.
    await tabs.getByRole("tab", { name: "Orders" }).waitFor();
    for (const name of ["Staff", "API Keys", "Audit", "Catalogue"]) {
      assert.equal(await tabs.getByRole("tab", { name }).count(), 0, `no ${name} tab`);
    }
    await tabs.getByRole("tab", { name: "Orders" }).click();
    const newOrders = page.getByTestId("new-orders");
    await newOrders.getByLabel(`Tracking number for ${orderNumber}`).fill(TRACKING);
    await newOrders.getByRole("button", { name: `Add tracking number to order ${orderNumber}` })
      .click();
    await expectToast(page, "Tracking number added successfully");
    await page.getByRole("button", { name: "Ship Orders" }).click();
    const dialog = page.getByRole("dialog", { name: "Ship 1 order?" });
    await dialog.getByText(orderNumber).waitFor();
    await dialog.getByRole("button", { name: "Ship 1 order" }).click();
    await expectToast(page, "1 order marked as shipped");
    await page.getByTestId("processed-orders").getByTestId("admin-order")
      .filter({ hasText: orderNumber }).filter({ hasText: "Shipped" }).waitFor();

    // 5. The owner reads the helper's day in the Audit tab, filtered to the helper.
    await owner.page.getByRole("tab", { name: "Audit" }).click();
    await owner.page.getByLabel("Person").selectOption({ label: HELPER });
    await owner.page.getByRole("button", { name: "Show" }).click();
    await owner.page.getByText(/entries matching, newest first/).waitFor();
    const entries = owner.page.getByTestId("audit-entry");
    const texts = await entries.allInnerTexts();
    assert.ok(texts.every((t) => t.includes(HELPER)), `only the helper's entries: ${texts}`);
    const tracked = texts.find((t) => /order\.tracking/.test(t));
    assert.ok(tracked?.includes(orderNumber), `the tracking number names the order: ${texts}`);
    const shipped = texts.find((t) => /order\.shipped/.test(t));
    assert.ok(shipped?.includes(orderNumber), `the shipment names the order: ${texts}`);
    assert.ok(texts.indexOf(shipped!) < texts.indexOf(tracked!), "newest first");
    assert.ok(
      texts.filter((t) => /\bsign_in\b/.test(t)).length >= 2,
      `both sign-ins: ${texts}`,
    );

    // 6. The owner removes the helper, asked once.
    await owner.page.getByRole("tab", { name: "Staff" }).click();
    await memberRow.getByRole("button", { name: `Remove ${HELPER}` }).click();
    await owner.page.getByRole("dialog").getByRole("button", { name: `Remove ${HELPER}` }).click();
    await expectToast(owner.page, `${HELPER} was removed and signed out`);
    await owner.page.getByText("Nobody else has access yet").waitFor();
    // What the helper did stays readable by their name once they are gone.
    await owner.page.getByRole("tab", { name: "Audit" }).click();
    await owner.page.getByLabel("Person").selectOption({ label: HELPER });
    await owner.page.getByRole("button", { name: "Show" }).click();
    await entries.filter({ hasText: "order.shipped" }).waitFor();

    // 7. The helper's open dashboard: the next action signs them out, saying so.
    await page.getByRole("button", { name: "Refresh" }).click();
    await expectToast(page, "Your admin session has ended. Please log in again.");
    await page.getByRole("heading", { name: "Admin Access" }).waitFor();
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expectToast(page, "This passkey is not known to the shop.");
    await page.getByRole("heading", { name: "Admin Access" }).waitFor();
    const status = await page.evaluate(async () => (await fetch("/api/admin/session")).status);
    assert.equal(status, 401, "no session opened");

    assert.deepEqual(owner.problems.errors, []);
    assert.deepEqual(helper.problems.errors, []);
  },
);
