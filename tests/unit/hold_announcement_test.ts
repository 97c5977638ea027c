import assert from "node:assert/strict";
import { holdAnnouncement } from "../../client/features/checkout/hold_announcement.ts";

/** What a live region holding each minute's text speaks: the texts that differ from the last. */
function spokenOver(minutes: number[], since: number, extendedBy: number | null): string[] {
  const spoken: string[] = [];
  let last = "";
  for (const m of minutes) {
    const text = holdAnnouncement(m, since, extendedBy);
    if (text !== last && text !== "") spoken.push(text);
    last = text;
  }
  return spoken;
}

const countdown = (from: number) => Array.from({ length: from }, (_, i) => from - i);

Deno.test("a 30-minute hold is spoken only at 5 minutes and at 1 minute left", () => {
  assert.deepEqual(spokenOver(countdown(30), 30, null), [
    "5 minutes left on your hold.",
    "1 minute left on your hold.",
  ]);
  assert.equal(holdAnnouncement(12, 30, null), "", "no minute above 5 is spoken");
});

Deno.test("a mark the page opened past is not spoken; the next one is", () => {
  assert.deepEqual(spokenOver(countdown(5), 5, null), ["1 minute left on your hold."]);
  assert.deepEqual(spokenOver(countdown(3), 3, null), ["1 minute left on your hold."]);
  assert.deepEqual(spokenOver([1], 1, null), []);
});

Deno.test("an extension is spoken once, then the 5 and 1 minute marks of the new end", () => {
  // Extended with 3 minutes left: 13 to go.
  assert.deepEqual(spokenOver(countdown(13), 13, 10), [
    "Your hold was extended by 10 minutes.",
    "5 minutes left on your hold.",
    "1 minute left on your hold.",
  ]);
});
