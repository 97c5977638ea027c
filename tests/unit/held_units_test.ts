import assert from "node:assert/strict";
import { checkHeldUnits, heldUnits, type Hold } from "../../server/stock/holds.ts";
import { Conflict, LimitReached } from "../../server/errors.ts";

const NOW = 1_000_000;
const LIMITS = { maxUnits: 60, reservationMinutes: 30 };

function hold(units: number | undefined, lapsesIn = 10 * 60_000): Hold {
  return { orderNumber: `ST${units}`, expiresAt: NOW + lapsesIn, units };
}

Deno.test("held units add up; holds from before units were counted count none", () => {
  assert.equal(heldUnits([]), 0);
  assert.equal(heldUnits([hold(20), hold(undefined), hold(15)]), 35);
});

Deno.test("a hold up to the cap passes, with or without others", () => {
  checkHeldUnits([], 60, LIMITS, NOW);
  checkHeldUnits([hold(30), hold(20)], 10, LIMITS, NOW);
});

Deno.test("past the cap with others: 429 after the first of them lapses", () => {
  assert.throws(
    () => checkHeldUnits([hold(30, 5 * 60_000), hold(20, 20 * 60_000)], 11, LIMITS, NOW),
    (err: unknown) => {
      assert.ok(err instanceof LimitReached);
      assert.equal(err.retryAfterSeconds, 300);
      assert.match(err.message, /already hold 50 items, and this cart has 11/);
      assert.match(err.message, /at most 60 items/);
      return true;
    },
  );
});

Deno.test("a cart bigger than the cap on its own: 409, since waiting changes nothing", () => {
  assert.throws(() => checkHeldUnits([], 61, LIMITS, NOW), (err: unknown) => {
    assert.ok(err instanceof Conflict);
    assert.match(err.message, /at most 60 items at once, and this cart has 61/);
    return true;
  });
});
