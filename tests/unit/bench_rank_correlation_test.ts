/**
 * The drop bench's fairness figure is Spearman's rank correlation: checked on orders whose answer
 * is known, ties included, so a wrong figure cannot pass for a fair draw.
 */
import assert from "node:assert/strict";
import { averageRanks, spearman } from "../bench/drop.ts";

Deno.test("average ranks: ties share the mean of the ranks they span", () => {
  assert.deepEqual(averageRanks([10, 30, 20]), [1, 3, 2]);
  assert.deepEqual(averageRanks([5, 1, 5, 5, 9]), [3, 1, 3, 3, 5]);
});

Deno.test("Spearman: 1 for the same order, -1 for the reverse, near 0 for an unrelated one", () => {
  const arrival = Array.from({ length: 200 }, (_, i) => i);
  assert.equal(spearman(arrival, arrival.map((i) => i * 7 + 3)), 1);
  assert.equal(spearman(arrival, arrival.map((i) => -i)), -1);
  // A fixed interleaving with no trend: even arrivals first in one order, odd in the reverse.
  const unrelated = arrival.map((i) => (i % 2 === 0 ? i : 400 - i));
  assert.ok(Math.abs(spearman(arrival, unrelated)!) < 0.1);
  // Everyone not let in ties last: admitting the first 10 arrivals is a clear positive trend.
  const firstTen = arrival.map((i) => (i < 10 ? i : Number.MAX_SAFE_INTEGER));
  assert.ok(spearman(arrival, firstTen)! > 0.2);
  assert.equal(spearman([1, 2, 3], [4, 4, 4]), null, "nothing to rank on one side");
  assert.equal(spearman([1, 2], [2, 1]), null, "too few to say");
});
