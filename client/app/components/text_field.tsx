import type { ReactNode } from "react";

/**
 * A labelled text input with an optional hint and an inline error, wired for screen readers: the
 * input is described by the hint and the error, and marked invalid while the error shows. The
 * error is no alert: a form that refuses moves the focus to the field, which then reads its
 * message, and a message shown as a field is left (the /checkout form) must not interrupt the
 * shopper at every Tab.
 */
export function TextField({
  id,
  name = id,
  label,
  labelAside,
  className = "field",
  type = "text",
  autoComplete,
  inputMode,
  pattern,
  required,
  maxLength = 200,
  value,
  onChange,
  onBlur,
  hint,
  error,
  invalidBy,
}: {
  id: string;
  name?: string;
  label: ReactNode;
  /** Shown on the label's line, at its end (a 'Forgot password?' link). */
  labelAside?: ReactNode;
  className?: string;
  type?: string;
  autoComplete?: string;
  inputMode?: "numeric" | "decimal" | "text" | "email";
  pattern?: string;
  required?: boolean;
  maxLength?: number;
  value: string;
  onChange: (value: string) => void;
  /** Called when the field loses focus (forms show a field's error once it was left). */
  onBlur?: () => void;
  hint?: string;
  error?: string;
  /**
   * The id of a message shown elsewhere that makes this field invalid too ("Invalid email or
   * password" is shown once, under the password, and marks both fields).
   */
  invalidBy?: string;
}) {
  const labelElement = <label htmlFor={id}>{label}</label>;
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`, invalidBy]
    .filter(Boolean).join(" ");
  return (
    <div className={className}>
      {labelAside ? <div className="label-row">{labelElement}{labelAside}</div> : labelElement}
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        pattern={pattern}
        required={required}
        maxLength={maxLength}
        value={value}
        aria-invalid={error || invalidBy ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
      />
      {hint && <span id={`${id}-hint`} className="muted small">{hint}</span>}
      {error && <p id={`${id}-error`} className="error-text small">{error}</p>}
    </div>
  );
}
