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

/**
 * The email an address gets when someone asked for back-in-stock emails to it: they come only once
 * it confirms, and only for what was asked until then, so a stranger typing it gets them nothing.
 */
export function confirmationEmail(to: string, name: string, confirmUrl: string): Email {
  const lines = [
    `Someone asked us to email this address when ${name} is back in stock.`,
    "If it was you, confirm this address with the link below (it works for 7 days). It confirms everything this address asked for until you press it; after that you get one email each time one of them is back, each with a link to stop them.",
    "If it was not you, ignore this email: this address gets no back-in-stock emails unless the link is used.",
  ];
  return {
    to,
    subject: `${SHOP_NAME}: confirm back-in-stock emails`,
    text: [...lines.slice(0, 2), "", `Confirm: ${confirmUrl}`, "", lines[2]].join("\n"),
    html: [
      page(lines.slice(0, 2), { href: confirmUrl, text: "Confirm back-in-stock emails" }),
      `<p>${escapeHtml(lines[2])}</p>`,
    ].join("\n"),
  };
}
