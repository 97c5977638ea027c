import type { DropPublicView } from "../../../shared/drops.ts";
import { SOLD_OUT_SHOWN_MS } from "../../../shared/drop_shown.ts";

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

/**
 * Whether a product page still shows its drop: always before and during it, and a sold-out drop
 * for three days after its opening (the shop keeps the record; the page need not say it forever).
 */
export function dropStillShown(
  drop: Pick<DropPublicView, "phase" | "opensAt" | "serverTime">,
): boolean {
  if (drop.phase === "cancelled") return false;
  if (drop.phase !== "soldOut") return true;
  return Date.parse(drop.serverTime) - Date.parse(drop.opensAt) < SOLD_OUT_SHOWN_MS;
}
