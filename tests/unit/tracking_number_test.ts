import assert from "node:assert/strict";
import { normaliseTrackingNumber, trackingNumberProblem } from "../../shared/tracking_number.ts";
import { carrierTrackingUrl } from "../../shared/status.ts";

Deno.test("a tracking number is kept as USPS writes it: no spaces, no dashes, capitals", () => {
  assert.equal(normaliseTrackingNumber(" 9400 1000 0000 0000 0000 00 "), "9400100000000000000000");
  assert.equal(normaliseTrackingNumber("9400-1000-0000"), "940010000000");
  assert.equal(normaliseTrackingNumber("ea 123 456 789 us"), "EA123456789US");
  assert.equal(normaliseTrackingNumber("\t94 00\u00a011\n"), "940011", "any kind of space");
  assert.equal(normaliseTrackingNumber("9400111899223344551234"), "9400111899223344551234");
});

Deno.test("what is empty or more than letters and digits once normalised is refused", () => {
  assert.equal(trackingNumberProblem(""), "Please enter a tracking number");
  assert.equal(
    trackingNumberProblem(normaliseTrackingNumber(" - - ")),
    "Please enter a tracking number",
  );
  assert.equal(
    trackingNumberProblem(normaliseTrackingNumber("9400/1000")),
    "A tracking number has only letters, digits, spaces and dashes",
  );
  assert.equal(
    trackingNumberProblem("9".repeat(41)),
    "A tracking number has at most 40 characters",
  );
  assert.equal(trackingNumberProblem("9".repeat(40)), null);
  assert.equal(trackingNumberProblem("EA123456789US"), null);
});

Deno.test("the carrier link of a number stored with spaces carries no %20", () => {
  // Orders stored before numbers were normalised still link to the right parcel.
  assert.equal(
    carrierTrackingUrl("9400 1000-0000"),
    "https://tools.usps.com/go/TrackConfirmAction?tLabels=940010000000",
  );
});

Deno.test("a letter outside A to Z is refused, not turned into another number by capitals", () => {
  // "ß" sits beside 0 on a German keyboard: in capitals it is "SS", a different parcel's number.
  for (const typed of ["9400ß100", "9400ſ100", "9400ı100", "9400ﬀ100"]) {
    assert.equal(
      trackingNumberProblem(normaliseTrackingNumber(typed)),
      "A tracking number has only letters, digits, spaces and dashes",
      typed,
    );
  }
  assert.equal(trackingNumberProblem(normaliseTrackingNumber("ea 123 456 789 us")), null);
});
