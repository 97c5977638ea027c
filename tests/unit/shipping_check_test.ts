/**
 * The /checkout form's check (client/features/checkout/shipping_check.ts) uses the server's
 * schema: it accepts what the server accepts (a ZIP+4 included) and words refusals the same way.
 */
import assert from "node:assert/strict";
import { checkShipping, isValidZip } from "../../client/features/checkout/shipping_check.ts";
import { zipInput } from "../../client/features/checkout/address_fields.tsx";
import { orderCreateSchema } from "../../shared/schemas.ts";

const FILLED = {
  email: " ada@example.com ",
  firstName: "Ada",
  lastName: "Lovelace",
  address: "1 Analytical Way ",
  apartment: "",
  city: "San Francisco",
  state: "CA",
  zipCode: "94103",
};

Deno.test("a complete form gives the details the server will accept, trimmed", () => {
  const { details, errors } = checkShipping(FILLED);
  assert.deepEqual(errors, {});
  assert.ok(details);
  assert.equal(details.email, "ada@example.com");
  assert.equal(details.customerName, "Ada Lovelace");
  assert.equal(details.shippingAddress.street, "1 Analytical Way");
  assert.equal(details.shippingAddress.country, "US");
  const server = orderCreateSchema.safeParse({ cartId: "c-1", ...details, promoCode: null });
  assert.ok(server.success, "the server's schema takes the same body");
});

Deno.test("a ZIP+4 is accepted, as the server accepts it", () => {
  assert.ok(isValidZip("94103-1234"));
  assert.ok(checkShipping({ ...FILLED, zipCode: "94103-1234" }).details);
  assert.ok(!isValidZip("9410"));
  assert.ok(!isValidZip("941031234"));
});

Deno.test("typing a ZIP keeps digits and puts in the ZIP+4 dash by itself", () => {
  assert.equal(zipInput("94103"), "94103");
  assert.equal(zipInput("94103-"), "94103");
  assert.equal(zipInput("941031234"), "94103-1234");
  assert.equal(zipInput("94103-1234-99"), "94103-1234");
  assert.equal(zipInput(" 9a4 1"), "941");
});

Deno.test("refusals carry the server's messages, by the form's field names", () => {
  const { details, errors } = checkShipping({
    ...FILLED,
    email: "ada@",
    firstName: " ",
    address: "",
    zipCode: "941",
  });
  assert.equal(details, null);
  assert.deepEqual(errors, {
    email: "Please enter a valid email address",
    firstName: "First name is required",
    address: "Address is required",
    zipCode: "ZIP code must be 5 digits",
  });
});
