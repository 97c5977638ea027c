import assert from "node:assert/strict";
import {
  allBrands,
  DEFAULT_FORCE_RANGE,
  DEFAULT_TYPES,
  defaultFilters,
  type FilterableSwitch,
  filterSwitches,
  FORCE_STEP,
  forceGrams,
  forceRangeOf,
  matchesFilters,
  sortAvailableFirst,
  splitBrands,
  type SwitchFilters,
} from "../../shared/filter.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";

function sw(overrides: Partial<FilterableSwitch> = {}): FilterableSwitch {
  return { name: "Oil King", brand: "Gateron", type: "linear", force: "55g", ...overrides };
}

/** Filters that let `sw()` through, so each test changes only the rule it is about. */
function open(overrides: Partial<SwitchFilters> = {}): SwitchFilters {
  return {
    brands: [],
    types: ["tactile", "linear", "silent", "clicky"],
    forceRange: { low: 0, high: 1000 },
    search: "",
    ...overrides,
  };
}

Deno.test("constants match the spec", () => {
  assert.deepEqual([...DEFAULT_TYPES], ["tactile", "linear", "silent", "clicky"]);
  assert.equal(FORCE_STEP, 5);
  assert.deepEqual({ ...DEFAULT_FORCE_RANGE }, { low: 45, high: 70 });
});

Deno.test("DEFAULT_TYPES and DEFAULT_FORCE_RANGE cannot be mutated", () => {
  assert.throws(() => (DEFAULT_TYPES as string[]).push("other"), TypeError);
  assert.throws(() => {
    (DEFAULT_FORCE_RANGE as { low: number }).low = 0;
  }, TypeError);
  assert.equal(DEFAULT_TYPES.length, 4);
  assert.equal(DEFAULT_FORCE_RANGE.low, 45);
});

Deno.test("splitBrands: a single brand stays whole", () => {
  assert.deepEqual(splitBrands("Gateron"), ["Gateron"]);
  assert.deepEqual(splitBrands("HMX"), ["HMX"]);
  assert.deepEqual(splitBrands("Drop X Invyr"), ["Drop X Invyr"]);
  assert.deepEqual(splitBrands("Dropx Invyr"), ["Dropx Invyr"]);
});

Deno.test("splitBrands: a collaboration splits on ' x ' into trimmed parts", () => {
  assert.deepEqual(splitBrands("Drop x Invyr"), ["Drop", "Invyr"]);
  assert.deepEqual(splitBrands("C³Equalz x TKC"), ["C³Equalz", "TKC"]);
  assert.deepEqual(splitBrands("A x B x C"), ["A", "B", "C"]);
  assert.deepEqual(splitBrands("Drop  x  Invyr"), ["Drop", "Invyr"]);
  assert.deepEqual(splitBrands("Drop x "), ["Drop"]);
});

Deno.test("allBrands: unique, collaborations split, sorted ignoring case", () => {
  const brands = allBrands([
    { brand: "HMX" },
    { brand: "Gateron" },
    { brand: "Drop x Invyr" },
    { brand: "Haimu" },
    { brand: "Gateron x Keygeek" },
    { brand: "Drop x Input Club" },
    { brand: "akko" },
  ]);
  assert.deepEqual(brands, [
    "akko",
    "Drop",
    "Gateron",
    "Haimu",
    "HMX",
    "Input Club",
    "Invyr",
    "Keygeek",
  ]);
});

Deno.test("allBrands: empty list gives no brands", () => {
  assert.deepEqual(allBrands([]), []);
});

Deno.test("allBrands over the catalogue lists each partner and no collaboration", () => {
  const brands = allBrands(SWITCHES);
  assert.ok(brands.includes("Drop"));
  assert.ok(brands.includes("Invyr"));
  assert.ok(!brands.some((b) => b.includes(" x ")), "a collaboration was not split");
  assert.equal(new Set(brands).size, brands.length);
});

Deno.test("forceGrams reads the first number", () => {
  assert.equal(forceGrams("62g"), 62);
  assert.equal(forceGrams("45 g"), 45);
  assert.equal(forceGrams("62.5g"), 62.5);
  assert.equal(forceGrams("67g bottom out, 45g actuation"), 67);
  assert.equal(forceGrams("approx. 50g"), 50);
  assert.equal(forceGrams("0g"), 0);
});

