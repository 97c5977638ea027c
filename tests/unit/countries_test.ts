import assert from "node:assert/strict";
import { fitsCountry, isCountryCode } from "../../shared/countries.ts";
import { COUNTRIES } from "../../client/features/checkout/checkout_text.ts";

Deno.test("real countries are country codes; made-up and reserved codes are not", () => {
  for (const code of ["US", "GB", "DE", "JP", "AX", "SS", "CW"]) {
    assert.ok(isCountryCode(code), code);
  }
  // ZZ and XX are user-assigned, EU and UN are groups, UK is not GB's code, lower case is not a code.
  for (const code of ["ZZ", "XX", "EU", "UN", "UK", "AA", "us", ""]) {
    assert.ok(!isCountryCode(code), code);
  }
});

Deno.test("every country the demo page offers is one the shop takes", () => {
  for (const { code } of COUNTRIES) assert.ok(isCountryCode(code), code);
});

Deno.test("a postcode fits its country's shape where that is fixed, and is plain text elsewhere", () => {
  const fits: [string, string][] = [
    ["US", "62701"],
    ["US", "62701-1234"],
    ["GB", "SW1A 1AA"],
    ["GB", "m1 1ae"],
    ["CA", "K1A 0B1"],
    ["DE", "10115"],
    ["NL", "1012 AB"],
    ["JP", "100-0001"],
    ["PL", "00-950"],
    ["IE", "D02 X285"],
    ["HK", ""],
  ];
  for (const [country, postcode] of fits) assert.ok(fitsCountry(country, postcode), postcode);
  const refused: [string, string][] = [
    ["US", "SW1A 1AA"],
    ["US", "1234"],
    ["US", ""],
    ["GB", "62701"],
    ["DE", "1234"],
    ["DE", ""],
    ["CA", "12345"],
    ["IE", "<b>"],
    ["IE", "-12"],
    ["IE", "1234567890123"],
  ];
  for (const [country, postcode] of refused) {
    assert.ok(!fitsCountry(country, postcode), `${country} ${postcode}`);
  }
});
