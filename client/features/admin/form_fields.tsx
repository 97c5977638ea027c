import type { ReactNode } from "react";
import { TextField } from "../../app/components/text_field.tsx";
import type { Fields, FormValues } from "./use_fields.ts";

/** The keys of a form's text fields. */
type TextKey<V extends FormValues> = { [K in keyof V & string]: V[K] extends string ? K : never }[
  keyof V & string
];

/** The keys of a form's checkboxes. */
type CheckKey<V extends FormValues> = {
  [K in keyof V & string]: V[K] extends boolean ? K : never;
}[keyof V & string];

/** A labelled one-line field of an admin form, with its hint and its message beside it. */
export function InputField<V extends FormValues>({
  fields,
  name,
  label,
  hint,
  type,
  inputMode,
  maxLength,
  className,
}: {
  fields: Fields<V>;
  name: TextKey<V>;
  label: ReactNode;
  hint?: string;
  type?: string;
  inputMode?: "numeric" | "decimal" | "text" | "email";
  maxLength?: number;
  className?: string;
}) {
  return (
    <TextField
      id={fields.idOf(name)}
      name={name}
      label={label}
      hint={hint}
      type={type}
      inputMode={inputMode}
      maxLength={maxLength}
      className={className ? `field ${className}` : "field"}
      value={fields.values[name] as string}
      onChange={(v) => fields.set(name, v as V[typeof name])}
      error={fields.errors[name]}
    />
  );
}

/** A money field: dollars with two decimals, typed as text so '12.5' is not rewritten. */
export function MoneyField<V extends FormValues>(
  props: { fields: Fields<V>; name: TextKey<V>; label: string; hint?: string },
) {
  return (
    <InputField
      {...props}
      inputMode="decimal"
      maxLength={12}
      className="admin-money-field"
      hint={props.hint ?? "In dollars, for example 2.50"}
    />
  );
}

/** A labelled multi-line field with its message beside it. */
export function TextAreaField<V extends FormValues>(
  { fields, name, label, maxLength, hint }: {
    fields: Fields<V>;
    name: TextKey<V>;
    label: string;
    maxLength?: number;
    hint?: string;
  },
) {
  const id = fields.idOf(name);
  const error = fields.errors[name];
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        maxLength={maxLength}
        value={fields.values[name] as string}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(e) => fields.set(name, e.target.value as V[typeof name])}
      />
      {hint && <span id={`${id}-hint`} className="muted small">{hint}</span>}
      {error && <p id={`${id}-error`} className="error-text small" role="alert">{error}</p>}
    </div>
  );
}

/** A labelled checkbox with its message beside it. */
export function CheckField<V extends FormValues>(
  { fields, name, label, className }: {
    fields: Fields<V>;
    name: CheckKey<V>;
    label: string;
    className?: string;
  },
) {
  const id = fields.idOf(name);
  const error = fields.errors[name];
  return (
    <div className={`field admin-check-field ${className ?? ""}`}>
      <label className="checkbox" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          name={name}
          checked={fields.values[name] as boolean}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => fields.set(name, e.target.checked as V[typeof name])}
        />
        {label}
      </label>
      {error && <p id={`${id}-error`} className="error-text small" role="alert">{error}</p>}
    </div>
  );
}

/** A message that belongs to the whole form (one the server gave without naming a field). */
export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return <p className="error-text admin-form-error" role="alert">{message}</p>;
}
