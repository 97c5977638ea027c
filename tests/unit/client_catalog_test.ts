/**
 * The client's catalogue logic without a browser: what the owner types becomes what the API
 * takes (money, counts, dates, only the changed fields), the switch filters and the history
 * lines of the Catalogue tab, the cart's checkout note for lines no longer sold, and the home
 * page's cards once the owner's packs have loaded.
 */
import assert from "node:assert/strict";
import {
  changedFields,
  filterCatalogSwitches,
  historyRows,
  historyValue,
  isoFromLocal,
  localDateTimeText,
  moneyText,
  parseCount,
  parseMoney,
} from "../../client/features/admin/catalog_format.ts";
import { blockedCheckoutReason } from "../../client/features/cart/blocked_reason.ts";
import { testerCards } from "../../client/features/content/tester_cards.ts";
import { PACK_INFO } from "../../shared/catalog/pack_info.ts";
import type { AdminSwitchView, CatalogEditView, PackView } from "../../shared/api_types.ts";

Deno.test("money fields show two decimals and send dollars; blank is left out", () => {
  assert.equal(moneyText(2.5), "2.50");
  assert.equal(moneyText(-0.25), "-0.25");
  assert.equal(moneyText(null), "");
  assert.equal(parseMoney("2.5"), 2.5);
  assert.equal(parseMoney(" $12.00 "), 12);
  assert.equal(parseMoney("-$0.25"), -0.25);
  assert.equal(parseMoney(""), undefined);
  assert.ok(Number.isNaN(parseMoney("abc")), "left for the schema to refuse");
  assert.equal(parseCount(" 40 "), 40);
  assert.equal(parseCount(""), undefined);
});

Deno.test("dates round-trip between datetime-local text and ISO 8601 instants", () => {
  const iso = isoFromLocal("2026-12-01T09:30");
  assert.ok(iso);
  assert.equal(localDateTimeText(iso), "2026-12-01T09:30");
  assert.equal(isoFromLocal(""), null);
  assert.equal(isoFromLocal("not a date"), "not a date");
  assert.equal(localDateTimeText(null), "");
});

Deno.test("an edit sends only the fields that changed, arrays compared by content", () => {
  const current = { name: "A", price: 19.99, switchIds: [1, 2], onSale: true, limit: null };
  assert.deepEqual(
    changedFields(current, {
      name: "A",
      price: 21,
      switchIds: [1, 2],
      onSale: true,
      limit: null,
      skipped: undefined,
    }),
    { price: 21 },
  );
  assert.deepEqual(changedFields(current, { switchIds: [2, 1], limit: 5 }), {
    switchIds: [2, 1],
    limit: 5,
  });
  assert.deepEqual(changedFields({ limit: 5 }, { limit: null }), { limit: null }, "a lifted limit");
});

function sw(id: number, brand: string, name: string, type: string, retired = false) {
  return {
    id,
    brand,
    name,
    type,
    retired,
    force: "50g",
    extraPrice: 0,
    referralLink: "https://example.com",
    stock: 5,
    image: "x",
    version: "1",
  } as AdminSwitchView;
}

Deno.test("the switch table filters by name or brand, type word and status", () => {
  const all = [
    sw(1, "Gateron", "Milky Yellow", "linear"),
    sw(2, "Kailh", "Box Jade", "clicky", true),
    sw(3, "Gateron", "Silent Ink", "silent linear"),
  ];
  const ids = (list: AdminSwitchView[]) => list.map((s) => s.id);
  assert.deepEqual(ids(filterCatalogSwitches(all, { query: "", type: "", status: "all" })), [
    1,
    2,
    3,
  ]);
  assert.deepEqual(ids(filterCatalogSwitches(all, { query: "", type: "", status: "retired" })), [
    2,
  ]);
  assert.deepEqual(ids(filterCatalogSwitches(all, { query: "", type: "", status: "active" })), [
    1,
    3,
  ]);
  assert.deepEqual(
    ids(filterCatalogSwitches(all, { query: "", type: "linear", status: "all" })),
    [1, 3],
    "a silent linear is a linear too",
  );
  assert.deepEqual(
    ids(filterCatalogSwitches(all, { query: "gateron ink", type: "", status: "all" })),
    [],
  );
  assert.deepEqual(
    ids(filterCatalogSwitches(all, { query: "GATERON S", type: "", status: "all" })),
    [
      3,
    ],
  );
});

