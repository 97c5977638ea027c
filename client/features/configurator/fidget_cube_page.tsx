import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { readBuildLink } from "../../../shared/build_link.ts";
import {
  CUBE_BASE_CENTS,
  CUBE_SIZE,
  cubeCents,
  type CubeKeycaps,
  DEFAULT_BODY_COLOR,
} from "../../../shared/pricing.ts";
import { ConfiguratorPage } from "./configurator_page.tsx";
import { useBuildStock } from "./use_build_stock.ts";
import { type CubeConfig, CubeOptions } from "./cube_options.tsx";
import { premiumLines, type PriceLine } from "./price_summary.tsx";

/** Base price, then the premium switches line only when it is not zero. */
function priceLines(extras: number[]): PriceLine[] {
  return [{ label: "Base price", cents: CUBE_BASE_CENTS }, ...premiumLines(extras)];
}

/** /testers/fidget-cube: a cube with six switches, a body colour and a keycap set. */
export function FidgetCubePage() {
  const stock = useBuildStock();
  const [params] = useSearchParams();
  // Read once: the link opens the build, later changes are the shopper's.
  const [shared] = useState(() => readBuildLink(params, "cube"));
  const [config, setConfig] = useState<CubeConfig>(() => ({
    keycaps: (shared.keycaps as CubeKeycaps | undefined) ?? "white",
    bodyColor: shared.bodyColor ?? DEFAULT_BODY_COLOR,
  }));

  return (
    <ConfiguratorPage
      stock={stock}
      shared={shared}
      // The cube's heading sits in its card, beside the preview, and names the aside.
      asideLabel={{ "aria-labelledby": "cube-title" }}
      options={
        <div className="card cube-card">
          <h1 id="cube-title">Custom Fidget Cube</h1>
          <CubeOptions
            config={config}
            stock={stock}
            onChange={(patch) => setConfig({ ...config, ...patch })}
          />
        </div>
      }
      limit={CUBE_SIZE}
      summaryId="cube-summary"
      limitMessage={`You can only select ${CUBE_SIZE} switches for the Fidget Cube.`}
      shortMessage={(picked) => `Please select ${CUBE_SIZE} switches. You've selected ${picked}.`}
      price={(extras) => ({ lines: priceLines(extras), totalCents: cubeCents(extras) })}
      order={{
        name: "Custom Fidget Cube",
        size: CUBE_SIZE,
        keycaps: config.keycaps,
        bodyColor: config.bodyColor,
      }}
    />
  );
}
