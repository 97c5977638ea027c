import { useState } from "react";
import { fillBuild } from "../../../shared/fill_build.ts";
import type { SwitchChoice } from "./switch_choice.ts";
import { FilterPanel } from "./filter_panel.tsx";
import { SearchBox } from "./search_box.tsx";
import { SwitchGrid } from "./switch_grid.tsx";
import { BackFromSwitchList, SkipSwitchList } from "./switch_list_links.tsx";
import { useSwitchFilters } from "./use_switch_filters.ts";
import type { SwitchesState } from "./use_switches.ts";
import type { DropPublicView } from "../../../shared/drops.ts";
import { SwitchDropPanels } from "./switch_drop_panels.tsx";

/**
 * Filter panel, search, result count and grid, shared by the custom tester and the fidget cube.
 * It owns the filter state; the selection belongs to the page, which knows its limit.
 */
export function SwitchPicker(
  { state, isSelected, onToggle, drops, refusedId, fill, summaryId }: {
    state: SwitchesState;
    isSelected: (id: number) => boolean;
    onToggle: (sw: SwitchChoice) => void;
    /** The switch drops, whose panels stand above the list. */
    drops: readonly DropPublicView[];
    /** The switch whose pick its drop just refused. */
    refusedId: number | null;
    /** "Fill the rest": what is chosen, how many slots are empty, and how to add picks. */
    fill: { chosen: SwitchChoice[]; slots: number; add: (ids: number[]) => void };
    /** The summary card with Add to Cart, which the links after the list lead back to. */
    summaryId: string;
  },
) {
  const filter = useSwitchFilters(state.switches);
  const [filled, setFilled] = useState("");

  function fillRest() {
    const ids = fillBuild(filter.visible, fill.chosen, fill.slots);
    if (ids.length === 0) {
      setFilled("No available switch matches your filters: widen them to fill the rest.");
      return;
    }
    fill.add(ids);
    const byId = new Map(filter.visible.map((sw) => [sw.id, sw]));
    setFilled(
      `Added ${ids.length} ${ids.length === 1 ? "switch" : "switches"}: ${
        ids.map((id) => `${byId.get(id)!.brand} ${byId.get(id)!.name}`).join(", ")
      }.`,
    );
  }

  if (state.failed) {
    return (
      <section className="switch-picker" aria-label="Choose your switches">
        <div className="card load-failed" role="alert">
          <p className="error-text">Could not load switches.</p>
          <button type="button" className="button" onClick={state.retry}>Retry</button>
        </div>
      </section>
    );
  }
  if (!state.switches) {
    return (
      <section className="switch-picker" aria-label="Choose your switches">
        <p className="loading">Loading switches...</p>
      </section>
    );
  }

  const total = state.switches.length;
  return (
    <section className="switch-picker" aria-label="Choose your switches">
      <SwitchDropPanels drops={drops} />
      <FilterPanel
        filters={filter.filters}
        brands={filter.brands}
        forceBounds={filter.forceBounds}
        onChange={filter.update}
        onReset={filter.reset}
      />
      <div className="picker-toolbar">
        <SearchBox value={filter.filters.search} onChange={(search) => filter.update({ search })} />
        <p className="muted result-count" role="status" data-testid="result-count">
          Showing {filter.visible.length} of {total} switches
        </p>
        <button
          type="button"
          className="button secondary small-button"
          aria-disabled={fill.slots <= 0}
          aria-describedby="fill-rest-hint"
          onClick={() => fill.slots > 0 && fillRest()}
        >
          Fill the rest
        </button>
        <span id="fill-rest-hint" className="visually-hidden">
          Fills the empty slots with available switches that match your filters, varied by brand and
          type
        </span>
      </div>
      <p className="fill-rest-note small" role="status" data-testid="fill-rest-note">{filled}</p>
      {filter.visible.length === 0
        ? (
          <div className="card empty-result">
            <p>No switches match your filters.</p>
            <button type="button" className="button secondary" onClick={filter.reset}>
              Reset filters
            </button>
          </div>
        )
        : (
          <>
            <SkipSwitchList />
            <SwitchGrid
              switches={filter.visible}
              isSelected={isSelected}
              onToggle={onToggle}
              refusedId={refusedId}
            />
            <BackFromSwitchList summaryId={summaryId} />
          </>
        )}
    </section>
  );
}
