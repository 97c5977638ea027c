import type { DropPublicView } from "../../../shared/drops.ts";

/** Where a drop stands now: the server's phase, moved on by the page's own countdowns. */
export function phaseNow(
  phase: DropPublicView["phase"],
  secondsToRoom: number,
  secondsToOpening: number,
): DropPublicView["phase"] {
  if (phase === "scheduled" && secondsToRoom === 0) return secondsToOpening === 0 ? "open" : "room";
  if (phase === "room" && secondsToOpening === 0) return "open";
  return phase;
}
