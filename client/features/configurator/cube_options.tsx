import { cubeImageUrl } from "../../../shared/images.ts";
import { type BodyColor, CUBE_SIZE, type CubeKeycaps } from "../../../shared/pricing.ts";
import { IMAGE_BASE } from "../../app/image_base.ts";
import { type BuildStock, cubeBodyProblem } from "../../../shared/build_rules.ts";
import { BODY_COLOR_LABELS, BodyColorGroup } from "./body_color_group.tsx";
import { ChoiceGroup } from "./choice_group.tsx";

/** The fidget cube's choices. */
export interface CubeConfig {
  keycaps: CubeKeycaps;
  bodyColor: BodyColor;
}

const KEYCAP_LABELS: Record<CubeKeycaps, string> = { white: "White", pastel: "Pastel Mix" };

/** The preview image, which follows the options, and the cube's choices. */
export function CubeOptions({ config, onChange, stock }: {
  config: CubeConfig;
  onChange: (patch: Partial<CubeConfig>) => void;
  /** Live stock for the whole build; null while it loads. */
  stock: BuildStock | null;
}) {
  return (
    <div className="options">
      <img
        className="cube-preview"
        data-testid="cube-preview"
        src={cubeImageUrl(IMAGE_BASE, config.keycaps, config.bodyColor)}
        alt={`Fidget cube preview: ${BODY_COLOR_LABELS[config.bodyColor].toLowerCase()} body with ${
          KEYCAP_LABELS[config.keycaps].toLowerCase()
        } keycaps`}
        width="240"
        height="240"
      />
      <p className="fixed-option">
        Number of switches: <strong>{CUBE_SIZE}</strong>
      </p>
      <BodyColorGroup
        name="cube-body"
        value={config.bodyColor}
        onChange={(bodyColor) => onChange({ bodyColor })}
        unavailable={stock ? cubeBodyProblem(stock) : null}
      />
      <ChoiceGroup<CubeKeycaps>
        legend="Keycaps"
        name="cube-keycaps"
        value={config.keycaps}
        choices={[
          { value: "white", label: KEYCAP_LABELS.white },
          { value: "pastel", label: KEYCAP_LABELS.pastel },
        ]}
        onChange={(keycaps) => onChange({ keycaps })}
      />
    </div>
  );
}
