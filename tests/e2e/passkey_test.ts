/**
 * Passkeys in a real browser: Chromium's virtual authenticator (the DevTools protocol's WebAuthn
 * domain: a platform authenticator keeping discoverable credentials and verifying its user) stands
 * in for a laptop's fingerprint reader. The owner adds a passkey, signs in with it alone, and
 * then finds the password alone no longer opens the dashboard.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { axeFindings } from "./helpers/axe.ts";
import { e2eTest } from "./helpers/e2e.ts";
import { expectToast, turnTheme } from "./helpers/browser.ts";
import { addVirtualAuthenticator } from "./helpers/virtual_authenticator.ts";
import { Secret, TOTP } from "otpauth";

/** No serious or critical axe finding (WCAG 2.1 A and AA) on the page as it is now. */
async function axe(page: Page, when: string): Promise<void> {
  assert.deepEqual(await axeFindings(page), [], when);
}

e2eTest(
  "the owner adds a passkey, signs in with it, and the password alone is refused",
  async (e2e) => {
    const { page, problems } = await e2e.newPage({
      // The password step answers no session: the dashboard's own session check then says 401.
      // A wrong code to remove the authenticator app is refused with 401 too.
      allow: [/401.*\/api\/admin\/(session|orders|factors\/totp)/],
    });
    // A passkey's relying party is a domain name, never an IP address: the shop is reached as
    // localhost (a secure context, as https is in production).
    const origin = e2e.shop.url.replace("127.0.0.1", "localhost");
    await addVirtualAuthenticator(page);

    await page.goto(`${origin}/admin`);
    await page.getByLabel("Enter admin password").fill(e2e.shop.adminPassword);
    await page.getByRole("button", { name: "Access Admin Panel" }).click();
    await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();

    await page.getByRole("tab", { name: "Security" }).click();
    await page.getByLabel("Name of the new passkey").fill("Laptop");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expectToast(page, "Passkey added");
    // The first factor hands out recovery codes, shown once until the owner says they are saved.
    assert.equal(await page.getByTestId("recovery-codes").locator("li").count(), 10);
    await axe(page, "the Security tab showing recovery codes");
    await turnTheme(page, "dark");
    await axe(page, "the Security tab showing recovery codes, dark theme");
    await page.getByLabel("I saved them").check();
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("button", { name: "Remove Laptop" }).waitFor();

    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expectToast(page, "Admin access granted");
    await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();

    // The password alone now leads to the second step, with no session behind it.
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByLabel("Enter admin password").fill(e2e.shop.adminPassword);
    await page.getByRole("button", { name: "Access Admin Panel" }).click();
    await page.getByRole("heading", { name: "Second step" }).waitFor();
    await axe(page, "the sign-in's second step");
    const status = await page.evaluate(async () => (await fetch("/api/admin/session")).status);
    assert.equal(status, 401, "the password alone opened no session");
    const script = await page.evaluate(
      async (password) =>
        (await fetch("/api/admin/orders", { headers: { Authorization: `Bearer ${password}` } }))
          .status,
      e2e.shop.adminPassword,
    );
    assert.equal(script, 401, "nor does the password as a bearer token");
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.getByRole("heading", { name: "Admin Dashboard" }).waitFor();

    // An authenticator app beside the passkey; a wrong code to remove it is refused with 401
    // ("Wrong code"), which is the code's refusal, not the session's end: the owner is told so
    // and stays signed in.
    await page.getByRole("tab", { name: "Security" }).click();
    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    const secret = await page.getByTestId("totp-secret").textContent();
    const app = new TOTP({
      algorithm: "SHA1",
      digits: 6,
      period: 30,
      secret: Secret.fromBase32(secret!),
    });
    await page.getByLabel("Code the app shows now").fill(app.generate());
    await page.getByRole("button", { name: "Confirm" }).click();
    await expectToast(page, "Authenticator app set up");
    const current = app.generate();
    await page.getByLabel("Current code (to remove the app)").fill(
      current === "000000" ? "111111" : "000000",
    );
    await page.getByRole("button", { name: "Remove the app" }).click();
    await expectToast(page, "Wrong code");
    assert.ok(await page.getByTestId("totp-status").isVisible(), "the app is still set up");
    assert.equal(await page.getByRole("heading", { name: "Admin Dashboard" }).count(), 1);
    assert.deepEqual(
      await page.getByRole("status").filter({ hasText: /session has ended/ }).allTextContents(),
      [],
    );
    assert.deepEqual(problems.errors, []);
  },
);
