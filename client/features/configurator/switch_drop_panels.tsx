import type { DropPublicView } from "../../../shared/drops.ts";
import { DropPanel } from "../../app/drops/drop_panel.tsx";
import { panelDrops } from "./switch_drop_rules.ts";

/**
 * The panels of the switch drops scheduled or selling, above the switch list: each with its
 * countdown, "Email me when it opens" and the way into its waiting room, as a product page shows
 * its own. Read with the switch list's drops, so they ask nothing more.
 */
export function SwitchDropPanels({ drops }: { drops: readonly DropPublicView[] }) {
  const shown = panelDrops(drops);
  if (shown.length === 0) return null;
  return (
    <div className="switch-drop-panels">
      {shown.map((drop) => (
        <DropPanel key={drop.id} target={drop.target} name={drop.name} known={drop} named />
      ))}
    </div>
  );
}
