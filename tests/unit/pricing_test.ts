import assert from "node:assert/strict";
import {
  CUBE_BASE_CENTS,
  cubeCents,
  customTesterCents,
  formatCents,
  KEYCAP_CENTS_PER_SWITCH,
  PACK_BASE_CENTS,
  PACK_KEYCAPS_CENTS,
  packCents,
  premiumCents,
  STARTING_PRICE_CENTS,
  TESTER_BASE_CENTS,
  TESTER_KEYCAPS,
  TESTER_SIZES,
  toCents,
  toDollars,
} from "../../shared/pricing.ts";
import { computeTotals, STARTING_PRICE_TEXT } from "../../shared/policy.ts";

/** docs/product.md#prices, written out by hand so the constants themselves are checked. */
const BASE_BY_SIZE = { 10: 999, 15: 1449, 20: 1899 } as const;
const KEYCAP_BY_KIND = { none: 0, transparent: 40, random: 50 } as const;

Deno.test("pricing constants match docs/product.md#prices", () => {
  assert.deepEqual([...TESTER_SIZES], [10, 15, 20]);
  assert.deepEqual([...TESTER_KEYCAPS], ["none", "transparent", "random"]);
  assert.deepEqual(TESTER_BASE_CENTS, BASE_BY_SIZE);
  assert.deepEqual(KEYCAP_CENTS_PER_SWITCH, KEYCAP_BY_KIND);
  assert.equal(CUBE_BASE_CENTS, 1299);
  assert.equal(PACK_BASE_CENTS, 999);
  assert.equal(PACK_KEYCAPS_CENTS, 200);
  assert.equal(STARTING_PRICE_CENTS, 999);
  // Built from the cents now, so the words the home page and its description show are checked too.
  assert.equal(STARTING_PRICE_TEXT, "Starting at $9.99");
});

Deno.test("custom tester: every size x keycap with standard switches is base + keycaps", () => {
  const expected: Record<string, number> = {
    "10/none": 999,
    "10/transparent": 1399,
    "10/random": 1499,
    "15/none": 1449,
    "15/transparent": 2049,
    "15/random": 2199,
    "20/none": 1899,
    "20/transparent": 2699,
    "20/random": 2899,
  };
  for (const size of TESTER_SIZES) {
    for (const keycaps of TESTER_KEYCAPS) {
      const extras = new Array(size).fill(0);
      const cents = customTesterCents(size, keycaps, extras);
      assert.equal(cents, expected[`${size}/${keycaps}`], `${size}/${keycaps}`);
      assert.equal(cents, BASE_BY_SIZE[size] + KEYCAP_BY_KIND[keycaps] * size);
      assert.ok(Number.isInteger(cents));
    }
  }
});

Deno.test("custom tester: extras add up whether positive, zero or negative", () => {
  for (const size of TESTER_SIZES) {
    for (const keycaps of TESTER_KEYCAPS) {
      const base = BASE_BY_SIZE[size] + KEYCAP_BY_KIND[keycaps] * size;
      const zero = new Array(size).fill(0);
      const positive = new Array(size).fill(0).map((_, i) => (i % 3 === 0 ? 35 : 10));
      const negative = new Array(size).fill(-5);
      const mixed = new Array(size).fill(0).map((_, i) => (i % 2 === 0 ? 45 : -10));
      const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      assert.equal(customTesterCents(size, keycaps, zero), base);
      assert.equal(customTesterCents(size, keycaps, positive), base + total(positive));
      assert.equal(customTesterCents(size, keycaps, negative), base - 5 * size);
      assert.equal(customTesterCents(size, keycaps, mixed), base + total(mixed));
    }
  }
});

Deno.test("custom tester: negative extras lower the price below the base", () => {
  const extras = [-10, -10, -5, 0, 0, 0, 0, 0, 0, 0];
  assert.equal(customTesterCents(10, "none", extras), 974);
  assert.equal(toDollars(customTesterCents(10, "none", extras)), 9.74);
});

Deno.test("custom tester: floating-point safe (10 transparent = 999 + 400 = 1399 exactly)", () => {
  // Adding $0.40 per switch to $9.99 in floating-point dollars drifts; in cents it is exact.
  let drifting = 9.99;
  for (let i = 0; i < 10; i++) drifting += 0.4;
  assert.notEqual(drifting, 13.99);
  assert.equal(customTesterCents(10, "transparent", new Array(10).fill(0)), 1399);
  assert.equal(toDollars(1399), 13.99);
  assert.notEqual(14.49 + 15 * 0.4, 20.49);
  assert.equal(toDollars(customTesterCents(15, "transparent", new Array(15).fill(0))), 20.49);
  // 0.1 + 0.2-style sums of extras stay exact too.
  const extras = [10, 20, 10, 20, 10, 20, 10, 20, 10, 20];
  assert.equal(customTesterCents(10, "none", extras), 1149);
  assert.equal(toDollars(customTesterCents(10, "none", extras)), 11.49);
  assert.equal(customTesterCents(15, "random", new Array(15).fill(15)), 1449 + 750 + 225);
});

