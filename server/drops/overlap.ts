/**
 * Whether two drops would decide who may buy one product. A line counts toward the drop of each
 * switch it holds and the drop of its product (line_drops.ts), and a line of two drops cannot be
 * bought (gate.ts): a pack whose switch has a drop of its own, or which holds the switches of two
 * drops, would sell nothing while both last. A custom tester is no product: its shopper picks
 * switches from one drop at a time.
 */
import { bomOf, switchKey } from "../../shared/bom.ts";
import type { DropTarget } from "../../shared/drops.ts";
import type { ProductData } from "../../shared/catalog/products.ts";

/** A drop as this rule sees it. */
export interface DropScope {
  target: DropTarget;
  productIds: readonly number[];
}

/**
 * The products a drop decides who may buy: a pack's or an item's own, or every product whose bill
 * of materials holds the switch. Those off sale too: the owner may put one back on sale while both
 * drops last.
 */
export function gatedProducts<P extends ProductData>(
  drop: DropScope,
  products: readonly P[],
): P[] {
  if (drop.target.kind !== "switch") return products.filter((p) => drop.productIds.includes(p.id));
  const key = switchKey(drop.target.id);
  return products.filter((p) => bomOf(p.bom).has(key));
}

/** A product both drops would decide who may buy, or null when they share none. */
export function sharedProduct<P extends ProductData>(
  a: DropScope,
  b: DropScope,
  products: readonly P[],
): P | null {
  const ofA = new Set(gatedProducts(a, products).map((p) => p.id));
  return gatedProducts(b, products).find((p) => ofA.has(p.id)) ?? null;
}
