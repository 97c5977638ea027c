import assert from "node:assert/strict";
import { tickLines } from "../../client/features/admin/chart_labels.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";

/** Characters a line holds on a phone's chart axis and on a wide screen's. */
const PHONE_CHARS = 18;
const WIDE_CHARS = 28;

Deno.test("a name that fits is one line, as written", () => {
  assert.deepEqual(tickLines("Akko Cream Blue", PHONE_CHARS), ["Akko Cream Blue"]);
  assert.deepEqual(tickLines("Gateron Milky Yellow", WIDE_CHARS), ["Gateron Milky Yellow"]);
});

Deno.test("a long name wraps at a space onto a second line, its words whole", () => {
  assert.deepEqual(tickLines("NovelKeys x Kailh Box Jade", PHONE_CHARS), [
    "NovelKeys x Kailh",
    "Box Jade",
  ]);
  assert.deepEqual(tickLines("C³Equalz x TKC Banana Split", PHONE_CHARS), [
    "C³Equalz x TKC",
    "Banana Split",
  ]);
});

Deno.test("a name longer than two lines keeps its start and says it was cut", () => {
  assert.deepEqual(
    tickLines("Very Long Brand Name x Another Long Brand Switch Name", PHONE_CHARS),
    ["Very Long Brand", "Name x Another Lo…"],
  );
  assert.deepEqual(tickLines("Supercalifragilisticexpialidocious", PHONE_CHARS), [
    "Supercalifragilis…",
  ]);
});

Deno.test("every switch of the catalogue reads apart from every other, on a phone and wide", () => {
  for (const chars of [PHONE_CHARS, WIDE_CHARS]) {
    const labels = SWITCHES.map((s) => tickLines(`${s.brand} ${s.name}`, chars).join(" "));
    const repeated = labels.filter((label, i) => labels.indexOf(label) !== i);
    assert.deepEqual(repeated, [], `labels at ${chars} characters a line`);
    for (const label of labels) {
      assert.ok(!label.includes("…"), `${label}: no catalogue name is cut`);
    }
  }
});

Deno.test("a cut name never splits a character: no half of an emoji or a letter outside the BMP", () => {
  // The owner names switches freely in the catalogue editor; a name with no spaces is cut.
  const name = "𝕂𝕒𝕚𝕝𝕙𝔹𝕠𝕩𝕁𝕒𝕕𝕖𝕏𝕏𝕏🍌🍌🍌🍌";
  const lines = tickLines(name, PHONE_CHARS);
  assert.deepEqual(lines, ["𝕂𝕒𝕚𝕝𝕙𝔹𝕠𝕩𝕁𝕒𝕕𝕖𝕏𝕏𝕏🍌🍌…"]);
  // A family emoji is one character to a reader, though several code points joined.
  assert.deepEqual(tickLines("Family 👩‍👩‍👧‍👦👩‍👩‍👧‍👦 Edition", 8), ["Family", "👩‍👩‍👧‍👦👩‍👩‍👧‍👦 Edit…"]);
});
