import { TextField } from "../../app/components/text_field.tsx";
import { AddressFields, OPTIONAL } from "./address_fields.tsx";
import type { ShippingErrors, ShippingFields } from "./shipping_check.ts";

/**
 * The Contact and Shipping sections of /checkout; every field carries its autocomplete hint and,
 * once the shopper has left it, the server's message when the server would refuse it.
 */
export function ShippingForm({ fields, errors, onChange, onLeave }: {
  fields: ShippingFields;
  /** The messages to show now (the page decides which fields are ready to be told off). */
  errors: ShippingErrors;
  onChange: (name: keyof ShippingFields, value: string) => void;
  onLeave: (name: keyof ShippingFields) => void;
}) {
  function field(
    name: keyof ShippingFields,
    label: string,
    autoComplete: string,
    extra: { required?: boolean; type?: string; maxLength?: number; hint?: string } = {},
  ) {
    return (
      <TextField
        id={`checkout-${name}`}
        name={name}
        className={`field field-${name}`}
        label={
          <>
            {label}
            {!extra.required && <span className="muted optional">{OPTIONAL}</span>}
          </>
        }
        autoComplete={autoComplete}
        value={fields[name]}
        error={errors[name]}
        onChange={(value) => onChange(name, value)}
        onBlur={() => onLeave(name)}
        {...extra}
      />
    );
  }

  return (
    <div className="checkout-details">
      {/* Not a submitting form: the payment starts by itself once everything is filled in. */}
      <form
        className="card checkout-section"
        aria-labelledby="contact-title"
        noValidate
        onSubmit={(e) => e.preventDefault()}
      >
        <h2 id="contact-title">Contact</h2>
        {field("email", "Email", "email", {
          required: true,
          type: "email",
          maxLength: 254,
          hint: "We send your confirmation and tracking here.",
        })}
      </form>
      <form
        className="card checkout-section"
        aria-labelledby="shipping-title"
        noValidate
        onSubmit={(e) => e.preventDefault()}
      >
        <h2 id="shipping-title">Shipping</h2>
        <p className="muted small">This checkout ships within the United States.</p>
        <div className="field-pair">
          {field("firstName", "First name", "shipping given-name", { required: true })}
          {field("lastName", "Last name", "shipping family-name", { required: true })}
        </div>
        <AddressFields
          idPrefix="checkout"
          values={fields}
          errors={errors}
          onChange={onChange}
          onLeave={onLeave}
          region="us"
          marked
        />
      </form>
    </div>
  );
}
