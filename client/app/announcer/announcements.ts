/**
 * The one announcer: what the page tells a screen reader (a toast, a route change, a total).
 * Screen readers speak text inserted into a live region that was already there, and may stay
 * silent for a region inserted together with its text, so the two regions are in the page's
 * HTML from the first paint (client/index.html, outside the React root: no render, hydration or
 * error boundary ever replaces them), and a message is a new line written into one of them.
 */

/** Polite waits until the reader has finished; assertive interrupts (errors). */
export type Politeness = "polite" | "assertive";

/**
 * How long a message stays in its region: long enough for a reader to reach it behind others,
 * short enough that the region never grows into a page of its own.
 */
export const ANNOUNCEMENT_MS = 7000;

/** At most this many messages wait in a region at once; older ones have been said. */
const KEPT = 4;

/** The id of a region in client/index.html. */
export function regionId(politeness: Politeness): string {
  return `announcer-${politeness}`;
}

/**
 * Says `text` (whitespace folded; empty text says nothing). Each message is a new element of its
 * region, so the same words said twice are heard twice.
 */
export function announce(text: string, politeness: Politeness = "polite"): void {
  const clean = text.replace(/\s+/g, " ").trim();
  if (!clean || typeof document === "undefined") return;
  const region = document.getElementById(regionId(politeness));
  if (!region) return;
  const line = document.createElement("p");
  line.textContent = clean;
  region.append(line);
  while (region.childElementCount > KEPT) region.firstElementChild?.remove();
  setTimeout(() => line.remove(), ANNOUNCEMENT_MS);
}
