/**
 * Shopper self-service in a real browser: a password reset from the emailed link, a guest
 * cancelling a paid order from its tracking page, a back-in-stock sign-up on a sold-out pack,
 * confirmed from its emailed link, that the owner's restock answers with an email, and a shopper
 * downloading then deleting their data.
 */
import assert from "node:assert/strict";
import { e2eTest } from "./helpers/e2e.ts";
import { expectToast } from "./helpers/browser.ts";
import { paidOrder, setSwitchStock } from "./helpers/api.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { listOutbox } from "../../server/email/outbox.ts";

const STARTER = PACKS[0];

/** The emails the shop sent to `to`, newest first, through the owner's Emails route. */
async function emailsTo(shop: { url: string; adminPassword: string }, to: string) {
  const res = await fetch(`${shop.url}/api/admin/emails?to=${encodeURIComponent(to)}`, {
    headers: { Authorization: `Bearer ${shop.adminPassword}` },
  });
  assert.equal(res.status, 200);
  return await res.json() as { subject: string; text: string }[];
}

/** Waits (bounded) for an email to `to` whose subject matches. */
async function waitForEmail(
  shop: { url: string; adminPassword: string },
  to: string,
  subject: RegExp,
): Promise<{ subject: string; text: string }> {
  for (let i = 0; i < 100; i++) {
    const found = (await emailsTo(shop, to)).find((e) => subject.test(e.subject));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no email to ${to} matching ${subject}`);
}

/**
 * The text of the newest email to `to` whose subject matches, as its recipient gets it: read
 * (bounded) from the shop's outbox, since the owner's Emails route hides the secrets of links.
 */
async function mailAsReceived(kvPath: string, to: string, subject: RegExp): Promise<string> {
  await using kv = await Deno.openKv(kvPath);
  for (let i = 0; i < 100; i++) {
    const mail = (await listOutbox(kv)).find((e) =>
      e.email.to === to && subject.test(e.email.subject)
    );
    if (mail) return mail.email.text;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no email to ${to} matching ${subject} in the outbox`);
}

/** The back-in-stock confirmation link sent to `to`. */
async function confirmationLink(kvPath: string, to: string): Promise<string> {
  const text = await mailAsReceived(kvPath, to, /confirm/i);
  return /\S+\/stock-alerts\/confirm\?token=[A-Za-z0-9_-]+/.exec(text)![0];
}

const BUYER = {
  email: "gia@example.com",
  name: "Gia Guest",
  address: {
    street: "9 Elm Street",
    apartment: "",
    city: "Austin",
    state: "TX",
    zipCode: "73301",
    country: "US",
  },
};

