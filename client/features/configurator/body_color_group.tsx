import type { BodyColor } from "../../../shared/pricing.ts";
import { ChoiceGroup } from "./choice_group.tsx";

/** The body colours' names, also used where a page describes its preview. */
export const BODY_COLOR_LABELS: Record<BodyColor, string> = { white: "White", black: "Black" };

/** The body colour question; the tester and the cube offer the same colours. */
export function BodyColorGroup({ name, value, onChange, unavailable = null }: {
  /** The radios' name, distinct per page. */
  name: string;
  value: BodyColor;
  onChange: (bodyColor: BodyColor) => void;
  /** Why no colour can be had now (a cube's bodies are out), or null. */
  unavailable?: string | null;
}) {
  return (
    <ChoiceGroup<BodyColor>
      legend="Body colour"
      name={name}
      value={value}
      choices={[
        {
          value: "white",
          label: BODY_COLOR_LABELS.white,
          disabled: !!unavailable,
          reason: unavailable,
        },
        {
          value: "black",
          label: BODY_COLOR_LABELS.black,
          disabled: !!unavailable,
          reason: unavailable,
        },
      ]}
      onChange={onChange}
    />
  );
}
