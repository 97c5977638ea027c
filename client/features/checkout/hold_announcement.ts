/**
 * What the hold countdown's polite live region says: the 5- and 1-minute marks (WCAG 2.2.1: the
 * shopper is warned in time to extend or pay), and an extension once, and nothing else, since a
 * region that speaks every minute talks over the form being filled in. The text stays put between
 * marks, so a region speaks each change once.
 */

/** Minutes left at which the hold is spoken, largest first. */
export const SPOKEN_MINUTES = [5, 1] as const;

/**
 * The region's text at `minutes` left (rounded up), for a hold the page has shown since
 * `since` minutes left (its opening, or the extension); `extendedBy` is the extension's minutes
 * when the shopper extended it here.
 */
export function holdAnnouncement(
  minutes: number,
  since: number,
  extendedBy: number | null,
): string {
  // The smallest mark reached on this page: a mark passed before it opened is not news.
  const mark = [...SPOKEN_MINUTES].reverse().find((m) => minutes <= m && since > m);
  if (mark !== undefined) {
    return mark === 1 ? "1 minute left on your hold." : `${mark} minutes left on your hold.`;
  }
  return extendedBy === null ? "" : `Your hold was extended by ${extendedBy} minutes.`;
}
