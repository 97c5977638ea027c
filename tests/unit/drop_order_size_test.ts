/**
 * A drop order's size: its writes check the drop's entries besides its parts, so it may hold
 * fewer distinct parts than an order without a drop.
 */
import assert from "node:assert/strict";
import { checkDropOrderSize, DROP_WRITE_CHECKS } from "../../server/drops/purchase_rules.ts";
import { InvalidInput } from "../../server/errors.ts";

Deno.test("a drop order holds at most the order's parts less the drop's checks", () => {
  assert.equal(DROP_WRITE_CHECKS, 7, "the drop, its ledger, the place and four person keys");
  checkDropOrderSize(83, 90);
  checkDropOrderSize(1, 90);
  assert.throws(
    () => checkDropOrderSize(84, 90),
    (err: unknown) =>
      err instanceof InvalidInput &&
      /84 different switches and parts; with an item of a drop, one order can hold at most 83/
        .test(err.message),
  );
});
