/** Emails that tell the owner something in the shop's machinery needs them. */
import { escapeHtml } from "../../shared/html.ts";
import type { Email } from "./mailer.ts";

function page(lines: string[], origin: string, link: string): string {
  return [
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    `<p><a href="${escapeHtml(`${origin}/admin`)}">${escapeHtml(link)}</a></p>`,
  ].join("\n");
}

/**
 * Mail has been failing for a while: the owner learns it once per outage (this email waits in the
 * outbox with the others, so it arrives as soon as mail works again; the dashboard says it
 * meanwhile).
 */
export function mailFailingEmail(
  failure: { since: number; lastError: string; waiting: number; giveUpHours: number },
  origin: string,
  shopEmail: string,
): Email {
  const since = new Date(failure.since).toISOString().replace("T", " ").slice(0, 16);
  const lines = [
    `Emails from the shop have been failing since ${since} UTC.`,
    `The mail server answered: ${failure.lastError}`,
    `${failure.waiting} ${
      failure.waiting === 1 ? "email waits" : "emails wait"
    } in the outbox. Each is tried again on a schedule for ${failure.giveUpHours} hours after it was written; one that still fails then is marked failed, and you can resend it from the Emails tab.`,
    "Check SMTP_URL, the mail provider's status and its sending limits.",
  ];
  return {
    to: shopEmail,
    subject: "Emails are not going out",
    text: [...lines, "", `The Emails tab: ${origin}/admin`].join("\n"),
    html: page(lines, origin, "Open the Emails tab"),
  };
}