Deno.test("forceGrams gives null when there is no number", () => {
  assert.equal(forceGrams("n/a"), null);
  assert.equal(forceGrams(""), null);
  assert.equal(forceGrams("g"), null);
});

Deno.test("forceRangeOf rounds the minimum down and the maximum up to multiples of 5", () => {
  assert.deepEqual(forceRangeOf([{ force: "37g" }, { force: "63g" }]), { low: 35, high: 65 });
  assert.deepEqual(forceRangeOf([{ force: "41g" }, { force: "79g" }]), { low: 40, high: 80 });
  assert.deepEqual(forceRangeOf([{ force: "44.9g" }, { force: "60.1g" }]), {
    low: 40,
    high: 65,
  });
});

Deno.test("forceRangeOf leaves exact multiples unchanged", () => {
  assert.deepEqual(forceRangeOf([{ force: "40g" }, { force: "80g" }]), { low: 40, high: 80 });
  assert.deepEqual(forceRangeOf([{ force: "55g" }]), { low: 55, high: 55 });
});

Deno.test("forceRangeOf uses the true extremes whatever the order", () => {
  const range = forceRangeOf([{ force: "62g" }, { force: "36g" }, { force: "78g" }, {
    force: "50g",
  }]);
  assert.deepEqual(range, { low: 35, high: 80 });
});

Deno.test("forceRangeOf with a single odd value spans the two multiples around it", () => {
  assert.deepEqual(forceRangeOf([{ force: "62g" }]), { low: 60, high: 65 });
});

Deno.test("forceRangeOf ignores switches without a number", () => {
  assert.deepEqual(forceRangeOf([{ force: "n/a" }, { force: "52g" }, { force: "?" }]), {
    low: 50,
    high: 55,
  });
});

Deno.test("forceRangeOf falls back to 45..70 with no data or no numbers", () => {
  assert.deepEqual(forceRangeOf([]), { low: 45, high: 70 });
  assert.deepEqual(forceRangeOf([{ force: "n/a" }]), { low: 45, high: 70 });
});

Deno.test("forceRangeOf returns a fresh object, not the shared default", () => {
  const range = forceRangeOf([]);
  range.low = 0;
  assert.equal(DEFAULT_FORCE_RANGE.low, 45);
  assert.equal(forceRangeOf([]).low, 45);
});

Deno.test("forceRangeOf over the catalogue: multiples of 5 holding every switch, tightly", () => {
  const { low, high } = forceRangeOf(SWITCHES);
  const grams = SWITCHES.map((s) => forceGrams(s.force) as number);
  assert.equal(low % 5, 0);
  assert.equal(high % 5, 0);
  assert.ok(grams.every((g) => g >= low && g <= high));
  assert.ok(Math.min(...grams) - low < 5);
  assert.ok(high - Math.max(...grams) < 5);
});

Deno.test("brand: an empty brand list means every brand", () => {
  assert.equal(matchesFilters(sw({ brand: "Anything" }), open({ brands: [] })), true);
});

Deno.test("brand: the switch's brand must be chosen", () => {
  assert.equal(matchesFilters(sw({ brand: "Gateron" }), open({ brands: ["Gateron"] })), true);
  assert.equal(matchesFilters(sw({ brand: "Gateron" }), open({ brands: ["Cherry"] })), false);
  assert.equal(
    matchesFilters(sw({ brand: "Gateron" }), open({ brands: ["Cherry", "Gateron"] })),
    true,
  );
});

Deno.test("brand: matching is exact, not by substring or case", () => {
  assert.equal(matchesFilters(sw({ brand: "Gateron" }), open({ brands: ["Gate"] })), false);
  assert.equal(matchesFilters(sw({ brand: "Gateron" }), open({ brands: ["gateron"] })), false);
});

Deno.test("brand: a collaboration matches through either partner", () => {
  const holyPanda = sw({ brand: "Drop x Invyr" });
  assert.equal(matchesFilters(holyPanda, open({ brands: ["Drop"] })), true);
  assert.equal(matchesFilters(holyPanda, open({ brands: ["Invyr"] })), true);
  assert.equal(matchesFilters(holyPanda, open({ brands: ["Gateron"] })), false);
  // The joined name is not itself a brand checkbox.
  assert.equal(matchesFilters(holyPanda, open({ brands: ["Drop x Invyr"] })), false);
});

