import { toast } from "react-hot-toast";
import { ConfiguratorAddButton } from "./configurator_add_button.tsx";
import { type PriceLine, PriceSummary } from "./price_summary.tsx";
import { SelectionSummary } from "./selection_summary.tsx";
import type { Selection } from "./use_selection.ts";

/** Ready with exactly `limit` picks; over only happens after the tester size is lowered. */
function addState(picked: number, limit: number): "ready" | "short" | "over" {
  if (picked === limit) return "ready";
  return picked < limit ? "short" : "over";
}

/** The summary card: the picks, the price breakdown and Add to Cart. */
export function ConfiguratorSummary(
  { id, selection, limit, lines, totalCents, shortMessage, onAdd }: {
    /** The selection bar scrolls back to this id. */
    id: string;
    selection: Selection;
    limit: number;
    lines: PriceLine[];
    totalCents: number;
    /** Says how many are missing when Add is clicked too early; each page words it its own way. */
    shortMessage: (picked: number) => string;
    onAdd: () => Promise<void>;
  },
) {
  const picked = selection.chosen.length;
  return (
    <div className="card configurator-summary" id={id}>
      <SelectionSummary chosen={selection.chosen} limit={limit} onRemove={selection.remove} />
      <PriceSummary lines={lines} totalCents={totalCents} />
      <ConfiguratorAddButton
        state={addState(picked, limit)}
        onShort={() => toast.error(shortMessage(picked), { id: "switch-short" })}
        onAdd={onAdd}
      />
    </div>
  );
}
