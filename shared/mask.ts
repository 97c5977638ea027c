/**
 * The admin's 'Hide User Data' masking (docs/product.md#masking), so order tables can be shown on a
 * shared screen. Lengths count characters (code points), so an emoji is never cut in half.
 */

const HIDDEN = "***";

/**
 * Masks an email: its first 3 characters, then `***@domain` ("johnsmith@example.com" gives
 * "joh***@example.com"). The 3 characters are taken from the part before the last "@", so a
 * short local part keeps what it has ("jo@x.com" gives "jo***@x.com") and the "@" is never
 * doubled. Text with no "@" gives its first 3 characters then "***".
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at === -1) return firstChars(email, 3) + HIDDEN;
  return firstChars(email.slice(0, at), 3) + HIDDEN + email.slice(at);
}

/** Masks a street address completely, whatever it holds, so even its length is hidden. */
export function maskAddress(_address: string): string {
  return HIDDEN;
}

/**
 * Masks a tracking number to "***" and its last 4 characters ("9400111899223344551234" gives
 * "***1234"). One shorter than 4 characters is returned as it is, including the empty string,
 * so "no tracking yet" stays visible.
 */
export function maskTracking(trackingNumber: string): string {
  const chars = Array.from(trackingNumber);
  if (chars.length < 4) return trackingNumber;
  return HIDDEN + chars.slice(-4).join("");
}

/**
 * Masks an order number to its first 2 characters, "***" and its last 8. When it has 10
 * characters or fewer, the first 2 and the last 8 would show all of it, so only the first 2
 * and "***" remain.
 */
export function maskOrderNumber(orderNumber: string): string {
  const chars = Array.from(orderNumber);
  const head = chars.slice(0, 2).join("");
  if (chars.length <= 10) return head + HIDDEN;
  return head + HIDDEN + chars.slice(-8).join("");
}

function firstChars(text: string, count: number): string {
  return Array.from(text).slice(0, count).join("");
}
