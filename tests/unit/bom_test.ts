import assert from "node:assert/strict";
import {
  addBom,
  type Bom,
  bomOf,
  COMPONENTS,
  shortages,
  type StockKey,
  switchIdOf,
  switchKey,
  unitsAvailable,
} from "../../shared/bom.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { PRODUCTS } from "../../shared/catalog/products.ts";
import { TESTER_KEYCAPS, TESTER_SIZES } from "../../shared/pricing.ts";

const TEN = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110];
const ids = (n: number) => Array.from({ length: n }, (_, i) => 101 + i);

/** A bom as a plain object, so deepEqual shows readable differences. */
function obj(bom: Bom): Record<string, number> {
  return Object.fromEntries([...bom].sort(([a], [b]) => a.localeCompare(b)));
}

function switchesOf(switchIds: number[]): Record<string, number> {
  return Object.fromEntries(switchIds.map((id) => [`switch:${id}`, 1]));
}

/** A stock lookup from a plain object; absent keys count as 0. */
function stockOf(counts: Partial<Record<StockKey, number>>) {
  return (key: StockKey) => counts[key] ?? 0;
}

Deno.test("switchKey and switchIdOf round-trip; components have no switch id", () => {
  assert.equal(switchKey(142), "switch:142");
  assert.equal(switchIdOf(switchKey(142)), 142);
  for (const c of COMPONENTS) assert.equal(switchIdOf(c), null);
  assert.deepEqual(
    [...COMPONENTS],
    ["SMALL_BOX", "LARGE_BOX", "TRANSPARENT_KEYCAP", "RANDOM_KEYCAP", "CUBE_BODY"],
  );
});

Deno.test("pack without keycaps: its 10 switches and one small box", () => {
  const bom = bomOf({ kind: "pack", switchIds: TEN, withKeycaps: false });
  assert.deepEqual(
    obj(bom),
    { ...switchesOf(TEN), SMALL_BOX: 1 },
  );
  assert.equal(bom.get("TRANSPARENT_KEYCAP"), undefined);
});

Deno.test("pack with keycaps adds 10 transparent keycaps", () => {
  const bom = bomOf({ kind: "pack", switchIds: TEN, withKeycaps: true });
  assert.deepEqual(obj(bom), {
    ...switchesOf(TEN),
    SMALL_BOX: 1,
    TRANSPARENT_KEYCAP: 10,
  });
});

Deno.test("every catalogue pack product has the pack's bill of materials", () => {
  for (const pack of PACKS) {
    for (const withKeycaps of [false, true]) {
      const product = PRODUCTS.find((p) => p.id === (withKeycaps ? pack.idWithKeycaps : pack.id));
      assert.ok(product, `product for ${pack.slug}`);
      const bom = bomOf(product.bom);
      assert.equal(bom.get("SMALL_BOX"), 1);
      assert.equal(bom.get("TRANSPARENT_KEYCAP"), withKeycaps ? 10 : undefined);
      for (const id of pack.switchIds) assert.equal(bom.get(switchKey(id)), 1);
      assert.equal(bom.size, 10 + 1 + (withKeycaps ? 1 : 0));
    }
  }
});

Deno.test("custom tester: size 10 uses a small box, 15 and 20 a large one", () => {
  for (const size of TESTER_SIZES) {
    const bom = bomOf({ kind: "custom", size, keycaps: "none", switchIds: ids(size) });
    assert.deepEqual(obj(bom), {
      ...switchesOf(ids(size)),
      ...(size === 10 ? { SMALL_BOX: 1 } : { LARGE_BOX: 1 }),
    });
  }
});

Deno.test("custom tester: one keycap per switch of the chosen kind", () => {
  for (const size of TESTER_SIZES) {
    for (const keycaps of TESTER_KEYCAPS) {
      const bom = bomOf({ kind: "custom", size, keycaps, switchIds: ids(size) });
      assert.equal(bom.get("TRANSPARENT_KEYCAP"), keycaps === "transparent" ? size : undefined);
      assert.equal(bom.get("RANDOM_KEYCAP"), keycaps === "random" ? size : undefined);
      for (const id of ids(size)) assert.equal(bom.get(switchKey(id)), 1);
    }
  }
});

Deno.test("fidget cube: its 6 switches and a cube body, whatever the keycaps", () => {
  for (const keycaps of ["white", "pastel"] as const) {
    const bom = bomOf({ kind: "cube", keycaps, switchIds: ids(6) });
    assert.deepEqual(obj(bom), { ...switchesOf(ids(6)), CUBE_BODY: 1 });
  }
});

