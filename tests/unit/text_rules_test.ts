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
      "Name cannot contain control characters or invisible formatting marks",
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

/** Invisible and text-direction marks: they hide or reorder what the owner reads on a label. */
const INVISIBLE: [string, string][] = [
  ["U+200B zero width space", "\u200b"],
  ["U+200C zero width non-joiner", "\u200c"],
  ["U+200D zero width joiner", "\u200d"],
  ["U+200E left-to-right mark", "\u200e"],
  ["U+200F right-to-left mark", "\u200f"],
  ["U+202A left-to-right embedding", "\u202a"],
  ["U+202E right-to-left override", "\u202e"],
  ["U+2060 word joiner", "\u2060"],
  ["U+2061 function application", "\u2061"],
  ["U+2064 invisible plus", "\u2064"],
  ["U+2066 left-to-right isolate", "\u2066"],
  ["U+2069 pop directional isolate", "\u2069"],
  ["U+061C Arabic letter mark", "\u061c"],
  ["U+FEFF zero width no-break space", "\ufeff"],
  ["U+00AD soft hyphen", "\u00ad"],
  ["U+180E Mongolian vowel separator", "\u180e"],
  ["U+E0041 tag letter A", "\u{e0041}"],
];

Deno.test("names and addresses refuse invisible and text-direction marks, naming the field", () => {
  for (const [what, mark] of INVISIBLE) {
    assert.match(
      orderError({ ...ORDER, customerName: `Ann${mark}Lee` }) ?? "accepted",
      /^Name cannot contain control characters or invisible/,
      what,
    );
    for (const field of ["street", "apartment", "city", "state"] as const) {
      const address = { ...ORDER.shippingAddress, [field]: `A${mark}B` };
      assert.match(
        orderError({ ...ORDER, shippingAddress: address }) ?? "accepted",
        /cannot contain control characters or invisible/,
        `${field} with ${what}`,
      );
    }
    const contact = contactSchema.safeParse({ topic: "Hi", message: "Hello", name: `A${mark}B` });
    assert.equal(contact.success, false, `a contact name with ${what}`);
    const subject = contactSchema.safeParse({ topic: `H${mark}i`, message: "Hello" });
    assert.equal(subject.success, false, `a subject with ${what}`);
  }
  // Letters of every script, accents, apostrophes and emoji are names.
  for (const name of ["Zoë O'Brien-Núñez", "محمد رضا", "李小龍", "Ann 🎹", "Jürgen Groß"]) {
    assert.equal(orderError({ ...ORDER, customerName: name }), null, name);
  }
});

Deno.test("a message refuses text-direction and invisible marks but keeps emoji joins", () => {
  for (const mark of ["\u202e", "\u2066", "\u200f", "\u200b", "\ufeff", "\u00ad", "\u2060"]) {
    const res = contactSchema.safeParse({ topic: "Hi", message: `Hello ${mark}there` });
    assert.equal(res.success, false, `U+${mark.codePointAt(0)!.toString(16)}`);
  }
  // A family emoji is people joined by U+200D; a Persian word may need U+200C.
  for (
    const message of [
      "Thanks 👨\u200d👩\u200d👧",
      "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
    ]
  ) {
    assert.ok(contactSchema.safeParse({ topic: "Hi", message }).success, message);
  }
});
