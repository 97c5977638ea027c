/**
 * What a configurator says and allows for a switch in a drop: the card's words, whether it can be
 * picked, and the sentence that refuses it. While the drop is scheduled or selling, the cart takes
 * the switch only with an admitted place in the drop's line, so the page refuses it before the
 * shopper builds a whole tester around it; once the drop sold out the switch sells as usual again
 * (from whatever stock is left), and the card only says so.
 */
import type { DropPublicView, TicketState } from "../../../shared/drops.ts";
import { formatCountdown } from "../../app/drops/drop_clock.ts";

/** Where the shopper's own place in the drop stands, as far as this browser knows. */
export type PlaceState = "none" | "waiting" | "admitted";

/** A kept place's answer from the server as the configurator reads it. */
export function placeStateOf(state: TicketState | null): PlaceState {
  if (state === "admitted") return "admitted";
  // A lapsed turn, a sell-out or a shopper at the limit has no way in through this place.
  return state === "waiting" ? "waiting" : "none";
}

/** Whether the switch may be picked now. */
export function dropLocks(phase: DropPublicView["phase"], place: PlaceState): boolean {
  if (phase === "soldOut" || phase === "cancelled") return false;
  return place !== "admitted";
}

/** The card's line: "Limited drop: opens in 04:05", "Limited drop: join the waiting room"... */
export function dropCardNote(
  phase: DropPublicView["phase"],
  secondsToOpening: number,
  place: PlaceState,
): string {
  if (phase === "soldOut" || phase === "cancelled") return "Sold out in its drop";
  if (place === "admitted") return "Limited drop: your turn, pick it now";
  if (place === "waiting") return "Limited drop: you are in line";
  if (phase === "scheduled") return `Limited drop: opens in ${formatCountdown(secondsToOpening)}`;
  return "Limited drop: join the waiting room";
}

/** The sentence that refuses picking a locked switch, naming it and the way in. */
export function dropRefusal(
  name: string,
  phase: DropPublicView["phase"],
  place: PlaceState,
): string {
  if (place === "waiting") {
    return `${name} is in a limited drop and you are in its line: you can pick it once it is your turn.`;
  }
  if (phase === "scheduled") {
    return `${name} is in a limited drop: you can pick it once it is your turn in the drop's waiting room, which opens 2 minutes before the drop.`;
  }
  return `${name} is in a limited drop: join the waiting room, and pick it once it is your turn.`;
}

/** The drops whose panels stand above the switch list: the scheduled and selling, a few. */
export const DROP_PANELS_SHOWN = 3;

export function panelDrops(drops: readonly DropPublicView[]): DropPublicView[] {
  return drops.filter((d) => d.phase !== "soldOut" && d.phase !== "cancelled")
    .slice(0, DROP_PANELS_SHOWN);
}
