import assert from "node:assert/strict";
import { ITEMS } from "../../shared/catalog/items.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";

const TYPE_WORDS = new Set(["tactile", "linear", "silent", "clicky"]);

const STARTER_NAMES = [
  "Lemon v3",
  "Pea Flower",
  "Gift",
  "Holy Panda",
  "Sakura",
  "Cream Blue",
  "Light Sakura",
  "Flash",
  "Violet Golden",
  "Whale",
];

const byId = new Map(SWITCHES.map((s) => [s.id, s]));

Deno.test("catalogue has at least 100 switches", () => {
  assert.ok(SWITCHES.length >= 100, `only ${SWITCHES.length} switches`);
});

Deno.test("switch ids are unique integers in 100-999", () => {
  for (const s of SWITCHES) {
    assert.ok(Number.isInteger(s.id) && s.id >= 100 && s.id <= 999, `bad id ${s.id}`);
  }
  assert.equal(byId.size, SWITCHES.length);
});

Deno.test("switch image names are unique kebab-case", () => {
  for (const s of SWITCHES) assert.match(s.image, /^[a-z0-9]+(-[a-z0-9]+)*$/);
  assert.equal(new Set(SWITCHES.map((s) => s.image)).size, SWITCHES.length);
});

Deno.test("(brand, name) pairs are unique", () => {
  const keys = new Set(SWITCHES.map((s) => `${s.brand}\u0000${s.name}`));
  assert.equal(keys.size, SWITCHES.length);
});

Deno.test("switches are sorted by brand then name", () => {
  for (let i = 1; i < SWITCHES.length; i++) {
    const a = SWITCHES[i - 1];
    const b = SWITCHES[i];
    const order = a.brand.localeCompare(b.brand, "en") || a.name.localeCompare(b.name, "en");
    assert.ok(order < 0, `${a.brand} ${a.name} should come after ${b.brand} ${b.name}`);
  }
});

Deno.test("every type word is tactile, linear, silent or clicky", () => {
  for (const s of SWITCHES) {
    const words = s.type.split(" ");
    assert.ok(words.length > 0 && words.every((w) => TYPE_WORDS.has(w)), `${s.name}: ${s.type}`);
  }
});

Deno.test("every force is a number of grams between 20 and 120", () => {
  for (const s of SWITCHES) {
    const m = s.force.match(/(\d+(?:\.\d+)?)\s*g\b/);
    assert.ok(m, `${s.name}: no grams in "${s.force}"`);
    const grams = Number(m[1]);
    assert.ok(grams >= 20 && grams <= 120, `${s.name}: ${grams}g out of range`);
  }
});

Deno.test("extra prices are integer cents and stock is a non-negative integer", () => {
  for (const s of SWITCHES) {
    assert.ok(Number.isInteger(s.extraPriceCents), `${s.name}: ${s.extraPriceCents}`);
    assert.ok(Number.isInteger(s.initialStock) && s.initialStock >= 0, s.name);
  }
});

Deno.test("colours are #rrggbb and referral links are https", () => {
  for (const s of SWITCHES) {
    assert.match(s.color, /^#[0-9a-f]{6}$/i);
    assert.equal(new URL(s.referralLink).protocol, "https:");
  }
});

Deno.test("at least one collaboration brand", () => {
  assert.ok(SWITCHES.some((s) => s.brand.includes(" x ")));
});

Deno.test("some switches are out of stock", () => {
  assert.ok(SWITCHES.some((s) => s.initialStock === 0));
});

Deno.test("exactly 6 packs, each with 10 distinct existing switch ids", () => {
  assert.equal(PACKS.length, 6);
  for (const p of PACKS) {
    assert.equal(p.switchIds.length, 10, p.slug);
    assert.equal(new Set(p.switchIds).size, 10, p.slug);
    for (const id of p.switchIds) assert.ok(byId.has(id), `${p.slug}: unknown switch ${id}`);
  }
});

Deno.test("pack ids and slugs are as listed", () => {
  assert.deepEqual(
    PACKS.map((p) => [p.slug, p.id, p.idWithKeycaps]),
    [
      ["starter-pack", 384, 385],
      ["popular", 380, 381],
      ["unique", 31, 42],
      ["linear", 386, 387],
      ["tactile", 382, 383],
      ["aesthetic", 33, 43],
    ],
  );
});

Deno.test("starter pack holds exactly the ten starter switches", () => {
  const starter = PACKS.find((p) => p.slug === "starter-pack");
  assert.ok(starter);
  const names = new Set(starter.switchIds.map((id) => byId.get(id)?.name));
  assert.deepEqual(names, new Set(STARTER_NAMES));
});

Deno.test("every pack can be bought on a fresh shop: no pack holds a switch seeded at 0", () => {
  for (const p of PACKS) {
    const empty = p.switchIds.filter((id) => byId.get(id)?.initialStock === 0);
    assert.deepEqual(empty, [], p.slug);
  }
});

Deno.test("items are the layout tester and the fidget cube case", () => {
  assert.deepEqual(
    ITEMS.map((i) => [i.id, i.name, i.priceCents, i.image]),
    [
      [1, "Layout Tester", 799, "layout-tester"],
      [2, "Fidget Cube Case", 399, "fidget-cube-case"],
    ],
  );
  for (const i of ITEMS) assert.ok(i.description.length > 0);
});
