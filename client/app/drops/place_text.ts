/**
 * What the waiting room says about a shopper's place: the sentence, the honest estimate, when a
 * change is worth saying aloud, and how often to ask again.
 */
import type { TicketAnswer } from "../../../shared/drops.ts";

/** "You are number 12 in line"; the first place says so plainly. */
export function placeText(position: number): string {
  return position <= 1 ? "You are next in line" : `You are number ${position} in line`;
}

/**
 * The estimate as the server gives it (the pace of admissions so far), never invented: before
 * the opening the order is not drawn yet, and with no pace yet the page says it does not know.
 */
export function estimateText(answer: Pick<TicketAnswer, "position" | "estimateMinutes">): string {
  if (answer.position === undefined) {
    return "Everyone who arrives by 30 seconds after the opening is put in a random order at the opening: arriving first gains nothing, so there is no need to hurry.";
  }
  const minutes = answer.estimateMinutes;
  if (minutes === undefined || !Number.isFinite(minutes)) {
    return "We cannot estimate your wait yet: it depends on how fast the shoppers before you check out.";
  }
  if (minutes < 1) return "Your turn should come in less than a minute.";
  const rounded = Math.round(minutes);
  return `Your turn should come in about ${rounded} ${
    rounded === 1 ? "minute" : "minutes"
  }, at the pace of the last minutes.`;
}

/**
 * Whether a new place is worth saying to a screen reader: the first place, the last few, and
 * otherwise only a real move (a fifth of the line or at least five places), so a poll every few
 * seconds does not talk over everything else.
 */
export function placeWorthSaying(lastSaid: number | null, position: number): boolean {
  if (lastSaid === null) return true;
  if (position === lastSaid) return false;
  if (position <= 3) return true;
  return Math.abs(lastSaid - position) >= Math.max(5, Math.ceil(lastSaid / 5));
}

/** Never ask faster than this (the room is served from a snapshot refreshed about each second). */
export const MIN_POLL_MS = 2_000;
const VISIBLE_POLL_MS = 3_000;
const HIDDEN_POLL_MS = 15_000;
const MAX_POLL_MS = 30_000;

/**
 * The wait before the next poll: a few seconds while the page is seen, longer while hidden, and
 * doubling after each failure in a row (a busy or unreachable shop is not asked harder).
 */
export function pollDelayMs(hidden: boolean, failures: number): number {
  const base = hidden ? HIDDEN_POLL_MS : VISIBLE_POLL_MS;
  const backedOff = base * 2 ** Math.min(Math.max(0, failures), 4);
  return Math.max(MIN_POLL_MS, Math.min(MAX_POLL_MS, backedOff));
}

/**
 * What a place is told when its shopper's account or connection already holds or bought the
 * drop's limit through another place: it is not let in (a turn it could not use would hold up the
 * line), unless that place gives its units back.
 */
export function limitReachedText(perPersonLimit: number): string {
  return `You already hold or bought the ${perPersonLimit} ${
    perPersonLimit === 1 ? "unit" : "units"
  } per person this drop allows, through another place in line from your account or connection. This place is let in only if that one lets its units go.`;
}
