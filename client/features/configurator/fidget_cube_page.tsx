import { useState } from "react";
import { toast } from "react-hot-toast";
import {
  CUBE_BASE_CENTS,
  CUBE_SIZE,
  cubeCents,
  DEFAULT_BODY_COLOR,
  premiumCents,
} from "../../../shared/pricing.ts";
import { addConfiguration } from "./add_configuration.ts";
import { ConfiguratorAddButton } from "./configurator_add_button.tsx";
import { type CubeConfig, CubeOptions } from "./cube_options.tsx";
import { type PriceLine, PriceSummary } from "./price_summary.tsx";
import { SelectionBar } from "./selection_bar.tsx";
import { SelectionSummary } from "./selection_summary.tsx";
import { SwitchPicker } from "./switch_picker.tsx";
import { useSelection } from "./use_selection.ts";
import { useSwitches } from "./use_switches.ts";

const NAME = "Custom Fidget Cube";
const SUMMARY_ID = "cube-summary";

/** Base price, then the premium switches line only when it is not zero. */
function priceLines(extras: number[]): PriceLine[] {
  const lines: PriceLine[] = [{ label: "Base price", cents: CUBE_BASE_CENTS }];
  const premium = premiumCents(extras);
  if (premium !== 0) lines.push({ label: "Premium switches", cents: premium });
  return lines;
}

/** /testers/fidget-cube: a cube with six switches, a body colour and a keycap set. */
export function FidgetCubePage() {
  const switches = useSwitches();
  const [config, setConfig] = useState<CubeConfig>({
    keycaps: "white",
    bodyColor: DEFAULT_BODY_COLOR,
  });
  const selection = useSelection(
    switches.switches,
    CUBE_SIZE,
    () =>
      toast.error(`You can only select ${CUBE_SIZE} switches for the Fidget Cube.`, {
        id: "switch-limit",
      }),
  );
  const picked = selection.chosen.length;
  const extras = selection.chosen.map((sw) => sw.extraPriceCents);

  async function add() {
    const added = await addConfiguration({
      name: NAME,
      size: CUBE_SIZE,
      keycaps: config.keycaps,
      bodyColor: config.bodyColor,
      switches: selection.ids.map((id) => ({ id, quantity: 1 })),
      quantity: 1,
    });
    if (added) selection.clear();
  }

  return (
    <section className="page configurator-page">
      <div className="configurator">
        <aside className="configurator-aside" aria-labelledby="cube-title">
          <div className="card cube-card">
            <h1 id="cube-title">Custom Fidget Cube</h1>
            <CubeOptions config={config} onChange={(patch) => setConfig({ ...config, ...patch })} />
          </div>
          <div className="card configurator-summary" id={SUMMARY_ID}>
            <SelectionSummary
              chosen={selection.chosen}
              limit={CUBE_SIZE}
              onRemove={selection.remove}
            />
            <PriceSummary lines={priceLines(extras)} totalCents={cubeCents(extras)} />
            <ConfiguratorAddButton
              state={picked === CUBE_SIZE ? "ready" : "short"}
              onShort={() =>
                toast.error(`Please select ${CUBE_SIZE} switches. You've selected ${picked}.`, {
                  id: "switch-short",
                })}
              onAdd={add}
            />
          </div>
        </aside>
        <SwitchPicker state={switches} isSelected={selection.has} onToggle={selection.toggle} />
      </div>
      <SelectionBar
        count={picked}
        limit={CUBE_SIZE}
        totalCents={cubeCents(extras)}
        summaryId={SUMMARY_ID}
      />
    </section>
  );
}