e2eTest("a forgotten password is reset from the emailed link", async (e2e) => {
  const { shop } = e2e;
  const account = { email: "hal@example.com", password: "OldPassw0rd" };
  const res = await fetch(`${shop.url}/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(account),
  });
  assert.equal(res.status, 201);
  const { page } = await e2e.newPage({ allow: [/401.*\/auth\/login/] });
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await page.getByRole("heading", { name: "Restore password" }).waitFor();
  await page.getByRole("button", { name: "Email me a link" }).click();
  await page.getByText("Please enter a valid email address").waitFor();
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Email me a link" }).click();
  await page.getByRole("heading", { name: "Check your email" }).waitFor();

  const text = await mailAsReceived(shop.kvPath, account.email, /reset your password/);
  const link = /\/restore-password\?token=\S+/.exec(text)![0];
  await page.goto(link);
  await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Set new password" }).click();
  assert.equal(
    await page.getByLabel("New password", { exact: true }).getAttribute("aria-invalid"),
    "true",
  );
  await page.getByLabel("New password", { exact: true }).fill("NewPassw0rd");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expectToast(page, "Your password is changed. Sign in with the new one.");
  await page.waitForURL((url) => url.pathname === "/login");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill("NewPassw0rd");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === "/");

  // The same link a second time says so and offers a new one.
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("Another1pass");
  await page.getByRole("button", { name: "Set new password" }).click();
  await page.getByRole("heading", { name: "This link no longer works" }).waitFor();
  assert.ok(await page.getByRole("link", { name: "Ask for a new link" }).isVisible());
});

e2eTest("a guest cancels a paid order from its tracking page", async (e2e) => {
  const { shop } = e2e;
  const orderNumber = await paidOrder(shop.url, BUYER, STARTER.id);
  const { page } = await e2e.newPage({ allow: [/404.*\/cancel/] });
  await page.goto(`/order/track/${orderNumber}`);
  await page.getByRole("button", { name: "Cancel order" }).click();
  const email = page.getByLabel("Email address of the order");
  await email.fill("someone@example.com");
  await page.getByRole("button", { name: "Cancel order and refund" }).click();
  await page.getByText("That is not the email address of this order").waitFor();
  await email.fill(BUYER.email);
  await page.getByRole("button", { name: "Cancel order and refund" }).click();
  await expectToast(page, "Order cancelled: $18.98 will be refunded");
  await page.getByRole("heading", { name: "This order was cancelled" }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Cancel order" }).count(), 0);
  await waitForEmail(shop, BUYER.email, /cancelled/);
});

e2eTest("a sold-out pack takes a back-in-stock sign-up, and the restock emails it", async (e2e) => {
  const { shop } = e2e;
  const switchId = STARTER.switchIds[0];
  await setSwitchStock(shop, switchId, 0);
  const { page } = await e2e.newPage();
  await page.goto(`/testers/${STARTER.slug}`);
  await page.getByText("Out of Stock").first().waitFor();
  await page.getByRole("button", { name: /Email me when it's back/ }).click();
  await page.getByLabel("Your email").fill("not-an-email");
  await page.getByRole("button", { name: "Notify me" }).click();
  await page.getByText("Please enter a valid email address").waitFor();
  await page.getByLabel("Your email").fill("ivy@example.com");
  await page.getByRole("button", { name: "Notify me" }).click();
  await page.getByText(
    `Check your inbox: we email this address a link to confirm, and its newest link confirms everything it asked for. Once it is confirmed, we will email ivy@example.com once when ${STARTER.title} is back.`,
  ).waitFor();

  // The confirmation link, as the shop's outbox holds it: opening it asks, its button confirms.
  const link = await confirmationLink(shop.kvPath, "ivy@example.com");
  await page.goto(link);
  await page.getByRole("heading", { name: "Confirm back-in-stock emails?" }).waitFor();
  await page.getByRole("button", { name: "Confirm" }).click();
  await page.getByRole("heading", { name: "Confirmed" }).waitFor();

  // The owner sees who waits, in the inventory.
  const owner = await e2e.newPage();
  await owner.page.goto("/admin");
  await owner.page.getByLabel("Enter admin password").fill(shop.adminPassword);
  await owner.page.getByLabel("Enter admin password").press("Enter");
  await owner.page.getByRole("tab", { name: "Inventory" }).click();
  await owner.page.getByText(`${STARTER.title}: 1 shopper`).waitFor();

  await setSwitchStock(shop, switchId, 20);
  const mail = await waitForEmail(shop, "ivy@example.com", /back in stock/);
  assert.match(mail.text, new RegExp(`/testers/${STARTER.slug}`));
  assert.match(mail.text, /\/stock-alerts\/unsubscribe\?token=/);
});

e2eTest("a signed-in shopper downloads their data and deletes the account", async (e2e) => {
  const { shop } = e2e;
  const account = { email: "jo@example.com", password: "Passw0rdJo" };
  await fetch(`${shop.url}/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(account),
  });
  const { page } = await e2e.newPage({ allow: [/401.*\/auth\/me/] });
  await page.goto("/login");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await page.goto("/account/orders");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download my data" }).click(),
  ]);
  assert.equal(download.suggestedFilename(), "my_data.json");
  const data = JSON.parse(await Deno.readTextFile((await download.path())!));
  assert.equal(data.account.email, account.email);

  await page.getByRole("button", { name: "Delete my account" }).click();
  await page.getByLabel("Your password, to confirm").fill("wrong-password");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await page.getByText("That password is not right, so the account was not deleted").waitFor();
  await page.getByLabel("Your password, to confirm").fill(account.password);
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expectToast(page, "Your account is deleted");
  await page.waitForURL((url) => url.pathname === "/");
  const login = await fetch(`${shop.url}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(account),
  });
  assert.equal(login.status, 401);
});
