/**
 * How a line's configuration reads to a shopper, the same in the cart, at checkout, on the demo
 * payment page, on the tracking page and in the configurators' price lines.
 */
import type { CubeKeycaps, TesterKeycaps } from "../../shared/pricing.ts";

/** Readable keycap options of testers, packs and cubes. */
export const KEYCAP_NAMES: Readonly<Record<TesterKeycaps | CubeKeycaps, string>> = {
  none: "No keycaps",
  transparent: "Transparent keycaps",
  random: "Random keycaps",
  white: "White keycaps",
  pastel: "Pastel Mix keycaps",
};

/** The readable name of a keycap option; an unknown one (newer server) is shown as sent. */
export function keycapName(keycaps: string): string {
  return (KEYCAP_NAMES as Readonly<Record<string, string>>)[keycaps] ?? keycaps;
}

/** The configuration fields every line view (cart, order, demo session) carries. */
export interface LineConfiguration {
  size: number | null;
  keycaps: string | null;
  bodyColor: string | null;
}

/**
 * One line describing a configured item ('10 switches · Transparent keycaps · White body'). A
 * product has no size; a pack that comes with keycaps says so, anything else has no line.
 */
export function configurationText(item: LineConfiguration): string | null {
  if (item.size === null) {
    return item.keycaps === "transparent" ? "With transparent keycaps" : null;
  }
  const parts = [`${item.size} switches`, keycapName(item.keycaps ?? "none")];
  if (item.bodyColor) parts.push(item.bodyColor === "black" ? "Black body" : "White body");
  return parts.join(" · ");
}
