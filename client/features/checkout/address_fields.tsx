import { TextField } from "../../app/components/text_field.tsx";

/**
 * After a field's label; the space is part of the text: a space on its own beside the span is
 * dropped from the accessible name ("State(optional)").
 */
export const OPTIONAL = " (optional)";

/** The address part of both checkout forms (the /checkout page and the demo provider's page). */
export interface AddressInput {
  address: string;
  apartment: string;
  city: string;
  state: string;
  zipCode: string;
}

/** Digits as typed, with the dash of a ZIP+4 put in by itself, so a number pad is enough. */
export function zipInput(value: string): string {
  const digits = value.replace(/\D/g, "").slice(0, 9);
  return digits.length > 5 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : digits;
}

/**
 * Address, apartment, city, state and ZIP (or postal code abroad), each with its autocomplete
 * hint. Input ids are `${idPrefix}-${name}`, so a page can move focus to a field it reports.
 */
export function AddressFields(
  { idPrefix, values, errors = {}, onChange, onLeave, region, marked }: {
    idPrefix: string;
    values: AddressInput;
    errors?: Partial<Record<keyof AddressInput, string>>;
    onChange: (name: keyof AddressInput, value: string) => void;
    onLeave?: (name: keyof AddressInput) => void;
    region: "us" | "international";
    /** Whether optional fields say so (the /checkout form, where the rest is required). */
    marked: boolean;
  },
) {
  const us = region === "us";
  function field(
    name: keyof AddressInput,
    label: string,
    autoComplete: string,
    extra: {
      required?: boolean;
      maxLength?: number;
      hint?: string;
      inputMode?: "numeric";
      format?: (value: string) => string;
    } = {},
  ) {
    const { format = (v: string) => v, ...input } = extra;
    return (
      <TextField
        id={`${idPrefix}-${name}`}
        name={name}
        className={`field field-${name}`}
        label={
          <>
            {label}
            {marked && !extra.required && <span className="muted optional">{OPTIONAL}</span>}
          </>
        }
        autoComplete={autoComplete}
        value={values[name]}
        error={errors[name]}
        onChange={(value) => onChange(name, format(value))}
        onBlur={onLeave && (() => onLeave(name))}
        {...input}
        required={marked && extra.required}
      />
    );
  }

  return (
    <>
      {field("address", "Address", "shipping address-line1", { required: true })}
      {field("apartment", "Apartment, suite, etc.", "shipping address-line2", { maxLength: 100 })}
      <div className="field-trio">
        {field("city", "City", "shipping address-level2", { required: true, maxLength: 100 })}
        {/* Optional as in the spec's list of what payment needs: the ZIP implies the state. */}
        {field("state", us ? "State" : "State / region", "shipping address-level1", {
          maxLength: us ? 50 : 100,
        })}
        {us
          ? field("zipCode", "ZIP code", "shipping postal-code", {
            required: true,
            maxLength: 10,
            inputMode: "numeric",
            hint: "5 digits, or ZIP+4",
            // The server takes 12345 or 12345-6789 (shared/schemas.ts): nothing else can be typed.
            format: zipInput,
          })
          : field("zipCode", "Postal code", "shipping postal-code", { maxLength: 20 })}
      </div>
    </>
  );
}
