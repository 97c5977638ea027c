import type { ReactNode } from "react";
import { ConfiguratorSummary } from "./configurator_summary.tsx";
import type { PriceLine } from "./price_summary.tsx";
import { SelectionBar } from "./selection_bar.tsx";
import { SwitchPicker } from "./switch_picker.tsx";
import { type ConfiguratorOrder, useConfigurator } from "./use_configurator.ts";
import type { LiveStock } from "./use_build_stock.ts";
import { toast } from "react-hot-toast";
import { type BuildLink, buildQuery } from "../../../shared/build_link.ts";
import { DEFAULT_BODY_COLOR } from "../../../shared/pricing.ts";

/**
 * The frame the custom tester and the fidget cube share: options and summary in the aside, the
 * switch picker beside them, and the phone's selection bar. The page brings what differs: its
 * heading, options, switch count, prices and messages.
 */
export function ConfiguratorPage(
  {
    intro,
    asideLabel,
    options,
    limit,
    summaryId,
    limitMessage,
    shortMessage,
    price,
    order,
    stock,
    shared,
  }: {
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
    /** Live stock for the whole build (switch cards say how many are left). */
    stock: LiveStock | null;
    /** The build a shared link opened with (read by the page from its URL). */
    shared: BuildLink;
  },
) {
  const { switches, selection, extras, add, notice, drops, toggle, refusedId } = useConfigurator({
    limit,
    limitMessage,
    order,
    stock,
    shared,
  });

  async function copyLink() {
    const query = buildQuery({
      size: "size" in order ? order.size : undefined,
      keycaps: order.keycaps,
      bodyColor: order.bodyColor ?? DEFAULT_BODY_COLOR,
      switchIds: selection.ids,
    });
    const url = `${location.origin}${location.pathname}?${query}`;
    try {
      await navigator.clipboard.writeText(url);
      toast.success("Link to this build copied");
    } catch {
      // No clipboard (an insecure page, a refused permission): show the link to copy by hand.
      globalThis.prompt("Copy this link to your build:", url);
    }
  }
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
          <button type="button" className="button secondary share-build" onClick={copyLink}>
            Copy link to this build
          </button>
          <p className="small shared-build-note" role="status" data-testid="shared-build-note">
            {notice ?? ""}
          </p>
        </aside>
        <SwitchPicker
          state={switches}
          isSelected={selection.has}
          onToggle={toggle}
          drops={drops.drops}
          refusedId={refusedId}
          fill={{
            chosen: selection.chosen,
            slots: limit - selection.ids.length,
            add: selection.addAll,
          }}
          summaryId={summaryId}
        />
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
