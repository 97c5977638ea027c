/** A client's budget of renders (server/http/client_budget.ts): spent, refused, earned back. */
import assert from "node:assert/strict";
import { createClientBudget } from "../../server/http/client_budget.ts";
import { fixedClock } from "../helpers/test_app.ts";

Deno.test("a budget gives its units, then says how long until the next", () => {
  const clock = fixedClock();
  const budget = createClientBudget(6, clock);
  for (let i = 0; i < 6; i++) assert.equal(budget.take("a"), null, `unit ${i + 1}`);
  assert.equal(budget.take("a"), 10, "one unit comes back every 10 seconds");
  assert.equal(budget.take("b"), null, "another client has its own");
  clock.advance(9_000);
  assert.equal(budget.take("a"), 1);
  clock.advance(1_000);
  assert.equal(budget.take("a"), null);
  assert.equal(budget.take("a"), 10);
});

Deno.test("a budget earns back no more than a minute's worth", () => {
  const clock = fixedClock();
  const budget = createClientBudget(3, clock);
  budget.take("a");
  clock.advance(60 * 60_000);
  for (let i = 0; i < 3; i++) assert.equal(budget.take("a"), null);
  assert.ok(budget.take("a")! > 0);
});
