/**
 * How the owner's Drops section writes times and figures: the opening typed in the owner's own
 * time zone (a datetime-local input) and sent as UTC, shown back with its UTC time, and the
 * report's figures in words.
 */

/**
 * A datetime-local value ("2026-11-27T10:00") read in the browser's time zone, as ISO UTC; null
 * when it is not a time. `zoneOffsetMinutes` is what Date#getTimezoneOffset gives for that time
 * (passed in by tests; the browser's own by default).
 */
export function localInputToIso(value: string, zoneOffsetMinutes?: number): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((p) => Number(p ?? 0));
  if (zoneOffsetMinutes === undefined) {
    const local = new Date(year, month - 1, day, hour, minute, second);
    return Number.isFinite(local.getTime()) ? local.toISOString() : null;
  }
  const utc = Date.UTC(year, month - 1, day, hour, minute, second) + zoneOffsetMinutes * 60_000;
  return Number.isFinite(utc) ? new Date(utc).toISOString() : null;
}

function two(n: number): string {
  return String(n).padStart(2, "0");
}

/** A time as a datetime-local value in the browser's time zone (the form's default). */
export function isoToLocalInput(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${
    two(d.getMinutes())
  }`;
}

/** "2026-11-27 09:00 UTC": the time the server keeps, beside the owner's own. */
export function utcClock(iso: string): string {
  const d = new Date(iso);
  if (!Number.isFinite(d.getTime())) return "";
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${
    two(d.getUTCHours())
  }:${two(d.getUTCMinutes())} UTC`;
}

/** How long a drop took to sell out: "42 s", "3 min 5 s", "2 h 4 min"; null: it did not. */
export function sellOutText(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "Not sold out";
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3_600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
  const minutes = Math.floor((s % 3_600) / 60);
  return `${Math.floor(s / 3_600)} h${minutes ? ` ${minutes} min` : ""}`;
}

/** Refusals by reason, largest first: "per-person limit 12, join limit 3"; "none". */
export function refusedText(refused: Record<string, number>): string {
  const parts = Object.entries(refused).filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, n]) => `${reason} ${n}`);
  return parts.length ? parts.join(", ") : "none";
}

/** Whether the owner's live view should keep polling: until the drop's story ends. */
export function dropIsLive(phase: string): boolean {
  return phase === "scheduled" || phase === "room" || phase === "open";
}

/** Days of runway as the restock list shows them: "none sold" when nothing sold lately. */
export function runwayText(days: number | null): string {
  if (days === null) return "none sold lately";
  if (days < 1) return "under a day";
  return `${Math.floor(days)} ${Math.floor(days) === 1 ? "day" : "days"}`;
}
