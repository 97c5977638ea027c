/**
 * A tracking number as the carrier writes it. The shop's one carrier is USPS (see
 * carrierTrackingUrl), whose numbers are digits, or two letters, nine digits and two letters for
 * international mail, printed in groups but written and linked without spaces or dashes. The owner
 * types or pastes them from a label, so the same rule runs in the admin's field and on the server
 * before the number is stored or linked.
 */

/** At most this many characters once normalised (USPS numbers have up to 34). */
export const TRACKING_NUMBER_MAX = 40;

/**
 * Trimmed, with every space (of any kind) and dash dropped, the letters a to z in capitals. Only
 * those: toUpperCase would turn "ß" (beside 0 on a German keyboard) into "SS" and "ı" into "I",
 * storing another parcel's number where the rule below should refuse a character it does not know.
 */
export function normaliseTrackingNumber(raw: string): string {
  return raw.replace(/[\s\p{Dash_Punctuation}]+/gu, "").replace(/[a-z]+/g, (l) => l.toUpperCase());
}

/** Why a normalised number cannot be stored, or null when it can. */
export function trackingNumberProblem(normalised: string): string | null {
  if (normalised === "") return "Please enter a tracking number";
  if (normalised.length > TRACKING_NUMBER_MAX) {
    return `A tracking number has at most ${TRACKING_NUMBER_MAX} characters`;
  }
  if (!/^[A-Z0-9]+$/.test(normalised)) {
    return "A tracking number has only letters, digits, spaces and dashes";
  }
  return null;
}
