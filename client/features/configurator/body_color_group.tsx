import type { BodyColor } from "../../../shared/pricing.ts";
import { ChoiceGroup } from "./choice_group.tsx";

/** The body colours' names, also used where a page describes its preview. */
export const BODY_COLOR_LABELS: Record<BodyColor, string> = { white: "White", black: "Black" };

/** The body colour question; the tester and the cube offer the same colours. */
export function BodyColorGroup({ name, value, onChange }: {
  /** The radios' name, distinct per page. */
  name: string;
  value: BodyColor;
  onChange: (bodyColor: BodyColor) => void;
}) {
  return (
    <ChoiceGroup<BodyColor>
      legend="Body colour"
      name={name}
      value={value}
      choices={[
        { value: "white", label: BODY_COLOR_LABELS.white },
        { value: "black", label: BODY_COLOR_LABELS.black },
      ]}
      onChange={onChange}
    />
  );
}
