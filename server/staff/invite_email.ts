/** The email that invites a helper to the dashboard. */
import { escapeHtml } from "../../shared/html.ts";
import { SHOP_NAME } from "../../shared/policy.ts";
import { type Role, ROLE_LABELS } from "../../shared/roles.ts";
import type { Email } from "../email/mailer.ts";

/** The invitation link, valid for a day and once. */
export function staffInviteEmail(to: string, link: string, role: Role): Email {
  const lines = [
    `You are invited to help run ${SHOP_NAME}'s dashboard, with the ${ROLE_LABELS[role]} role.`,
    "The link below works once, for one day: open it to choose your password, then sign in with this email address.",
    "If you did not expect this, ignore this email: nothing happens until the link is used.",
  ];
  return {
    to,
    subject: `${SHOP_NAME}: you are invited to the dashboard`,
    text: [...lines, "", `Accept the invitation: ${link}`].join("\n"),
    html: [
      ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
      `<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>`,
    ].join("\n"),
  };
}
