import assert from "node:assert/strict";
import {
  type CartLine,
  lineIdOf,
  linesLeftAfter,
  type LineSpec,
  lineUnitCents,
  shapeProblem,
  unsoldReason,
} from "../../server/cart/rules.ts";
import type { ProductRecord, SwitchRecord } from "../../server/catalog/store.ts";

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

const tester = (switchIds: number[], keycaps: "none" | "transparent" = "none"): LineSpec => ({
  kind: "custom",
  size: 10,
  keycaps,
  bodyColor: "white",
  switchIds,
});
const TEN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

Deno.test("the same tester chosen in another order is one line; another choice is another", () => {
  assert.equal(lineIdOf(tester(TEN)), lineIdOf(tester([...TEN].reverse())));
  assert.notEqual(lineIdOf(tester(TEN)), lineIdOf(tester(TEN, "transparent")));
  assert.notEqual(lineIdOf(tester(TEN)), lineIdOf(tester([...TEN.slice(1), 11])));
  assert.equal(lineIdOf({ kind: "product", productId: 384 }), "384");
  assert.match(lineIdOf(tester(TEN)), /^custom-[0-9a-f]{8}$/);
});

Deno.test("a configuration's shape is checked before the catalogue is read", () => {
  assert.equal(shapeProblem(tester(TEN)), null);
  assert.equal(shapeProblem({ kind: "product", productId: 1 }), null);
  assert.equal(
    shapeProblem(tester([1, 2, 3])),
    "Please select 10 switches for a Custom Switch Tester. You've selected 3.",
  );
  assert.equal(
    shapeProblem(tester([1, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
    "Each switch can be chosen only once",
  );
  assert.equal(
    shapeProblem({ kind: "cube", keycaps: "white", bodyColor: "black", switchIds: [1, 2] }),
    "Please select 6 switches for the Fidget Cube. You've selected 2.",
  );
});

const sw = (id: number, extraPriceCents: number, retired = false) =>
  ({ id, brand: "Gateron", name: `Switch ${id}`, extraPriceCents, retired }) as SwitchRecord;

Deno.test("a unit's price: the tester's base, keycaps per switch, and each switch's extra", () => {
  const switches = TEN.map((id) => sw(id, id === 3 ? 150 : 0));
  // $9.99 for ten switches, $0.40 a transparent keycap, $1.50 for the premium switch.
  assert.equal(lineUnitCents(tester(TEN), null, switches), 999 + 150);
  assert.equal(lineUnitCents(tester(TEN, "transparent"), null, switches), 999 + 400 + 150);
  const cube: LineSpec = {
    kind: "cube",
    keycaps: "pastel",
    bodyColor: "white",
    switchIds: TEN.slice(0, 6),
  };
  assert.equal(lineUnitCents(cube, null, switches.slice(0, 6)), 1299 + 150);
  const pack = { priceCents: 1199 } as ProductRecord;
  assert.equal(lineUnitCents({ kind: "product", productId: 384 }, pack, []), 1199);
});

Deno.test("why a line is no longer sold names what the shopper must change", () => {
  assert.equal(unsoldReason({ name: "Starter Pack", onSale: true } as ProductRecord, []), null);
  assert.equal(
    unsoldReason({ name: "Starter Pack", onSale: false } as ProductRecord, []),
    "Starter Pack is no longer sold.",
  );
  assert.equal(unsoldReason(null, [sw(1, 0), sw(2, 0)]), null);
  assert.equal(
    unsoldReason(null, [sw(1, 0, true), sw(2, 0)]),
    "Gateron Switch 1 is no longer sold; choose another switch.",
  );
  assert.equal(
    unsoldReason(null, [sw(1, 0, true), sw(2, 0, true), sw(3, 0, true)]),
    "Gateron Switch 1, Gateron Switch 2 and Gateron Switch 3 are no longer sold; choose another switch.",
  );
});
