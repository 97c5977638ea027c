import type { ReactNode } from "react";

/** One option of a choice group. */
export interface Choice<T extends string | number> {
  value: T;
  label: ReactNode;
  /** Shown beside the label, e.g. a price or 'coming soon'. */
  note?: ReactNode;
  disabled?: boolean;
  /** Why it is disabled, shown beside it, on hover, and read with it by screen readers. */
  reason?: string | null;
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
              aria-describedby={choice.reason ? `${name}-${choice.value}-reason` : undefined}
              onChange={() => onChange(choice.value)}
            />
            <span className="choice-label" title={choice.reason ?? undefined}>{choice.label}</span>
            {choice.note && <span className="choice-note">{choice.note}</span>}
            {choice.reason && (
              <span id={`${name}-${choice.value}-reason`} className="choice-reason">
                {choice.reason}
              </span>
            )}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
