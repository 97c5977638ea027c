/**
 * What the owner's Emails tab may not show of an email: the secret of a link meant for its
 * recipient alone. A password reset link opens the account to whoever holds it, an unsubscribe or
 * confirmation link acts for the mailbox; the owner needs to see that such a link was sent, never
 * the link itself (an owner, or anyone at the owner's screen, could otherwise take over any
 * shopper's account).
 */

/** What a hidden secret reads as. */
export const HIDDEN_SECRET = "[hidden]";

/** A `token` parameter in any link's query, up to the next `&`, `#`, space or quote. */
const TOKEN_PARAM = /([?&]token=)[^&#\s"'<>]+/gi;

/** `text` with the value of every link's `token` parameter replaced by `[hidden]`. */
export function hideLinkSecrets(text: string): string {
  return text.replace(TOKEN_PARAM, `$1${HIDDEN_SECRET}`);
}
