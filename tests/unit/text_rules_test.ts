import assert from "node:assert/strict";
import { contactSchema, orderCreateSchema } from "../../shared/schemas.ts";

const ORDER = {
  cartId: "cart-1",
  email: "ann@example.com",
  customerName: "Ann Lee",
  shippingAddress: {
    street: "1 Main St",
    apartment: "",
    city: "Springfield",
    state: "IL",
    zipCode: "62701",
    country: "US",
  },
};

/** The first error message of an order body, or null when the body is accepted. */
function orderError(body: unknown): string | null {
  const result = orderCreateSchema.safeParse(body);
  return result.success ? null : result.error.issues[0].message;
}

Deno.test("names and addresses refuse the line and paragraph separators like control characters", () => {
  assert.equal(orderError(ORDER), null);
  for (const separator of ["\u2028", "\u2029"]) {
    const code = `U+${separator.codePointAt(0)!.toString(16).toUpperCase()}`;
    assert.equal(
      orderError({ ...ORDER, customerName: `Ann${separator}Lee` }),
      "Name cannot contain control characters",
      code,
    );
    for (const field of ["street", "apartment", "city", "state"] as const) {
      const address = { ...ORDER.shippingAddress, [field]: `A${separator}B` };
      assert.match(
        orderError({ ...ORDER, shippingAddress: address }) ?? "accepted",
        /cannot contain control characters/,
        `${field} with ${code}`,
      );
    }
    const subject = contactSchema.safeParse({ topic: `Hi${separator}there`, message: "Hello" });
    assert.equal(subject.success, false, `a subject with ${code}`);
  }
  // A message may still have its paragraphs.
  assert.ok(contactSchema.safeParse({ topic: "Hi", message: "Line one\n\nLine two" }).success);
});
