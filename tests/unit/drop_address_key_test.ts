import assert from "node:assert/strict";
import { addressKey } from "../../server/drops/record.ts";

const DOOR = { street: "1 Main St", apartment: "2B", zipCode: "62701", country: "US" };

Deno.test("one door however it is spelled is one address key", () => {
  const spellings = [
    { ...DOOR, street: "1 MAIN ST.", apartment: " 2-b " },
    { ...DOOR, street: "1 Main St 2B", apartment: "" },
    { ...DOOR, street: "\uff11 \uff2d\uff41\uff49\uff4e \uff33\uff54", apartment: "\uff12\uff22" },
    { ...DOOR, street: "1 \u041c\u0430in St", apartment: "2\u0412" },
    { ...DOOR, street: "1 Ma\u0131\u0301n St" },
    { ...DOOR, zipCode: "62701-4321" },
    { ...DOOR, street: "1 Main Street, Apartment 2B", apartment: "" },
    { ...DOOR, street: "1 main st.", apartment: "Apt. #2b" },
    { ...DOOR, street: "1 Main St", apartment: "Unit 2-B" },
  ];
  const door = addressKey(DOOR);
  for (const s of spellings) {
    assert.equal(addressKey(s), door, JSON.stringify(s));
  }
});

Deno.test("two flats, two postal codes, two countries are different doors", () => {
  const door = addressKey(DOOR);
  assert.notEqual(addressKey({ ...DOOR, apartment: "3B" }), door);
  assert.notEqual(addressKey({ ...DOOR, zipCode: "62702" }), door);
  assert.notEqual(addressKey({ ...DOOR, country: "CA" }), door);
  // Words are looked up in a table of their own, never in an object's inherited names.
  assert.equal(
    addressKey({ ...DOOR, street: "1 Constructor Street", apartment: "toString" }),
    "US|62701|1constructorsttostring",
  );
  // Outside the US the whole postal code names the door.
  assert.notEqual(
    addressKey({ ...DOOR, country: "GB", zipCode: "SW1A 1AA" }),
    addressKey({ ...DOOR, country: "GB", zipCode: "SW1A 1AB" }),
  );
  assert.equal(
    addressKey({ ...DOOR, country: "DE", street: "Stra\u00dfe 1", zipCode: "10115" }),
    addressKey({ ...DOOR, country: "DE", street: "STRASSE 1", zipCode: "10115" }),
  );
});