Deno.test("type: the type must be chosen", () => {
  assert.equal(matchesFilters(sw({ type: "linear" }), open({ types: ["linear"] })), true);
  assert.equal(matchesFilters(sw({ type: "linear" }), open({ types: ["tactile"] })), false);
  assert.equal(
    matchesFilters(sw({ type: "clicky" }), open({ types: ["tactile", "clicky"] })),
    true,
  );
});

Deno.test("type: a multi-word type matches any of its words", () => {
  const silentLinear = sw({ type: "silent linear" });
  assert.equal(matchesFilters(silentLinear, open({ types: ["silent"] })), true);
  assert.equal(matchesFilters(silentLinear, open({ types: ["linear"] })), true);
  assert.equal(matchesFilters(silentLinear, open({ types: ["tactile"] })), false);
  assert.equal(matchesFilters(silentLinear, open({ types: ["clicky", "tactile"] })), false);
});

Deno.test("type: comparison ignores case", () => {
  assert.equal(matchesFilters(sw({ type: "Silent Tactile" }), open({ types: ["tactile"] })), true);
  assert.equal(matchesFilters(sw({ type: "tactile" }), open({ types: ["Tactile"] })), true);
});

Deno.test("type: whole words only, so a fragment does not match", () => {
  assert.equal(matchesFilters(sw({ type: "linear" }), open({ types: ["line"] })), false);
});

Deno.test("type: an empty type list matches nothing", () => {
  assert.equal(matchesFilters(sw({ type: "linear" }), open({ types: [] })), false);
  assert.equal(matchesFilters(sw({ type: "silent linear" }), open({ types: [] })), false);
});

Deno.test("force: bounds are inclusive", () => {
  const range = { low: 45, high: 60 };
  assert.equal(matchesFilters(sw({ force: "45g" }), open({ forceRange: range })), true);
  assert.equal(matchesFilters(sw({ force: "60g" }), open({ forceRange: range })), true);
  assert.equal(matchesFilters(sw({ force: "52g" }), open({ forceRange: range })), true);
});

Deno.test("force: outside the range fails", () => {
  const range = { low: 45, high: 60 };
  assert.equal(matchesFilters(sw({ force: "44g" }), open({ forceRange: range })), false);
  assert.equal(matchesFilters(sw({ force: "44.9g" }), open({ forceRange: range })), false);
  assert.equal(matchesFilters(sw({ force: "61g" }), open({ forceRange: range })), false);
  assert.equal(matchesFilters(sw({ force: "60.5g" }), open({ forceRange: range })), false);
});

Deno.test("force: a single-value range keeps exactly that force", () => {
  const range = { low: 55, high: 55 };
  assert.equal(matchesFilters(sw({ force: "55g" }), open({ forceRange: range })), true);
  assert.equal(matchesFilters(sw({ force: "56g" }), open({ forceRange: range })), false);
});

Deno.test("force: a force with no number passes any range", () => {
  assert.equal(
    matchesFilters(sw({ force: "n/a" }), open({ forceRange: { low: 60, high: 65 } })),
    true,
  );
});

Deno.test("search: an empty or blank search matches all", () => {
  assert.equal(matchesFilters(sw(), open({ search: "" })), true);
  assert.equal(matchesFilters(sw(), open({ search: "   " })), true);
});

Deno.test("search: matches the name case-insensitively", () => {
  const s = sw({ name: "Oil King", brand: "Gateron" });
  assert.equal(matchesFilters(s, open({ search: "oil" })), true);
  assert.equal(matchesFilters(s, open({ search: "KING" })), true);
  assert.equal(matchesFilters(s, open({ search: "l k" })), true);
});

Deno.test("search: matches the brand case-insensitively, including a collaboration", () => {
  assert.equal(matchesFilters(sw({ brand: "Gateron" }), open({ search: "GATE" })), true);
  assert.equal(matchesFilters(sw({ brand: "Drop x Invyr" }), open({ search: "invyr" })), true);
});

Deno.test("search: the text is trimmed", () => {
  assert.equal(matchesFilters(sw({ name: "Oil King" }), open({ search: "  oil  " })), true);
});

Deno.test("search: no match in name or brand fails", () => {
  const s = sw({ name: "Oil King", brand: "Gateron", type: "linear", force: "55g" });
  assert.equal(matchesFilters(s, open({ search: "panda" })), false);
  // The type and force texts are not searched.
  assert.equal(matchesFilters(s, open({ search: "linear" })), false);
  assert.equal(matchesFilters(s, open({ search: "55g" })), false);
});

