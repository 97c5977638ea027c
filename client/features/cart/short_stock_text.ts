import type { ShortPart } from "../../../shared/api_types.ts";

/**
 * What a cart line short of stock says: which switch or component is short, how many are left
 * and how many the line needs, so the shopper knows what to lower or swap rather than guess.
 */
export function shortStockText(parts: readonly ShortPart[]): string {
  if (parts.length === 0) return "Not enough stock for this quantity right now.";
  const clauses = parts.map((p) =>
    p.available === 0
      ? `${p.name} is sold out`
      : `only ${p.available} ${p.name} left, this line needs ${p.needed}`
  );
  const list = clauses.length === 1
    ? clauses[0]
    : `${clauses.slice(0, -1).join(", ")}, and ${clauses.at(-1)}`;
  return `Not enough stock: ${list}.`;
}
