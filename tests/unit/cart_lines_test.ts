import assert from "node:assert/strict";
import { type CartLine, linesLeftAfter } from "../../server/cart/cart.ts";

const pack = (quantity: number): CartLine => ({
  lineId: "384",
  kind: "product",
  productId: 384,
  quantity,
});
const item = (quantity: number): CartLine => ({
  lineId: "1",
  kind: "product",
  productId: 1,
  quantity,
});

Deno.test("a paid order takes the units it bought out of its cart, nothing else", () => {
  assert.deepEqual(linesLeftAfter([pack(1)], [{ lineId: "384", quantity: 1 }]), []);
  // Units and lines added after the checkout began stay for the next order.
  assert.deepEqual(
    linesLeftAfter([pack(3), item(1)], [{ lineId: "384", quantity: 1 }]),
    [pack(2), item(1)],
  );
});

Deno.test("a line the shopper lowered below what was bought goes, and never below zero", () => {
  assert.deepEqual(linesLeftAfter([pack(1), item(2)], [{ lineId: "384", quantity: 2 }]), [item(2)]);
  assert.deepEqual(linesLeftAfter([item(2)], [{ lineId: "384", quantity: 2 }]), [item(2)]);
});

Deno.test("an order with the same line twice takes both", () => {
  assert.deepEqual(
    linesLeftAfter([pack(5)], [{ lineId: "384", quantity: 2 }, { lineId: "384", quantity: 1 }]),
    [pack(2)],
  );
});
