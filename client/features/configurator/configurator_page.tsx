import type { ReactNode } from "react";
import { ConfiguratorSummary } from "./configurator_summary.tsx";
import type { PriceLine } from "./price_summary.tsx";
import { SelectionBar } from "./selection_bar.tsx";
import { SwitchPicker } from "./switch_picker.tsx";
import { type ConfiguratorOrder, useConfigurator } from "./use_configurator.ts";

/**
 * The frame the custom tester and the fidget cube share: options and summary in the aside, the
 * switch picker beside them, and the phone's selection bar. The page brings what differs: its
 * heading, options, switch count, prices and messages.
 */
export function ConfiguratorPage(
  { intro, asideLabel, options, limit, summaryId, limitMessage, shortMessage, price, order }: {
    /** Shown above the configurator, e.g. the page heading. */
    intro?: ReactNode;
    /** Names the aside: a label, or the id of a heading inside `options`. */
    asideLabel: { "aria-label": string } | { "aria-labelledby": string };
    /** The options card. */
    options: ReactNode;
    limit: number;
    summaryId: string;
    limitMessage: string;
    shortMessage: (picked: number) => string;
    /** The summary lines and the total for the chosen switches' surcharges. */
    price: (extras: number[]) => { lines: PriceLine[]; totalCents: number };
    order: ConfiguratorOrder;
  },
) {
  const { switches, selection, extras, add } = useConfigurator({ limit, limitMessage, order });
  const { lines, totalCents } = price(extras);
  return (
    <section className="page configurator-page">
      {intro}
      <div className="configurator">
        <aside className="configurator-aside" {...asideLabel}>
          {options}
          <ConfiguratorSummary
            id={summaryId}
            selection={selection}
            limit={limit}
            lines={lines}
            totalCents={totalCents}
            shortMessage={shortMessage}
            onAdd={add}
          />
        </aside>
        <SwitchPicker state={switches} isSelected={selection.has} onToggle={selection.toggle} />
      </div>
      <SelectionBar
        count={selection.chosen.length}
        limit={limit}
        totalCents={totalCents}
        summaryId={summaryId}
      />
    </section>
  );
}
