import { useId } from "react";
import { DEFAULT_TYPES, FORCE_STEP, type SwitchFilters } from "../../../shared/filter.ts";

/** Type words as the checkboxes show them. */
const TYPE_LABELS: Record<string, string> = {
  tactile: "Tactile",
  linear: "Linear",
  silent: "Silent",
  clicky: "Clicky",
};

/** Props of the filter panel: the current filters and how to change them. */
export interface FilterPanelProps {
  filters: SwitchFilters;
  brands: string[];
  forceBounds: { low: number; high: number };
  onChange: (patch: Partial<SwitchFilters>) => void;
  onReset: () => void;
}

/** Adds or removes one value of a checkbox list. */
function toggled(list: string[], value: string, on: boolean): string[] {
  return on ? [...list, value] : list.filter((v) => v !== value);
}

/**
 * Brands, types and force range (docs/product.md#switch-filter). Types and force stay in
 * view; the thirty brand boxes fold into a disclosure so the switches are not pushed off screen.
 */
export function FilterPanel(props: FilterPanelProps) {
  const id = useId();
  return (
    <section className="filter-panel card" aria-labelledby={`${id}-title`}>
      <div className="filter-header">
        <h2 id={`${id}-title`}>Filters</h2>
        <button type="button" className="button secondary small" onClick={props.onReset}>
          Reset filters
        </button>
      </div>
      <div className="filter-row">
        <TypeFilter {...props} />
        <ForceFilter {...props} />
      </div>
      <BrandFilter {...props} />
    </section>
  );
}

/**
 * Brands to narrow by: none ticked shows every brand, ticking one shows only it. There is no
 * "Select all brands": none ticked already shows them all, and with every box ticked a click on a
 * brand would take it away instead of showing only it.
 */
function BrandFilter({ filters, brands, onChange }: FilterPanelProps) {
  const chosen = filters.brands.length;
  return (
    <details className="brand-filter">
      <summary>
        Brands
        {/* The space inside the span: one on its own is dropped from the name ("Brands(all)"). */}
        <span className="muted">
          {` (${
            chosen === 0 || chosen === brands.length ? "all" : `${chosen} of ${brands.length}`
          })`}
        </span>
      </summary>
      <fieldset className="filter-group">
        <legend className="visually-hidden">Brands</legend>
        <div className="filter-actions">
          <button type="button" className="link-button" onClick={() => onChange({ brands: [] })}>
            Clear brands
          </button>
          {chosen === 0 && (
            <span className="muted small">No brand ticked: every brand is shown.</span>
          )}
        </div>
        <div className="brand-list">
          {brands.map((brand) => (
            <label key={brand} className="checkbox">
              <input
                type="checkbox"
                checked={filters.brands.includes(brand)}
                onChange={(e) =>
                  onChange({ brands: toggled(filters.brands, brand, e.currentTarget.checked) })}
              />
              {brand}
            </label>
          ))}
        </div>
      </fieldset>
    </details>
  );
}

function TypeFilter({ filters, onChange }: FilterPanelProps) {
  return (
    <fieldset className="filter-group">
      <legend>Types</legend>
      <div className="type-list">
        {DEFAULT_TYPES.map((type) => (
          <label key={type} className="checkbox">
            <input
              type="checkbox"
              checked={filters.types.includes(type)}
              onChange={(e) =>
                onChange({ types: toggled(filters.types, type, e.currentTarget.checked) })}
            />
            {TYPE_LABELS[type] ?? type}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function ForceFilter({ filters, forceBounds, onChange }: FilterPanelProps) {
  const id = useId();
  const { low, high } = filters.forceRange;
  return (
    <fieldset className="filter-group">
      <legend>Actuation force</legend>
      <p className="force-readout">
        {low} g – {high} g
      </p>
      <div className="force-sliders">
        <label htmlFor={`${id}-low`}>Minimum force</label>
        <input
          id={`${id}-low`}
          type="range"
          min={forceBounds.low}
          max={forceBounds.high}
          step={FORCE_STEP}
          value={low}
          aria-valuetext={`${low} grams`}
          // The two thumbs may meet but not cross, so the range never becomes empty by accident.
          onChange={(e) =>
            onChange({
              forceRange: { low: Math.min(Number(e.currentTarget.value), high), high },
            })}
        />
        <label htmlFor={`${id}-high`}>Maximum force</label>
        <input
          id={`${id}-high`}
          type="range"
          min={forceBounds.low}
          max={forceBounds.high}
          step={FORCE_STEP}
          value={high}
          aria-valuetext={`${high} grams`}
          onChange={(e) =>
            onChange({
              forceRange: { low, high: Math.max(Number(e.currentTarget.value), low) },
            })}
        />
      </div>
    </fieldset>
  );
}
