import { TextField } from "../../app/components/text_field.tsx";

/** The checkout form's fields (docs/product.md#data, checkout form). */
export interface ShippingFields {
  email: string;
  firstName: string;
  lastName: string;
  address: string;
  apartment: string;
  city: string;
  state: string;
  zipCode: string;
}

/** The Contact and Shipping sections of /checkout; every field carries its autocomplete hint. */
export function ShippingForm({ fields, onChange }: {
  fields: ShippingFields;
  onChange: (name: keyof ShippingFields, value: string) => void;
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
            {!extra.required && <span className="muted optional">(optional)</span>}
          </>
        }
        autoComplete={autoComplete}
        value={fields[name]}
        onChange={(value) => onChange(name, value)}
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
        {field("address", "Address", "shipping address-line1", { required: true })}
        {field("apartment", "Apartment, suite, etc.", "shipping address-line2", {
          maxLength: 100,
        })}
        <div className="field-trio">
          {field("city", "City", "shipping address-level2", { required: true, maxLength: 100 })}
          {/* Optional as in the spec's list of what payment needs: the ZIP implies the state. */}
          {field("state", "State", "shipping address-level1", { maxLength: 50 })}
          <TextField
            id="checkout-zipCode"
            name="zipCode"
            className="field field-zipCode"
            label="ZIP code"
            inputMode="numeric"
            autoComplete="shipping postal-code"
            required
            maxLength={5}
            pattern="[0-9]{5}"
            value={fields.zipCode}
            hint="5 digits"
            // Only digits: a ZIP is complete at 5 characters (docs/product.md#validation).
            onChange={(value) => onChange("zipCode", value.replace(/\D/g, "").slice(0, 5))}
          />
        </div>
      </form>
    </div>
  );
}