Deno.test("layout tester is one small box; cube case is one cube body", () => {
  assert.deepEqual(obj(bomOf({ kind: "layout-tester" })), { SMALL_BOX: 1 });
  assert.deepEqual(obj(bomOf({ kind: "cube-case" })), { CUBE_BODY: 1 });
  const layout = PRODUCTS.find((p) => p.id === 1)!;
  const cubeCase = PRODUCTS.find((p) => p.id === 2)!;
  assert.deepEqual(layout.bom, { kind: "layout-tester" });
  assert.deepEqual(cubeCase.bom, { kind: "cube-case" });
});

Deno.test("addBom multiplies by the quantity and merges shared components", () => {
  const pack = bomOf({ kind: "pack", switchIds: TEN, withKeycaps: true });
  const layout = bomOf({ kind: "layout-tester" });
  const total: Bom = new Map();
  const returned = addBom(total, pack, 3);
  assert.equal(returned, total, "addBom returns the total it added into");
  addBom(total, layout, 2);
  addBom(
    total,
    bomOf({ kind: "cube", keycaps: "white", switchIds: [101, 150, 151, 152, 153, 154] }),
  );
  assert.equal(total.get("SMALL_BOX"), 3 + 2);
  assert.equal(total.get("TRANSPARENT_KEYCAP"), 30);
  assert.equal(total.get(switchKey(101)), 3 + 1);
  assert.equal(total.get(switchKey(110)), 3);
  assert.equal(total.get(switchKey(150)), 1);
  assert.equal(total.get("CUBE_BODY"), 1);
  // The default multiplier is one.
  assert.deepEqual(obj(addBom(new Map(), layout)), { SMALL_BOX: 1 });
});

Deno.test("shortages lists only what stock cannot cover, with what is in stock", () => {
  const need = addBom(new Map(), bomOf({ kind: "pack", switchIds: TEN, withKeycaps: true }), 2);
  const plenty = Object.fromEntries([...need.keys()].map((k) => [k, 100]));
  assert.equal(shortages(need, stockOf(plenty)).size, 0);
  // Exactly enough is not a shortage.
  assert.equal(shortages(need, stockOf(Object.fromEntries(need))).size, 0);
  const short = shortages(
    need,
    stockOf({ ...plenty, "switch:103": 1, SMALL_BOX: 0, TRANSPARENT_KEYCAP: 19 }),
  );
  assert.deepEqual(Object.fromEntries(short), {
    "switch:103": 1,
    SMALL_BOX: 0,
    TRANSPARENT_KEYCAP: 19,
  });
  // Absent stock counts as none.
  assert.deepEqual(
    Object.fromEntries(shortages(bomOf({ kind: "cube-case" }), stockOf({}))),
    { CUBE_BODY: 0 },
  );
});

Deno.test("unitsAvailable is limited by the scarcest component", () => {
  const pack = bomOf({ kind: "pack", switchIds: TEN, withKeycaps: true });
  const counts: Partial<Record<StockKey, number>> = Object.fromEntries(
    TEN.map((id) => [switchKey(id), 50]),
  );
  assert.equal(
    unitsAvailable(pack, stockOf({ ...counts, SMALL_BOX: 7, TRANSPARENT_KEYCAP: 1000 })),
    7,
  );
  // 35 keycaps make three packs of ten.
  assert.equal(
    unitsAvailable(pack, stockOf({ ...counts, SMALL_BOX: 7, TRANSPARENT_KEYCAP: 35 })),
    3,
  );
  assert.equal(
    unitsAvailable(pack, stockOf({ ...counts, SMALL_BOX: 7, TRANSPARENT_KEYCAP: 9 })),
    0,
  );
  assert.equal(
    unitsAvailable(
      pack,
      stockOf({ ...counts, "switch:105": 0, SMALL_BOX: 7, TRANSPARENT_KEYCAP: 99 }),
    ),
    0,
  );
  assert.equal(unitsAvailable(bomOf({ kind: "layout-tester" }), stockOf({ SMALL_BOX: 250 })), 250);
  assert.equal(unitsAvailable(bomOf({ kind: "cube-case" }), stockOf({})), 0);
});

Deno.test("unitsAvailable: an empty bom or negative stock gives 0, never Infinity or less", () => {
  assert.equal(unitsAvailable(new Map(), stockOf({})), 0);
  assert.equal(unitsAvailable(bomOf({ kind: "cube-case" }), stockOf({ CUBE_BODY: -3 })), 0);
});
