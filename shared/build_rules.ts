/**
 * What a configurator may offer given the stock: the same sentences in the configurator (a
 * disabled size, keycap option or cube colour says why) and in the API (an add the stock cannot
 * build is refused with that sentence). Counts are units a checkout could take now, less what
 * the shopper's own cart would use.
 */
import type { Component } from "./bom.ts";
import type { TesterKeycaps, TesterSize } from "./pricing.ts";

/** Units of each component, and of a switch by id, free for this build. */
export interface BuildStock {
  component(name: Component): number;
  switchUnits(id: number): number;
}

/** At or below this many units a switch card says "Only N left". */
export const FEW_LEFT = 5;

/** The box a tester of this size goes in. */
export function boxOf(size: TesterSize): Component {
  return size === 10 ? "SMALL_BOX" : "LARGE_BOX";
}

/** Why a tester of `size` cannot be built now (its box is out), or null. */
export function sizeProblem(size: TesterSize, stock: BuildStock, quantity = 1): string | null {
  if (stock.component(boxOf(size)) >= quantity) return null;
  return size === 10
    ? "No small tester boxes are left, so the 10-switch tester cannot be made right now."
    : `No large tester boxes are left, so the ${size}-switch tester cannot be made right now.`;
}

/** Why these keycaps cannot go on a tester of `size` now (fewer left than switches), or null. */
export function keycapProblem(
  keycaps: TesterKeycaps,
  size: TesterSize,
  stock: BuildStock,
  quantity = 1,
): string | null {
  if (keycaps === "none") return null;
  const left = stock.component(keycaps === "transparent" ? "TRANSPARENT_KEYCAP" : "RANDOM_KEYCAP");
  if (left >= size * quantity) return null;
  return `Only ${left} ${keycaps} keycaps are left, fewer than the ${
    size * quantity
  } this tester needs.`;
}

/** Why a fidget cube cannot be built now (no bodies; both colours print from one stock), or null. */
export function cubeBodyProblem(stock: BuildStock, quantity = 1): string | null {
  return stock.component("CUBE_BODY") >= quantity
    ? null
    : "No fidget cube bodies are left, so a cube cannot be made right now.";
}

/** The first reason a tester cannot be built from `stock`, or null. */
export function testerProblem(
  build: { size: TesterSize; keycaps: TesterKeycaps },
  stock: BuildStock,
  quantity = 1,
): string | null {
  return sizeProblem(build.size, stock, quantity) ??
    keycapProblem(build.keycaps, build.size, stock, quantity);
}

/** "Only 2 left" at FEW_LEFT or fewer, "Out of stock" at none, else null. */
export function switchStockNote(left: number): string | null {
  if (left <= 0) return "Out of stock";
  return left <= FEW_LEFT ? `Only ${left} left` : null;
}
