/**
 * The owner's Drops section: the opening typed in the owner's time zone is sent as UTC and shown
 * back with its UTC time; the report's figures read as words.
 */
import assert from "node:assert/strict";
import {
  dropIsLive,
  localInputToIso,
  refusedText,
  runwayText,
  sellOutText,
  utcClock,
} from "../../client/features/admin/drop_format.ts";

Deno.test("an opening typed in the owner's zone is sent as the UTC instant it means", () => {
  // Berlin in winter is UTC+1: getTimezoneOffset says -60.
  assert.equal(localInputToIso("2026-11-27T10:00", -60), "2026-11-27T09:00:00.000Z");
  // New York in winter is UTC-5: +300.
  assert.equal(localInputToIso("2026-11-27T04:00", 300), "2026-11-27T09:00:00.000Z");
  assert.equal(localInputToIso("2026-11-27T09:00:30", 0), "2026-11-27T09:00:30.000Z");
  for (const bad of ["", "tomorrow", "2026-11-27", "2026-11-27 10:00"]) {
    assert.equal(localInputToIso(bad, 0), null, bad);
  }
});

Deno.test("the UTC time is shown beside the owner's own", () => {
  assert.equal(utcClock("2026-11-27T09:05:00.000Z"), "2026-11-27 09:05 UTC");
  assert.equal(utcClock("2026-11-27T10:05:00+01:00"), "2026-11-27 09:05 UTC");
  assert.equal(utcClock("no"), "");
});

Deno.test("the report says how long the drop took to sell out", () => {
  assert.equal(sellOutText(null), "Not sold out");
  assert.equal(sellOutText(42.4), "42 s");
  assert.equal(sellOutText(185), "3 min 5 s");
  assert.equal(sellOutText(120), "2 min");
  assert.equal(sellOutText(2 * 3_600 + 240), "2 h 4 min");
});

Deno.test("refusals read largest first, and none is said", () => {
  assert.equal(refusedText({}), "none");
  assert.equal(refusedText({ "sold out": 0 }), "none");
  assert.equal(
    refusedText({ "join limit": 3, "per-person limit": 12, "sold out": 3 }),
    "per-person limit 12, join limit 3, sold out 3",
  );
});

Deno.test("the live view polls only while the drop can still change", () => {
  assert.deepEqual(
    ["scheduled", "room", "open", "soldOut", "cancelled"].map(dropIsLive),
    [true, true, true, false, false],
  );
});

Deno.test("days of runway are whole days, or say nothing sold", () => {
  assert.equal(runwayText(null), "none sold lately");
  assert.equal(runwayText(0.4), "under a day");
  assert.equal(runwayText(1.9), "1 day");
  assert.equal(runwayText(12.2), "12 days");
});