Deno.test("every rule must pass: one failing rule rejects the switch", () => {
  const s = sw({ name: "Holy Panda", brand: "Drop x Invyr", type: "tactile", force: "67g" });
  const all = open({ brands: ["Drop"], types: ["tactile"], forceRange: { low: 65, high: 70 } });
  assert.equal(matchesFilters(s, { ...all, search: "panda" }), true);
  assert.equal(matchesFilters(s, { ...all, brands: ["Gateron"] }), false);
  assert.equal(matchesFilters(s, { ...all, types: ["linear"] }), false);
  assert.equal(matchesFilters(s, { ...all, forceRange: { low: 45, high: 60 } }), false);
  assert.equal(matchesFilters(s, { ...all, search: "king" }), false);
});

Deno.test("filterSwitches keeps matching switches in order with their extra fields", () => {
  const list = [
    { ...sw({ name: "A", type: "linear" }), id: 1 },
    { ...sw({ name: "B", type: "tactile" }), id: 2 },
    { ...sw({ name: "C", type: "silent linear" }), id: 3 },
  ];
  const result = filterSwitches(list, open({ types: ["linear"] }));
  assert.deepEqual(result.map((s) => s.id), [1, 3]);
  assert.equal(result[0], list[0]);
});

Deno.test("filterSwitches on an empty list gives an empty list", () => {
  assert.deepEqual(filterSwitches([], open()), []);
});

Deno.test("defaultFilters: no brand ticked (every brand), default types, data range, empty search", () => {
  const list = [
    sw({ brand: "Gateron", force: "37g" }),
    sw({ brand: "Drop x Invyr", force: "63g" }),
  ];
  const filters = defaultFilters(list);
  assert.deepEqual(filters, {
    brands: [],
    types: ["tactile", "linear", "silent", "clicky"],
    forceRange: { low: 35, high: 65 },
    search: "",
  });
});

Deno.test("defaultFilters: its types list is a copy", () => {
  const filters = defaultFilters([]);
  filters.types.pop();
  assert.equal(DEFAULT_TYPES.length, 4);
  assert.equal(defaultFilters([]).types.length, 4);
});

Deno.test("defaultFilters on empty data: no brands and 45..70", () => {
  assert.deepEqual(defaultFilters([]), {
    brands: [],
    types: ["tactile", "linear", "silent", "clicky"],
    forceRange: { low: 45, high: 70 },
    search: "",
  });
});

Deno.test("defaultFilters lets every catalogue switch through", () => {
  const filters = defaultFilters(SWITCHES);
  assert.equal(filterSwitches(SWITCHES, filters).length, SWITCHES.length);
});

Deno.test("from the defaults, ticking one brand narrows the catalogue to that brand", () => {
  // The shopper's first tick: the page adds it to the ticked brands of the defaults.
  const defaults = defaultFilters(SWITCHES);
  const kailh = filterSwitches(SWITCHES, { ...defaults, brands: [...defaults.brands, "Kailh"] });
  assert.ok(kailh.length > 0);
  assert.ok(kailh.length < SWITCHES.length, "ticking Kailh changed nothing");
  assert.ok(kailh.every((s) => splitBrands(s.brand).includes("Kailh")));
});

Deno.test("sortAvailableFirst: available first, stable within each group", () => {
  const list = [
    { id: 1, available: false },
    { id: 2, available: true },
    { id: 3, available: false },
    { id: 4, available: true },
    { id: 5, available: true },
  ];
  assert.deepEqual(sortAvailableFirst(list).map((x) => x.id), [2, 4, 5, 1, 3]);
});

Deno.test("sortAvailableFirst returns a new array and leaves the input alone", () => {
  const list = [{ id: 1, available: false }, { id: 2, available: true }];
  const sorted = sortAvailableFirst(list);
  assert.notEqual(sorted, list);
  assert.deepEqual(list.map((x) => x.id), [1, 2]);
  assert.equal(sorted[0], list[1]);
});

Deno.test("sortAvailableFirst handles empty, all-available and none-available lists", () => {
  assert.deepEqual(sortAvailableFirst([]), []);
  const all = [{ id: 1, available: true }, { id: 2, available: true }];
  assert.deepEqual(sortAvailableFirst(all).map((x) => x.id), [1, 2]);
  const none = [{ id: 1, available: false }, { id: 2, available: false }];
  assert.deepEqual(sortAvailableFirst(none).map((x) => x.id), [1, 2]);
});
