/** Emails about a shopper's account and what they asked to hear about. */
import { escapeHtml } from "../../shared/html.ts";
import { SHOP_NAME } from "../../shared/policy.ts";
import type { Email } from "./mailer.ts";

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

/** One back-in-stock alert: what is available again, where to buy it, how to stop these. */
export function backInStockEmail(
  to: string,
  name: string,
  pageUrl: string,
  unsubscribeUrl: string,
): Email {
  const lines = [
    `Good news: ${name} is back in stock.`,
    "Stock is limited and first come, first served. This is the only email about it you will get.",
  ];
  return {
    to,
    subject: `${SHOP_NAME}: ${name} is back in stock`,
    text: [
      ...lines,
      "",
      `Order it: ${pageUrl}`,
      "",
      `You asked to hear about this item. Not interested any more? ${unsubscribeUrl}`,
    ].join("\n"),
    html: [
      page(lines, { href: pageUrl, text: `Order ${name}` }),
      `<p style="font-size:small">You asked to hear about this item. <a href="${
        escapeHtml(unsubscribeUrl)
      }">Unsubscribe</a></p>`,
    ].join("\n"),
  };
}
