/**
 * The arithmetic of a drop's countdowns: every deadline is the server's, and the page counts
 * toward it on the server's clock (the device's clock plus the offset measured at the answer),
 * so a device set minutes wrong still opens the door at the right second.
 */

/** The room opens this long before the opening (server/drops/record.ts says the same). */
export const ROOM_OPENS_BEFORE_MS = 2 * 60_000;

/** How far the server's clock is ahead of this device's: serverTime minus the arrival time. */
export function clockOffset(serverTime: string, receivedAt: number): number {
  const server = Date.parse(serverTime);
  return Number.isFinite(server) ? server - receivedAt : 0;
}

/** Whole seconds from `now` (device time) until `iso` (server time); never negative. */
export function secondsUntil(iso: string, offsetMs: number, now: number): number {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return 0;
  return Math.max(0, Math.ceil((at - (now + offsetMs)) / 1000));
}

/** When the waiting room opens, as an ISO time. */
export function roomOpensAt(opensAt: string): string {
  return new Date(Date.parse(opensAt) - ROOM_OPENS_BEFORE_MS).toISOString();
}

function two(n: number): string {
  return String(n).padStart(2, "0");
}

/** A countdown as a clock: 04:05, 1:02:03, or 2 days 03:04:05. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3_600);
  const minutes = Math.floor((s % 3_600) / 60);
  const clock = hours > 0 || days > 0
    ? `${days > 0 ? two(hours) : hours}:${two(minutes)}:${two(s % 60)}`
    : `${two(minutes)}:${two(s % 60)}`;
  if (days === 0) return clock;
  return `${days} ${days === 1 ? "day" : "days"} ${clock}`;
}

function unit(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * A countdown in words for a screen reader's label ("2 minutes 5 seconds"), said to the nearest
 * useful unit: seconds only in the last minutes.
 */
export function countdownWords(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s === 0) return "now";
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3_600);
  const minutes = Math.floor((s % 3_600) / 60);
  if (days > 0) return [unit(days, "day"), hours > 0 ? unit(hours, "hour") : ""].join(" ").trim();
  if (hours > 0) {
    return [unit(hours, "hour"), minutes > 0 ? unit(minutes, "minute") : ""].join(" ").trim();
  }
  if (minutes >= 10) return unit(minutes, "minute");
  return [minutes > 0 ? unit(minutes, "minute") : "", s % 60 > 0 ? unit(s % 60, "second") : ""]
    .join(" ").trim();
}

/**
 * An ISO time as UTC in one fixed spelling ("27 Nov 2026, 09:00 UTC"): the server renders it and
 * the browser hydrates the same words, whatever either's time zone.
 */
export function utcText(iso: string): string {
  const d = new Date(iso);
  if (!Number.isFinite(d.getTime())) return "";
  const months = [
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
  ];
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${
    two(d.getUTCHours())
  }:${two(d.getUTCMinutes())} UTC`;
}
