import assert from "node:assert/strict";
import { lineAfterRemoving } from "../../client/features/cart/line_after_removing.ts";

Deno.test("a removed cart line hands the focus to the next line", () => {
  assert.equal(lineAfterRemoving(["a", "b", "c"], "a"), "b");
  assert.equal(lineAfterRemoving(["a", "b", "c"], "b"), "c");
});

Deno.test("the last line hands it to the one before; the only line to none", () => {
  assert.equal(lineAfterRemoving(["a", "b", "c"], "c"), "b");
  assert.equal(lineAfterRemoving(["a"], "a"), null);
});

Deno.test("a line no longer shown hands it to none", () => {
  assert.equal(lineAfterRemoving(["a", "b"], "z"), null);
  assert.equal(lineAfterRemoving([], "a"), null);
});
