/**
 * Every price rule of the shop in integer cents (docs/product.md#prices, docs/decisions.md). The
 * server charges with these functions and the browser shows their results, so the two always
 * agree.
 */

/** Switch counts a custom tester can hold. */
export const TESTER_SIZES = [10, 15, 20] as const;
export type TesterSize = typeof TESTER_SIZES[number];

/** Keycap options of a custom tester; random is priced but not offered in the UI. */
export const TESTER_KEYCAPS = ["none", "transparent", "random"] as const;
export type TesterKeycaps = typeof TESTER_KEYCAPS[number];

/** Cube and tester body colours; white when none is given. */
export const BODY_COLORS = ["white", "black"] as const;
export type BodyColor = typeof BODY_COLORS[number];
export const DEFAULT_BODY_COLOR: BodyColor = "white";

/** Keycap sets of the fidget cube. */
export const CUBE_KEYCAPS = ["white", "pastel"] as const;
export type CubeKeycaps = typeof CUBE_KEYCAPS[number];

/** Switches in a fidget cube. */
export const CUBE_SIZE = 6;

/** Base price of a custom tester by size. */
export const TESTER_BASE_CENTS: Record<TesterSize, number> = { 10: 999, 15: 1449, 20: 1899 };

/** Keycap price per switch. */
export const KEYCAP_CENTS_PER_SWITCH: Record<TesterKeycaps, number> = {
  none: 0,
  transparent: 40,
  random: 50,
};

/** Fidget cube base price, before premium switches. */
export const CUBE_BASE_CENTS = 1299;

/** Themed pack price, and the transparent keycap add-on (the label's +$2 is what we charge). */
export const PACK_BASE_CENTS = 999;
export const PACK_KEYCAPS_CENTS = 200;

/** The lowest price of anything configurable, as the home page says ('Starting at $9.99'). */
export const STARTING_PRICE_CENTS = Math.min(PACK_BASE_CENTS, TESTER_BASE_CENTS[10]);

function sum(values: readonly number[]): number {
  return values.reduce((total, v) => total + v, 0);
}

/** A custom tester: base by size + keycaps for every switch + each switch's extra price. */
export function customTesterCents(
  size: TesterSize,
  keycaps: TesterKeycaps,
  switchExtraCents: readonly number[],
): number {
  return TESTER_BASE_CENTS[size] + KEYCAP_CENTS_PER_SWITCH[keycaps] * size + sum(switchExtraCents);
}

/** A fidget cube: base + each switch's extra price. */
export function cubeCents(switchExtraCents: readonly number[]): number {
  return CUBE_BASE_CENTS + sum(switchExtraCents);
}

/** A themed pack, with or without transparent keycaps. */
export function packCents(withKeycaps: boolean, baseCents = PACK_BASE_CENTS): number {
  return baseCents + (withKeycaps ? PACK_KEYCAPS_CENTS : 0);
}

/** The premium line of a price summary: the sum of the chosen switches' extra prices. */
export function premiumCents(switchExtraCents: readonly number[]): number {
  return sum(switchExtraCents);
}

/** Cents as the API shows money: a number of dollars with two decimals. */
export function toDollars(cents: number): number {
  return Math.round(cents) / 100;
}

/** Dollars from the outside (at most two decimals) as integer cents. */
export function toCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/**
 * Whole dollars with thousands separators ("1,234"), without Intl: toLocaleString built a
 * formatter per call and loading Intl's data alone is a long task on a phone, for a comma.
 */
function withThousands(dollars: number): string {
  return String(dollars).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Cents as shoppers read them: "$9.99", "-$0.10", "$1,234.00". */
export function formatCents(cents: number): string {
  const rounded = Math.round(cents);
  const sign = rounded < 0 ? "-" : "";
  const abs = Math.abs(rounded);
  const dollars = withThousands(Math.floor(abs / 100));
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, "0")}`;
}