Deno.test("the history lists one line per changed field, newest first, values readable", () => {
  const edits: CatalogEditView[] = [
    {
      id: "a",
      at: "2026-01-01T00:00:00.000Z",
      kind: "switch",
      target: "701",
      label: "Gateron Tidal Blue",
      action: "created",
      changes: [{ field: "extraPrice", from: null, to: 0.75 }],
      names: {},
    },
    {
      id: "b",
      at: "2026-01-02T00:00:00.000Z",
      kind: "pack",
      target: "384",
      label: null,
      action: "updated",
      changes: [
        { field: "title", from: "Starter Pack", to: "Starter Pack 2027" },
        { field: "onSale", from: true, to: false },
      ],
      names: {},
    },
  ];
  const rows = historyRows(edits);
  assert.deepEqual(rows.map((r) => [r.what, r.field, r.from, r.to]), [
    ["Pack 384", "Title", "Starter Pack", "Starter Pack 2027"],
    ["Pack 384", "On sale", "Yes", "No"],
    ["Switch Gateron Tidal Blue", "Extra price", "—", "$0.75"],
  ]);
  assert.equal(historyValue("extraPrice", 1.5), "$1.50");
  assert.equal(historyValue("priceCents", 1150), "$11.50");
  assert.equal(historyValue("switchIds", [1, 2]), "1, 2");
  assert.equal(historyValue("percentOff", 16), "16%");
});

Deno.test("a pack's switch swap reads as names, only the switches that changed", () => {
  const edit = (from: number[], to: number[]): CatalogEditView => ({
    id: "c",
    at: "2026-01-03T00:00:00.000Z",
    kind: "pack",
    target: "384",
    label: "Starter Pack",
    action: "updated",
    changes: [{ field: "switchIds", from, to }],
    names: {
      "150": "Gateron Oil King",
      "223": "Akko Cream Yellow",
      "7": "Cherry MX Red",
      "8": "switch #8 (removed)",
    },
  });
  const swap = historyRows([edit([150, 7], [223, 7])]);
  assert.deepEqual(swap.map((r) => [r.field, r.from, r.to]), [
    ["Switches", "Gateron Oil King", "Akko Cream Yellow"],
  ]);
  const two = historyRows([edit([150, 8, 7], [223, 7, 150])]);
  assert.deepEqual(two.map((r) => [r.from, r.to]), [["switch #8 (removed)", "Akko Cream Yellow"]]);
  const reordered = historyRows([edit([150, 7], [7, 150])]);
  assert.deepEqual(reordered.map((r) => [r.from, r.to]), [[
    "Gateron Oil King, Cherry MX Red",
    "Cherry MX Red, Gateron Oil King",
  ]], "only the order changed: both lists whole");
});

Deno.test("the cart names the lines that stop the checkout", () => {
  assert.equal(blockedCheckoutReason([]), null);
  assert.equal(
    blockedCheckoutReason(["Starter Pack"]),
    "Starter Pack is no longer available. Remove it to check out.",
  );
  assert.equal(
    blockedCheckoutReason(["A", "B", "C"]),
    "A, B and C are no longer available. Remove them to check out.",
  );
});

Deno.test("the home page's cards follow the owner's packs once loaded", () => {
  const seeded = testerCards(null);
  assert.equal(seeded.length, 1 + PACK_INFO.length, "the custom tester and every seeded pack");
  assert.equal(seeded[1].price, "$9.99");

  const loaded = PACK_INFO.map((p, i) => ({
    ...p,
    imageUrl: "",
    basePrice: 20 + i,
    basePriceCents: 2000 + i * 100,
    priceWithKeycapsCents: 2200 + i * 100,
    switches: [],
    onSale: p.slug !== "aesthetic",
    title: p.slug === "starter-pack" ? "Starter Pack 2027" : p.title,
    description: p.slug === "linear" ? "The owner's words." : p.description,
  })) as PackView[];
  const cards = testerCards(loaded);
  assert.equal(cards.length, PACK_INFO.length, "the pack off sale left");
  assert.equal(cards[1].title, "Starter Pack 2027");
  assert.equal(cards[1].price, "$20.00");
  assert.equal(cards[1].blurb, "Ten hand-picked switches to find out what you like.");
  const linear = cards.find((c) => c.path === "/testers/linear")!;
  assert.equal(linear.blurb, "The owner's words.", "a rewritten description replaces the blurb");
  assert.ok(!cards.some((c) => c.path === "/testers/aesthetic"));
});
