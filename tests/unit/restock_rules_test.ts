/**
 * The restock list's ranking rule: how short a component is, how long it lasts, the order of the
 * list and what is left off it, and how demand for a product reaches the components it is made of.
 */
import assert from "node:assert/strict";
import {
  daysOfRunway,
  isWorthListing,
  restockRows,
  restockScore,
  type StockFigures,
  unitsShortOf,
} from "../../server/reports/restock_rules.ts";
import type { RestockRow } from "../../shared/restock.ts";
import type { Bom, StockKey } from "../../shared/bom.ts";

Deno.test("units short: what the waiting would buy plus the low-stock level, less what is free", () => {
  assert.equal(unitsShortOf(3, 10, 5), 8);
  assert.equal(unitsShortOf(0, 10, 4), 6);
  assert.equal(unitsShortOf(3, 10, 40), 0, "never below 0");
  assert.equal(unitsShortOf(0, 0, 0), 0);
});

Deno.test("days of runway: free units at the last 30 days' daily rate; null when nothing sold", () => {
  assert.equal(daysOfRunway(15, 30), 15);
  assert.equal(daysOfRunway(10, 60), 5);
  assert.equal(daysOfRunway(0, 30), 0);
  assert.equal(daysOfRunway(7, 90), 2, "whole days, rounded down as the inventory shows them");
  assert.equal(daysOfRunway(50, 0), null);
});

type Ranked = Pick<RestockRow, "unitsShort" | "peopleWaiting" | "daysOfRunway">;
const rank = (r: Ranked) => restockScore(r);

Deno.test("the ranking: units short first, then people waiting, then fewest days of runway", () => {
  const order: Ranked[] = [
    { unitsShort: 40, peopleWaiting: 0, daysOfRunway: null },
    { unitsShort: 39, peopleWaiting: 5_000, daysOfRunway: 0 },
    { unitsShort: 39, peopleWaiting: 4_999, daysOfRunway: 0 },
    { unitsShort: 39, peopleWaiting: 4_999, daysOfRunway: 3 },
    { unitsShort: 39, peopleWaiting: 4_999, daysOfRunway: 900 },
    { unitsShort: 39, peopleWaiting: 4_999, daysOfRunway: null },
    { unitsShort: 0, peopleWaiting: 1, daysOfRunway: null },
    { unitsShort: 0, peopleWaiting: 0, daysOfRunway: 12 },
    { unitsShort: 0, peopleWaiting: 0, daysOfRunway: null },
  ];
  for (let i = 1; i < order.length; i++) {
    assert.ok(
      rank(order[i - 1]) > rank(order[i]),
      `${JSON.stringify(order[i - 1])} ranks above ${JSON.stringify(order[i])}`,
    );
  }
  // The largest figures a shop can hold still rank as the rule says (the score stays exact).
  const big = { unitsShort: 1_000_000, peopleWaiting: 99_999, daysOfRunway: 0 };
  assert.ok(rank(big) > rank({ ...big, daysOfRunway: 1 }));
  assert.ok(rank({ ...big, peopleWaiting: 0 }) > rank({ ...big, unitsShort: 999_999 }));
  assert.ok(Number.isSafeInteger(rank(big)));
});

Deno.test("left off the list: nothing short, nobody waiting and more than 30 days of runway", () => {
  const quiet = { unitsShort: 0, peopleWaiting: 0 };
  assert.equal(isWorthListing({ ...quiet, daysOfRunway: 31 }), false);
  assert.equal(isWorthListing({ ...quiet, daysOfRunway: null }), false, "nothing sold: no hurry");
  assert.equal(isWorthListing({ ...quiet, daysOfRunway: 30 }), true);
  assert.equal(isWorthListing({ ...quiet, daysOfRunway: 0 }), true);
  assert.equal(isWorthListing({ unitsShort: 1, peopleWaiting: 0, daysOfRunway: null }), true);
  assert.equal(isWorthListing({ unitsShort: 0, peopleWaiting: 1, daysOfRunway: 400 }), true);
});

