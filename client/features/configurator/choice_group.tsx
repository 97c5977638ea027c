import type { ReactNode } from "react";

/** One option of a choice group. */
export interface Choice<T extends string | number> {
  value: T;
  label: ReactNode;
  /** Shown beside the label, e.g. a price or 'coming soon'. */
  note?: ReactNode;
  disabled?: boolean;
}

/**
 * A radio group drawn as pills: a fieldset with a legend, so each radio is announced with its
 * question, and arrow keys move between options as in any native radio group.
 */
export function ChoiceGroup<T extends string | number>({ legend, name, value, choices, onChange }: {
  legend: string;
  name: string;
  value: T;
  choices: Choice<T>[];
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="choice-group">
      <legend>{legend}</legend>
      <div className="choices">
        {choices.map((choice) => (
          <label
            key={String(choice.value)}
            className={`choice${choice.disabled ? " disabled" : ""}${
              choice.value === value ? " checked" : ""
            }`}
          >
            <input
              type="radio"
              name={name}
              value={String(choice.value)}
              checked={choice.value === value}
              disabled={choice.disabled}
              onChange={() => onChange(choice.value)}
            />
            <span className="choice-label">{choice.label}</span>
            {choice.note && <span className="choice-note">{choice.note}</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
