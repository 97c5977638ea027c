import assert from "node:assert/strict";
import { shortStockText } from "../../client/features/cart/short_stock_text.ts";

Deno.test("a short line names each short part, what is left and what the line needs", () => {
  assert.equal(
    shortStockText([{ name: "Gateron Oil King", available: 2, needed: 3 }]),
    "Not enough stock: only 2 Gateron Oil King left, this line needs 3.",
  );
  assert.equal(
    shortStockText([
      { name: "Gateron Oil King", available: 0, needed: 1 },
      { name: "Small tester box", available: 1, needed: 2 },
    ]),
    "Not enough stock: Gateron Oil King is sold out, and only 1 Small tester box left, this line needs 2.",
  );
});

Deno.test("a line with nothing named short still says it cannot be bought at this quantity", () => {
  assert.equal(shortStockText([]), "Not enough stock for this quantity right now.");
});
