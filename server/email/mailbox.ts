/**
 * One person's mailbox however its address is spelled: what per-person limits count (a promo
 * code's uses per email, back-in-stock confirmations per mailbox).
 */

/** Mail providers whose mailboxes ignore dots in the name (and their other names). */
const DOTLESS_DOMAINS: Record<string, string> = {
  "gmail.com": "gmail.com",
  "googlemail.com": "gmail.com",
};

/**
 * The mailbox an address reaches: one person however they spell it. Case is ignored, a "+tag"
 * after the name reaches the same mailbox at every common provider, and Gmail ignores dots in the
 * name (googlemail.com is gmail.com). So eve@, Eve+1@ and e.ve@gmail.com are one.
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at <= 0) return address;
  let name = address.slice(0, at).split("+")[0];
  let domain = address.slice(at + 1);
  if (domain in DOTLESS_DOMAINS) {
    domain = DOTLESS_DOMAINS[domain];
    name = name.replaceAll(".", "");
  }
  return `${name || address.slice(0, at)}@${domain}`;
}
