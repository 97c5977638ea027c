/**
 * The stock shortage a checkout start can answer with (HTTP 409 with `insufficientStock`), and
 * its message. Both the cart's hosted checkout buttons and /checkout show it, so it lives here.
 */
import { ApiError } from "./api.ts";

/** Available quantity by the name of each short line. */
export type ShortStock = Record<string, number>;

/**
 * 'Insufficient stock for: Gateron Yellow (2 available), ...' (docs/product.md#checkout-messages).
 */
export function insufficientStockMessage(short: ShortStock): string {
  const parts = Object.entries(short).map(([name, n]) => `${name} (${n} available)`);
  return `Insufficient stock for: ${parts.join(", ")}`;
}

/** The stock shortage carried by a 409 answer, if that is what the error is. */
export function shortStockOf(err: unknown): ShortStock | null {
  if (!(err instanceof ApiError) || err.status !== 409) return null;
  const body = err.body as { insufficientStock?: ShortStock } | null;
  return body?.insufficientStock ?? null;
}
