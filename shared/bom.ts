/**
 * The bill of materials: which stock components each sellable thing consumes
 * (docs/decisions.md#stock-per-component). Checkout reserves exactly these, and availability
 * answers from the same rules.
 */
import type { CubeKeycaps, TesterKeycaps, TesterSize } from "./pricing.ts";

/** Components that are not switches. */
export const COMPONENTS = [
  "SMALL_BOX",
  "LARGE_BOX",
  "TRANSPARENT_KEYCAP",
  "RANDOM_KEYCAP",
  "CUBE_BODY",
] as const;
export type Component = typeof COMPONENTS[number];

/** A stock key: a component name, or `switch:<id>` for a switch. */
export type StockKey = Component | `switch:${number}`;

/** The stock key of a switch. */
export function switchKey(id: number): StockKey {
  return `switch:${id}`;
}

/** The switch id of a stock key, or null for other components. */
export function switchIdOf(key: StockKey): number | null {
  return key.startsWith("switch:") ? Number(key.slice(7)) : null;
}

/** Amounts per stock key. */
export type Bom = Map<StockKey, number>;

function add(bom: Bom, key: StockKey, amount: number): void {
  bom.set(key, (bom.get(key) ?? 0) + amount);
}

/** Something sellable, described by what it is made of. */
export type BomSubject =
  | { kind: "pack"; switchIds: readonly number[]; withKeycaps: boolean }
  | { kind: "custom"; size: TesterSize; keycaps: TesterKeycaps; switchIds: readonly number[] }
  | { kind: "cube"; keycaps: CubeKeycaps; switchIds: readonly number[] }
  | { kind: "layout-tester" }
  | { kind: "cube-case" };

/** The components one unit consumes. */
export function bomOf(subject: BomSubject): Bom {
  const bom: Bom = new Map();
  switch (subject.kind) {
    case "pack":
      for (const id of subject.switchIds) add(bom, switchKey(id), 1);
      add(bom, "SMALL_BOX", 1);
      if (subject.withKeycaps) add(bom, "TRANSPARENT_KEYCAP", subject.switchIds.length);
      break;
    case "custom":
      for (const id of subject.switchIds) add(bom, switchKey(id), 1);
      add(bom, subject.size === 10 ? "SMALL_BOX" : "LARGE_BOX", 1);
      if (subject.keycaps === "transparent") add(bom, "TRANSPARENT_KEYCAP", subject.size);
      if (subject.keycaps === "random") add(bom, "RANDOM_KEYCAP", subject.size);
      break;
    case "cube":
      for (const id of subject.switchIds) add(bom, switchKey(id), 1);
      add(bom, "CUBE_BODY", 1);
      break;
    case "layout-tester":
      add(bom, "SMALL_BOX", 1);
      break;
    case "cube-case":
      add(bom, "CUBE_BODY", 1);
      break;
  }
  return bom;
}

/** Adds `times` units of `bom` into `total`. */
export function addBom(total: Bom, bom: Bom, times = 1): Bom {
  for (const [key, amount] of bom) add(total, key, amount * times);
  return total;
}

/** The keys of `need` whose stock is short, with what is in stock. */
export function shortages(need: Bom, stock: (key: StockKey) => number): Map<StockKey, number> {
  const short = new Map<StockKey, number>();
  for (const [key, amount] of need) {
    const have = stock(key);
    if (have < amount) short.set(key, have);
  }
  return short;
}

/** How many units of something can be made from stock (0 when anything is missing). */
export function unitsAvailable(bom: Bom, stock: (key: StockKey) => number): number {
  let units = Infinity;
  for (const [key, amount] of bom) units = Math.min(units, Math.floor(stock(key) / amount));
  return Number.isFinite(units) ? Math.max(0, units) : 0;
}
