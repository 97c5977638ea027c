import { useMemo, useState } from "react";
import type { SwitchChoice } from "./switch_choice.ts";
import {
  allBrands,
  defaultFilters,
  filterSwitches,
  sortAvailableFirst,
  type SwitchFilters,
} from "../../../shared/filter.ts";

/** The filter state of a switch picker and what it shows. */
export interface SwitchFilterState {
  filters: SwitchFilters;
  /** Every individual brand, collaborations split, for the brand checkboxes. */
  brands: string[];
  /** The slider bounds: the data's force range rounded to the slider step. */
  forceBounds: { low: number; high: number };
  /** The switches that pass the filters, available ones first. */
  visible: SwitchChoice[];
  update: (patch: Partial<SwitchFilters>) => void;
  reset: () => void;
}

const NO_SWITCHES: SwitchChoice[] = [];

/**
 * Filter state over a switch list. Until the shopper touches a control the defaults are derived
 * from the data (so they are right as soon as the list arrives); Reset returns to them.
 */
export function useSwitchFilters(switches: SwitchChoice[] | null): SwitchFilterState {
  const list = switches ?? NO_SWITCHES;
  const defaults = useMemo(() => defaultFilters(list), [list]);
  const brands = useMemo(() => allBrands(list), [list]);
  // The default force range is the data's whole range: the slider's bounds. Nothing mutates it
  // (changes build new filters), so it can be shared.
  const forceBounds = defaults.forceRange;
  const [changed, setChanged] = useState<SwitchFilters | null>(null);
  const filters = changed ?? defaults;
  const visible = useMemo(() => sortAvailableFirst(filterSwitches(list, filters)), [
    list,
    filters,
  ]);

  return {
    filters,
    brands,
    forceBounds,
    visible,
    update: (patch) => setChanged({ ...filters, ...patch }),
    reset: () => setChanged(null),
  };
}