Deno.test("cube: base $12.99 + extras, positive, zero and negative", () => {
  assert.equal(cubeCents([0, 0, 0, 0, 0, 0]), 1299);
  assert.equal(cubeCents([35, 10, 0, 0, 0, 0]), 1344);
  assert.equal(cubeCents([-5, -10, 0, 0, 0, 0]), 1284);
  assert.equal(cubeCents([45, -10, 20, 0, -5, 15]), 1299 + 65);
  assert.equal(toDollars(cubeCents([45, -10, 20, 0, -5, 15])), 13.64);
});

Deno.test("packs: $9.99 without keycaps, +$2.00 with them", () => {
  assert.equal(packCents(false), 999);
  assert.equal(packCents(true), 1199);
  assert.equal(packCents(true) - packCents(false), 200);
  assert.equal(packCents(false, 1499), 1499);
  assert.equal(packCents(true, 1499), 1699);
});

Deno.test("premium is the sum of extras", () => {
  assert.equal(premiumCents([]), 0);
  assert.equal(premiumCents([35, -5, 0, 10]), 40);
  assert.equal(premiumCents([-5, -10]), -15);
});

Deno.test("toDollars: two decimals as a number", () => {
  assert.equal(toDollars(999), 9.99);
  assert.equal(toDollars(1399), 13.99);
  assert.equal(toDollars(0), 0);
  assert.equal(toDollars(-10), -0.1);
  assert.equal(toDollars(123456), 1234.56);
  assert.equal(toDollars(1), 0.01);
  assert.equal(toDollars(1449), 14.49);
  // Rounds stray fractions of a cent.
  assert.equal(toDollars(999.4), 9.99);
  assert.equal(toDollars(999.6), 10);
});

Deno.test("toCents: dollars with two decimals become exact cents", () => {
  assert.equal(toCents(9.99), 999);
  assert.equal(toCents(14.49), 1449);
  assert.equal(toCents(18.99), 1899);
  assert.equal(toCents(0.29), 29); // 0.29 * 100 = 28.999999999999996
  assert.equal(toCents(1.15), 115); // 1.15 * 100 = 114.99999999999999
  assert.equal(toCents(19.99), 1999);
  assert.equal(toCents(0.07), 7);
  assert.equal(toCents(-0.1), -10);
  assert.equal(toCents(0), 0);
  assert.equal(toCents(1234.56), 123456);
});

Deno.test("toCents and toDollars round-trip every cent amount up to $100", () => {
  for (let cents = -1000; cents <= 10000; cents++) {
    assert.equal(toCents(toDollars(cents)), cents);
  }
});

Deno.test("formatCents: as shoppers read money", () => {
  assert.equal(formatCents(999), "$9.99");
  assert.equal(formatCents(-10), "-$0.10");
  assert.equal(formatCents(123456), "$1,234.56");
  assert.equal(formatCents(0), "$0.00");
  assert.equal(formatCents(5), "$0.05");
  assert.equal(formatCents(100), "$1.00");
  assert.equal(formatCents(1399), "$13.99");
  assert.equal(formatCents(-123456), "-$1,234.56");
  assert.equal(formatCents(100000000), "$1,000,000.00");
});

Deno.test("formatCents: fractions of a cent round, and never show -$0.00", () => {
  assert.equal(formatCents(999.4), "$9.99");
  assert.equal(formatCents(999.5), "$10.00");
  assert.equal(formatCents(-0), "$0.00");
  assert.equal(formatCents(-0.4), "$0.00");
  assert.equal(formatCents(-0.6), "-$0.01");
});

Deno.test("the 10% tax estimate is for US orders only; exports carry none", () => {
  const us = computeTotals(2000, "us", 10);
  assert.deepEqual([us.discountCents, us.taxCents], [200, 180]);
  assert.equal(us.totalCents, 1800 + us.shippingCents + 180);
  const abroad = computeTotals(2000, "international", 10);
  assert.equal(abroad.taxCents, 0);
  assert.equal(abroad.totalCents, 1800 + abroad.shippingCents);
});
