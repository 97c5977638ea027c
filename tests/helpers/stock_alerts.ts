/** Back-in-stock helpers: the mails a mailbox got, and following a confirmation link. */
import assert from "node:assert/strict";
import type { TestApp } from "./test_app.ts";
import type { Email } from "../../server/email/mailer.ts";

/** The confirmation link's token in an email, if it carries one. */
export function confirmTokenIn(email: Email): string | null {
  return /\/stock-alerts\/confirm\?token=([A-Za-z0-9_-]+)/.exec(email.text)?.[1] ?? null;
}

/** Confirmation emails sent so far (after delivering what is queued) to addresses `to` accepts. */
export async function confirmationMails(
  t: TestApp,
  to: (address: string) => boolean,
): Promise<Email[]> {
  await t.deliverEmails();
  return t.mailer.sent.filter((e) => to(e.to) && confirmTokenIn(e) !== null);
}

/** Back-in-stock alerts sent so far (after delivering what is queued) to addresses `to` accepts. */
export async function alertMails(t: TestApp, to: (address: string) => boolean): Promise<Email[]> {
  await t.deliverEmails();
  return t.mailer.sent.filter((e) => to(e.to) && /is back in stock$/.test(e.subject));
}

/** Presses the button of the newest confirmation link `address` was sent. */
export async function confirmAddress(t: TestApp, address: string): Promise<void> {
  const mails = await confirmationMails(t, (to) => to === address);
  assert.ok(mails.length > 0, `no confirmation was sent to ${address}`);
  const token = confirmTokenIn(mails.at(-1)!)!;
  const res = await t.request(`/stock-alerts/confirm?token=${token}`, { method: "POST" });
  assert.equal(res.status, 200, res.text);
}
