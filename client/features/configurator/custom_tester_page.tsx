import { useState } from "react";
import { toast } from "react-hot-toast";
import {
  customTesterCents,
  DEFAULT_BODY_COLOR,
  formatCents,
  KEYCAP_CENTS_PER_SWITCH,
  premiumCents,
  TESTER_BASE_CENTS,
} from "../../../shared/pricing.ts";
import { KEYCAP_NAMES } from "../../app/order_line_text.ts";
import { addConfiguration } from "./add_configuration.ts";
import { ConfiguratorAddButton } from "./configurator_add_button.tsx";
import { type PriceLine, PriceSummary } from "./price_summary.tsx";
import { SelectionBar } from "./selection_bar.tsx";
import { SelectionSummary } from "./selection_summary.tsx";
import { SwitchPicker } from "./switch_picker.tsx";
import { type TesterConfig, TesterOptions } from "./tester_options.tsx";
import { useSelection } from "./use_selection.ts";
import { useSwitches } from "./use_switches.ts";

const NAME = "Custom Switch Tester";
const SUMMARY_ID = "tester-summary";

/** The summary lines: base by size, then keycaps and premium switches only when they cost. */
function priceLines(config: TesterConfig, extras: number[]): PriceLine[] {
  const lines: PriceLine[] = [
    { label: `Base price (${config.size} switches)`, cents: TESTER_BASE_CENTS[config.size] },
  ];
  const perSwitch = KEYCAP_CENTS_PER_SWITCH[config.keycaps];
  if (perSwitch !== 0) {
    lines.push({
      label: `${KEYCAP_NAMES[config.keycaps]} (${config.size} × ${formatCents(perSwitch)})`,
      cents: perSwitch * config.size,
    });
  }
  const premium = premiumCents(extras);
  if (premium !== 0) lines.push({ label: "Premium switches", cents: premium });
  return lines;
}

/** /testers/custom: choose a size, keycaps and body colour, then pick that many switches. */
export function CustomTesterPage() {
  const switches = useSwitches();
  const [config, setConfig] = useState<TesterConfig>({
    size: 10,
    keycaps: "none",
    bodyColor: DEFAULT_BODY_COLOR,
  });
  const selection = useSelection(
    switches.switches,
    config.size,
    // One toast id, so repeated refusals replace each other instead of stacking up.
    () => toast.error(`You can only select ${config.size} switches.`, { id: "switch-limit" }),
  );
  const picked = selection.chosen.length;
  const extras = selection.chosen.map((sw) => sw.extraPriceCents);
  const totalCents = customTesterCents(config.size, config.keycaps, extras);

  async function add() {
    const added = await addConfiguration({
      name: NAME,
      size: config.size,
      keycaps: config.keycaps,
      switches: selection.ids.map((id) => ({ id, quantity: 1 })),
      quantity: 1,
      bodyColor: config.bodyColor,
    });
    if (added) selection.clear();
  }

  return (
    <section className="page configurator-page">
      <h1>Custom Switch Tester</h1>
      <p className="muted lead">
        Pick the switches you want to try, we print the tester and fit them for you.
      </p>
      <div className="configurator">
        <aside className="configurator-aside" aria-label="Your tester">
          <div className="card">
            <TesterOptions
              config={config}
              onChange={(patch) => setConfig({ ...config, ...patch })}
            />
          </div>
          <div className="card configurator-summary" id={SUMMARY_ID}>
            <SelectionSummary
              chosen={selection.chosen}
              limit={config.size}
              onRemove={selection.remove}
            />
            <PriceSummary lines={priceLines(config, extras)} totalCents={totalCents} />
            <ConfiguratorAddButton
              state={picked === config.size ? "ready" : picked < config.size ? "short" : "over"}
              onShort={() =>
                toast.error(
                  `Please select ${config.size} switches. You've only selected ${picked}.`,
                  { id: "switch-short" },
                )}
              onAdd={add}
            />
          </div>
        </aside>
        <SwitchPicker state={switches} isSelected={selection.has} onToggle={selection.toggle} />
      </div>
      <SelectionBar
        count={picked}
        limit={config.size}
        totalCents={totalCents}
        summaryId={SUMMARY_ID}
      />
    </section>
  );
}
