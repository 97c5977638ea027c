import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { readBuildLink } from "../../../shared/build_link.ts";
import {
  customTesterCents,
  DEFAULT_BODY_COLOR,
  formatCents,
  KEYCAP_CENTS_PER_SWITCH,
  TESTER_BASE_CENTS,
  type TesterKeycaps,
} from "../../../shared/pricing.ts";
import { KEYCAP_NAMES } from "../../app/order_line_text.ts";
import { ConfiguratorPage } from "./configurator_page.tsx";
import { useBuildStock } from "./use_build_stock.ts";
import { premiumLines, type PriceLine } from "./price_summary.tsx";
import { type TesterConfig, TesterOptions } from "./tester_options.tsx";

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
  return [...lines, ...premiumLines(extras)];
}

/** /testers/custom: choose a size, keycaps and body colour, then pick that many switches. */
export function CustomTesterPage() {
  const stock = useBuildStock();
  const [params] = useSearchParams();
  // Read once: the link opens the build, later changes are the shopper's.
  const [shared] = useState(() => readBuildLink(params, "tester"));
  const [config, setConfig] = useState<TesterConfig>(() => ({
    size: shared.size ?? 10,
    keycaps: (shared.keycaps as TesterKeycaps | undefined) ?? "none",
    bodyColor: shared.bodyColor ?? DEFAULT_BODY_COLOR,
  }));

  return (
    <ConfiguratorPage
      stock={stock}
      shared={shared}
      intro={
        <>
          <h1>Custom Switch Tester</h1>
          <p className="muted lead">
            Pick the switches you want to try, we print the tester and fit them for you.
          </p>
        </>
      }
      asideLabel={{ "aria-label": "Your tester" }}
      options={
        <div className="card">
          <TesterOptions
            config={config}
            stock={stock}
            onChange={(patch) => setConfig({ ...config, ...patch })}
          />
        </div>
      }
      limit={config.size}
      summaryId="tester-summary"
      limitMessage={`You can only select ${config.size} switches.`}
      shortMessage={(picked) =>
        `Please select ${config.size} switches. You've only selected ${picked}.`}
      price={(extras) => ({
        lines: priceLines(config, extras),
        totalCents: customTesterCents(config.size, config.keycaps, extras),
      })}
      order={{
        name: "Custom Switch Tester",
        size: config.size,
        keycaps: config.keycaps,
        bodyColor: config.bodyColor,
      }}
    />
  );
}
