/** Emails about a shopper's account and what they asked to hear about. */
import { escapeHtml } from "../../shared/html.ts";
import { SHOP_NAME } from "../../shared/policy.ts";
import type { Email } from "../email/mailer.ts";

function page(lines: string[], link: { href: string; text: string }): string {
  return [
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>`,
  ].join("\n");
}

/** The reset link, valid for an hour and once. */
export function passwordResetEmail(to: string, link: string): Email {
  const lines = [
    "Someone (we hope you) asked to reset the password of your account.",
    "The link below works once, for one hour. Choosing a new password signs you out everywhere.",
    "If you did not ask for this, ignore this email: your password stays as it is.",
  ];
  return {
    to,
    subject: `${SHOP_NAME}: reset your password`,
    text: [...lines, "", `Set a new password: ${link}`].join("\n"),
    html: page(lines, { href: link, text: "Set a new password" }),
  };
}
