/**
 * What the waiting room says: the place, an estimate that is never invented, when a new place is
 * said aloud (not every poll), how often it asks, and the place kept in the browser.
 */
import assert from "node:assert/strict";
import {
  estimateText,
  limitReachedText,
  MIN_POLL_MS,
  placeText,
  placeWorthSaying,
  pollDelayMs,
} from "../../client/app/drops/place_text.ts";
import {
  parsePlace,
  parseTargetParam,
  targetParam,
  waitingRoomPath,
} from "../../client/app/drops/drop_places.ts";

Deno.test("the place is a sentence, the first one plainly next", () => {
  assert.equal(placeText(12), "You are number 12 in line");
  assert.equal(placeText(2), "You are number 2 in line");
  assert.equal(placeText(1), "You are next in line");
});

Deno.test("the estimate is the server's or an honest 'not yet', and explains the draw", () => {
  assert.match(estimateText({}), /random order at the opening/);
  assert.match(estimateText({ position: 40 }), /cannot estimate your wait yet/);
  assert.equal(
    estimateText({ position: 40, estimateMinutes: 0.4 }),
    "Your turn should come in less than a minute.",
  );
  assert.match(estimateText({ position: 40, estimateMinutes: 1.2 }), /about 1 minute,/);
  assert.match(estimateText({ position: 40, estimateMinutes: 6.6 }), /about 7 minutes/);
});

Deno.test("a place is said when it first shows, near the front, and after a real move only", () => {
  assert.equal(placeWorthSaying(null, 300), true, "the first place");
  assert.equal(placeWorthSaying(300, 300), false, "the same place is not said again");
  assert.equal(placeWorthSaying(300, 290), false, "ten of three hundred is no news");
  assert.equal(placeWorthSaying(300, 240), true, "a fifth of the line is");
  assert.equal(placeWorthSaying(20, 17), false);
  assert.equal(placeWorthSaying(20, 15), true, "five places at least");
  assert.equal(placeWorthSaying(5, 3), true, "the last few places are each said");
  assert.equal(placeWorthSaying(2, 1), true);
  // A poll every three seconds down a line of 500 moving one place each time: said rarely.
  let said: number | null = null;
  let times = 0;
  for (let position = 500; position >= 1; position--) {
    if (placeWorthSaying(said, position)) {
      said = position;
      times++;
    }
  }
  assert.ok(times < 40, `said ${times} times over 500 places`);
});

Deno.test("polls wait a few seconds, longer hidden and after failures, never under 2 s", () => {
  assert.equal(pollDelayMs(false, 0), 3_000);
  assert.equal(pollDelayMs(true, 0), 15_000);
  assert.equal(pollDelayMs(false, 1), 6_000);
  assert.equal(pollDelayMs(false, 10), 30_000, "at most half a minute");
  assert.equal(pollDelayMs(true, 3), 30_000);
  for (const hidden of [false, true]) {
    for (let failures = -1; failures < 8; failures++) {
      assert.ok(pollDelayMs(hidden, failures) >= MIN_POLL_MS);
    }
  }
  assert.equal(MIN_POLL_MS, 2_000);
});

Deno.test("a kept place is read back only when it has the shape of one", () => {
  const place = { ticket: "AbCdEfGhIjKlMnOpQrStUv", cartId: "c1", target: { kind: "pack", id: 3 } };
  assert.deepEqual(parsePlace(JSON.stringify(place)), place);
  assert.deepEqual(parsePlace(JSON.stringify({ ...place, cartId: null }))?.cartId, null);
  assert.equal(parsePlace(null), null);
  assert.equal(parsePlace("{not json"), null);
  assert.equal(parsePlace(JSON.stringify({ ...place, ticket: "" })), null);
  assert.equal(parsePlace(JSON.stringify({ ...place, target: { kind: "cube", id: 3 } })), null);
  assert.equal(parsePlace(JSON.stringify({ ...place, target: { kind: "pack", id: "3" } })), null);
  assert.equal(parsePlace(JSON.stringify({ ...place, cartId: 5 })), null);
});

Deno.test("the waiting room's link names its drop and target, read back strictly", () => {
  assert.equal(targetParam({ kind: "switch", id: 42 }), "switch-42");
  assert.deepEqual(parseTargetParam("pack-3"), { kind: "pack", id: 3 });
  assert.deepEqual(parseTargetParam("item-1001"), { kind: "item", id: 1001 });
  for (const bad of [null, "", "pack", "pack-0", "pack-03", "cube-1", "pack-1x", "pack-1e3"]) {
    assert.equal(parseTargetParam(bad), null, String(bad));
  }
  assert.equal(waitingRoomPath("d_1-abc", { kind: "pack", id: 3 }), "/drops/d_1-abc?target=pack-3");
});

Deno.test("a place whose shopper already has the limit says so, and why it waits", () => {
  assert.equal(
    limitReachedText(1),
    "You already hold or bought the 1 unit per person this drop allows, through another place in line from your account or connection. This place is let in only if that one lets its units go.",
  );
  assert.match(limitReachedText(2), /the 2 units per person/);
});