/** A stock lookup from plain figures; a key not named has nothing free, level 10, none sold. */
function stockOf(figures: Partial<Record<StockKey, Partial<StockFigures>>>) {
  return (key: StockKey): StockFigures => ({
    free: 0,
    level: 10,
    soldLast30Days: 0,
    ...figures[key],
  });
}

const PACK_BOM: Bom = new Map<StockKey, number>([
  ["switch:1", 1],
  ["switch:2", 1],
  ["SMALL_BOX", 1],
]);

Deno.test("a product's waiting shoppers count on the product and on every component it takes", () => {
  const rows = restockRows(
    {
      switches: [{ id: 1, name: "Red" }, { id: 2, name: "Brown" }, { id: 3, name: "Blue" }],
      components: [
        { key: "SMALL_BOX", name: "Small tester box" },
        { key: "CUBE_BODY", name: "Fidget cube body" },
      ],
      products: [
        { id: 50, name: "Duo Pack", bom: PACK_BOM, soldLast30Days: 30 },
        { id: 51, name: "Quiet Pack", bom: PACK_BOM, soldLast30Days: 0 },
      ],
    },
    stockOf({
      "switch:1": { free: 100, level: 10, soldLast30Days: 30 },
      "switch:2": { free: 4, level: 10, soldLast30Days: 30 },
      "switch:3": { free: 500, level: 10, soldLast30Days: 3 },
      SMALL_BOX: { free: 200, level: 20, soldLast30Days: 30 },
      CUBE_BODY: { free: 50, level: 5, soldLast30Days: 0 },
    }),
    new Map([
      // Five sign-ups for the pack, and a sold-out drop of it left 10 waiting, 2 each.
      ["product:50", { people: 15, units: 25 }],
      ["switch:2", { people: 3, units: 3 }],
    ]),
  );
  const byId = new Map(rows.map((r) => [`${r.kind}:${r.id}`, r]));
  assert.deepEqual(byId.get("product:50"), {
    kind: "product",
    id: "50",
    name: "Duo Pack",
    stock: 4, // switch 2 limits it
    unitsShort: 21,
    peopleWaiting: 15,
    daysOfRunway: 4,
    score: byId.get("product:50")!.score,
    unitsWanted: 25,
    lowStockAt: 0,
    soldLast30Days: 30,
  });
  assert.deepEqual(
    [byId.get("switch:2")!.unitsShort, byId.get("switch:2")!.peopleWaiting],
    [25 + 3 + 10 - 4, 18],
  );
  assert.equal(byId.get("switch:2")!.stock, 4);
  assert.equal(byId.get("switch:2")!.daysOfRunway, 4);
  assert.deepEqual([byId.get("switch:1")!.unitsShort, byId.get("switch:1")!.peopleWaiting], [
    0,
    15,
  ]);
  assert.deepEqual(
    [byId.get("component:SMALL_BOX")!.unitsShort, byId.get("component:SMALL_BOX")!.name],
    [0, "Small tester box"],
  );
  assert.equal(byId.get("switch:3"), undefined, "500 free at 3 a month: left off");
  assert.equal(byId.get("component:CUBE_BODY"), undefined, "nothing short, none sold: left off");
  assert.equal(byId.get("product:51"), undefined, "nobody waits for it: not a row");
  assert.deepEqual(rows.map((r) => `${r.kind}:${r.id}`), [
    "switch:2",
    "product:50",
    "switch:1",
    "component:SMALL_BOX",
  ]);
  assert.ok(rows.every((r, i) => i === 0 || rows[i - 1].score >= r.score));
});

Deno.test("a component nobody waits for is listed when it falls under its level or runs out soon", () => {
  const rows = restockRows(
    { switches: [{ id: 1, name: "Red" }, { id: 2, name: "Brown" }], components: [], products: [] },
    stockOf({
      "switch:1": { free: 6, level: 10, soldLast30Days: 0 },
      "switch:2": { free: 40, level: 10, soldLast30Days: 60 },
    }),
    new Map(),
  );
  assert.deepEqual(
    rows.map((r) => [r.id, r.unitsShort, r.peopleWaiting, r.daysOfRunway]),
    [["1", 4, 0, null], ["2", 0, 0, 20]],
  );
});
