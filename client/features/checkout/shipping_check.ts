/**
 * The /checkout form checked with the server's own schema (shared/schemas.ts orderCreateSchema),
 * so the page refuses exactly what the server would refuse, in the server's words.
 */
import { orderCreateSchema } from "../../../shared/schemas.ts";
import type { Address } from "../../../shared/api_types.ts";
import { fieldErrors } from "../../app/field_errors.ts";

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

/** A message per form field that the server would refuse. */
export type ShippingErrors = Partial<Record<keyof ShippingFields, string>>;

/** The contact and shipping part of POST /api/orders/create, as the server will read it. */
export interface ShippingDetails {
  email: string;
  customerName: string;
  shippingAddress: Address & { country: "US" };
}

const { email: emailSchema, customerName: nameSchema, shippingAddress: addressSchema } =
  orderCreateSchema.shape;

/** The API's address keys named as the form names its fields. */
const FIELD_OF_ADDRESS_KEY: Record<string, keyof ShippingFields> = {
  street: "address",
  apartment: "apartment",
  city: "city",
  state: "state",
  zipCode: "zipCode",
};

/** Whether the server takes this ZIP code (5 digits, or a ZIP+4). */
export function isValidZip(zipCode: string): boolean {
  return addressSchema.shape.zipCode.safeParse(zipCode).success;
}

/**
 * Checks the fields; answers the details to send (trimmed as the server trims them) when all
 * pass, else null, and the message of every failing field.
 */
export function checkShipping(fields: ShippingFields): {
  details: ShippingDetails | null;
  errors: ShippingErrors;
} {
  const errors: ShippingErrors = {};
  // The server gets the email trimmed, as the page has always sent it.
  const email = emailSchema.safeParse(fields.email.trim());
  if (!email.success) errors.email = email.error.issues[0].message;
  // The server checks one name; the form asks for two parts, each checked by the same rule and
  // named as the form names it ("Name is required" reads "First name is required").
  for (const [key, label] of [["firstName", "First name"], ["lastName", "Last name"]] as const) {
    const part = nameSchema.safeParse(fields[key]);
    if (!part.success) errors[key] = part.error.issues[0].message.replace(/^Name\b/, label);
  }
  const customerName = nameSchema.safeParse(`${fields.firstName.trim()} ${fields.lastName.trim()}`);
  if (!customerName.success) errors.lastName ??= customerName.error.issues[0].message;
  const address = addressSchema.safeParse({
    street: fields.address,
    apartment: fields.apartment,
    city: fields.city,
    state: fields.state,
    zipCode: fields.zipCode,
    country: "US",
  });
  if (!address.success) {
    for (const [key, message] of Object.entries(fieldErrors(address.error))) {
      const field = FIELD_OF_ADDRESS_KEY[key];
      if (field) errors[field] ??= message;
    }
  }
  const details = email.success && customerName.success && address.success &&
      Object.keys(errors).length === 0
    ? { email: email.data, customerName: customerName.data, shippingAddress: address.data }
    : null;
  return { details, errors };
}
