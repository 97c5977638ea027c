/**
 * A passkey reader for browser tests: Chromium's virtual authenticator, attached through the
 * DevTools protocol, acting as a laptop's built-in reader (discoverable credentials, user
 * verification that always succeeds, presence given without a touch).
 */
import type { Page } from "playwright-core";

/** Attaches a virtual platform authenticator to `page`'s browser context. */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}
