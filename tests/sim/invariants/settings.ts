/**
 * The owner's settings read back as set, whatever sold since: prices of the products in play
 * (low-stock levels and promo limits are read back by the stock and promo invariants).
 */
import type { Model } from "../model.ts";
import type { View } from "../view.ts";
import { Violation } from "../world.ts";

export function checkSettings(model: Model, view: View): void {
  for (const [id, cents] of model.prices) {
    const product = view.products.get(id);
    if (product && product.priceCents !== cents) {
      throw new Violation(
        `product ${id} (${product.name}) costs ${product.priceCents} cents; the owner set ${cents}`,
      );
    }
  }
}
