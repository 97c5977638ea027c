import {
  type BodyColor,
  formatCents,
  KEYCAP_CENTS_PER_SWITCH,
  TESTER_BASE_CENTS,
  TESTER_SIZES,
  type TesterKeycaps,
  type TesterSize,
} from "../../../shared/pricing.ts";
import { type BuildStock, keycapProblem, sizeProblem } from "../../../shared/build_rules.ts";
import { BodyColorGroup } from "./body_color_group.tsx";
import { ChoiceGroup } from "./choice_group.tsx";

/** The custom tester's choices. */
export interface TesterConfig {
  size: TesterSize;
  keycaps: TesterKeycaps;
  bodyColor: BodyColor;
}

/** Switch count, keycaps and body colour of the custom tester. */
export function TesterOptions({ config, onChange, stock }: {
  config: TesterConfig;
  onChange: (patch: Partial<TesterConfig>) => void;
  /** Live stock for the whole build; null while it loads (nothing is disabled then). */
  stock: BuildStock | null;
}) {
  const sizeReason = (size: TesterSize) => (stock ? sizeProblem(size, stock) : null);
  const keycapReason = (k: TesterKeycaps) => (stock ? keycapProblem(k, config.size, stock) : null);
  const perSwitch = (k: TesterKeycaps) => `+${formatCents(KEYCAP_CENTS_PER_SWITCH[k])} each`;
  return (
    <div className="options">
      <ChoiceGroup<TesterSize>
        legend="Number of switches"
        name="tester-size"
        value={config.size}
        choices={TESTER_SIZES.map((size) => ({
          value: size,
          label: `${size} switches`,
          note: formatCents(TESTER_BASE_CENTS[size]),
          disabled: !!sizeReason(size),
          reason: sizeReason(size),
        }))}
        onChange={(size) => onChange({ size })}
      />
      <ChoiceGroup<TesterKeycaps>
        legend="Keycaps"
        name="tester-keycaps"
        value={config.keycaps}
        choices={[
          { value: "none", label: "None" },
          {
            value: "transparent",
            label: "Transparent",
            note: perSwitch("transparent"),
            disabled: !!keycapReason("transparent"),
            reason: keycapReason("transparent"),
          },
          // Priced and accepted by the API, but not offered yet (docs/decisions.md#random-keycaps).
          { value: "random", label: "Random", note: "coming soon", disabled: true },
        ]}
        onChange={(keycaps) => onChange({ keycaps })}
      />
      <BodyColorGroup
        name="tester-body"
        value={config.bodyColor}
        onChange={(bodyColor) => onChange({ bodyColor })}
      />
    </div>
  );
}
