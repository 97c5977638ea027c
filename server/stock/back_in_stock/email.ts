/** The email a waiting shopper gets when what they asked for is back. */
import { escapeHtml } from "../../../shared/html.ts";
import { SHOP_NAME } from "../../../shared/policy.ts";
import type { Email } from "../../email/mailer.ts";

function page(lines: string[], link: { href: string; text: string }): string {
  return [
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>`,
  ].join("\n");
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
