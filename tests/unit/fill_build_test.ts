import assert from "node:assert/strict";
import { fillBuild, type FillCandidate } from "../../shared/fill_build.ts";

const sw = (id: number, brand: string, type: string, available = true): FillCandidate => ({
  id,
  brand,
  type,
  available,
});

Deno.test("fill the rest: fills exactly the empty slots, varied by brand then type", () => {
  const candidates = [
    sw(1, "Gateron", "Linear"),
    sw(2, "Gateron", "Linear"),
    sw(3, "Gateron", "Tactile"),
    sw(4, "Akko", "Linear"),
    sw(5, "Kailh", "Clicky"),
    sw(6, "Akko", "Tactile"),
  ];
  assert.deepEqual(fillBuild(candidates, [], 3), [1, 5, 6], "three brands and types, no repeat");
  assert.deepEqual(fillBuild(candidates, [candidates[0]], 2), [5, 6], "after a Gateron linear");
  assert.equal(fillBuild(candidates, [], 10).length, 6, "never more than the candidates");
  assert.deepEqual(fillBuild(candidates, [], 0), []);
});

Deno.test("fill the rest: never an unavailable or chosen switch, never twice", () => {
  const candidates = [sw(1, "A", "L", false), sw(2, "B", "L"), sw(3, "C", "T")];
  const picked = fillBuild(candidates, [candidates[1]], 5);
  assert.deepEqual(picked, [3]);
  assert.equal(new Set(fillBuild(candidates, [], 5)).size, fillBuild(candidates, [], 5).length);
});
