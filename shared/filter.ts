/**
 * The switch filter of the custom tester and fidget cube pages (docs/product.md#switch-filter).
 * Pure, so the browser filters as the shopper clicks and the server tests can use the same rules.
 */

/** The fields of a switch the filter reads. */
export interface FilterableSwitch {
  name: string;
  /** Manufacturer; a collaboration joins brands with " x ". */
  brand: string;
  /** One or more of tactile, linear, silent, clicky, space-separated. */
  type: string;
  /** Text containing a number in grams, e.g. "45g". */
  force: string;
}

/** What the shopper chose in the filter panel and search box. */
export interface SwitchFilters {
  /** Individual brands (collaborations already split); empty means every brand. */
  brands: string[];
  /** Chosen type words; empty means no switch matches, as when every box is unchecked. */
  types: string[];
  /** Inclusive force range in grams. */
  forceRange: { low: number; high: number };
  /** Free text matched against name and brand. */
  search: string;
}

/**
 * The type boxes checked when the page opens. Read-only so a caller cannot change every page's
 * defaults by mutating it; copy it (`[...DEFAULT_TYPES]`) to build a `SwitchFilters`.
 */
export const DEFAULT_TYPES: readonly string[] = Object.freeze([
  "tactile",
  "linear",
  "silent",
  "clicky",
]);

/** Step of the force slider, in grams; the range bounds are rounded to it. */
export const FORCE_STEP = 5;

/** The force range used when no switch has a readable force. */
export const DEFAULT_FORCE_RANGE: Readonly<{ low: number; high: number }> = Object.freeze({
  low: 45,
  high: 70,
});

const COLLABORATION_SEPARATOR = " x ";

/**
 * The individual brands behind a brand name: "Drop x Invyr" gives ["Drop", "Invyr"]. Only a
 * lower-case "x" between spaces marks a collaboration, so a brand such as "HMX" stays whole.
 * Empty parts (from a stray separator) are dropped so they never show up as a checkbox.
 */
export function splitBrands(brand: string): string[] {
  if (!brand.includes(COLLABORATION_SEPARATOR)) return [brand];
  return brand.split(COLLABORATION_SEPARATOR).map((part) => part.trim()).filter((part) =>
    part !== ""
  );
}

/**
 * Every individual brand in the list, unique and sorted alphabetically ignoring case, so
 * "Haimu" sorts before "HMX" as a shopper expects.
 */
export function allBrands(switches: readonly Pick<FilterableSwitch, "brand">[]): string[] {
  const brands = new Set<string>();
  for (const sw of switches) {
    for (const brand of splitBrands(sw.brand)) brands.add(brand);
  }
  return [...brands].sort((a, b) => a.localeCompare(b, "en") || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The first number in a force text, in grams: "62g" gives 62, "45 g" 45, "62.5g" 62.5. Returns
 * null when the text holds no number (e.g. "n/a").
 */
export function forceGrams(force: string): number | null {
  const match = /\d+(?:\.\d+)?/.exec(force);
  return match ? Number(match[0]) : null;
}

/**
 * The slider range for a list of switches: the smallest force rounded down and the largest
 * rounded up to a multiple of FORCE_STEP, so every switch sits inside the slider. Switches
 * without a readable force are ignored; with none left it is DEFAULT_FORCE_RANGE.
 */
export function forceRangeOf(
  switches: readonly Pick<FilterableSwitch, "force">[],
): { low: number; high: number } {
  let low = Infinity;
  let high = -Infinity;
  for (const sw of switches) {
    const grams = forceGrams(sw.force);
    if (grams === null) continue;
    low = Math.min(low, grams);
    high = Math.max(high, grams);
  }
  if (low === Infinity) return { ...DEFAULT_FORCE_RANGE };
  return {
    low: Math.floor(low / FORCE_STEP) * FORCE_STEP,
    high: Math.ceil(high / FORCE_STEP) * FORCE_STEP,
  };
}

/**
 * Whether a switch passes every filter:
 * - brand: one of its individual brands is chosen, so a collaboration shows under either
 *   partner; an empty brand list means every brand (nothing to narrow by yet);
 * - type: one of the words of its type is a chosen type, so "silent linear" shows under
 *   "silent" and under "linear"; an empty type list matches nothing, like unchecking every box;
 * - force: its number of grams lies in the range, bounds included; a switch whose force text
 *   has no number passes, since it cannot be judged and would otherwise never be selectable;
 * - search: the trimmed text is a case-insensitive substring of its name or brand; empty
 *   search matches every switch.
 */
export function matchesFilters(sw: FilterableSwitch, filters: SwitchFilters): boolean {
  if (filters.brands.length > 0) {
    const chosen = new Set(filters.brands);
    if (!splitBrands(sw.brand).some((brand) => chosen.has(brand))) return false;
  }

  const chosenTypes = new Set(filters.types.map((t) => t.trim().toLowerCase()));
  const words = sw.type.toLowerCase().split(/\s+/);
  if (!words.some((word) => chosenTypes.has(word))) return false;

  const grams = forceGrams(sw.force);
  if (grams !== null && (grams < filters.forceRange.low || grams > filters.forceRange.high)) {
    return false;
  }

  const search = filters.search.trim().toLowerCase();
  if (search === "") return true;
  return sw.name.toLowerCase().includes(search) || sw.brand.toLowerCase().includes(search);
}

/** The switches that pass the filters, in their original order and with all their fields. */
export function filterSwitches<T extends FilterableSwitch>(
  switches: readonly T[],
  filters: SwitchFilters,
): T[] {
  return switches.filter((sw) => matchesFilters(sw, filters));
}

/**
 * The filters a page opens with: no brand ticked (so every brand shows, and the first tick
 * narrows the grid to that brand), the default types, the data's force range.
 */
export function defaultFilters(
  switches: readonly Pick<FilterableSwitch, "force">[],
): SwitchFilters {
  return {
    brands: [],
    types: [...DEFAULT_TYPES],
    forceRange: forceRangeOf(switches),
    search: "",
  };
}

/**
 * A copy of the list with available items first; the order within each group is kept, so the
 * catalogue order still reads naturally.
 */
export function sortAvailableFirst<T extends { available: boolean }>(list: readonly T[]): T[] {
  return [...list.filter((item) => item.available), ...list.filter((item) => !item.available)];
}
