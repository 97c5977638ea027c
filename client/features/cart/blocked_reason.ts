/**
 * What the checkout buttons say while the cart holds lines the shop no longer sells (each line
 * says its own reason): which lines, and that removing them lets the shopper check out. Null when
 * nothing blocks the checkout.
 */
export function blockedCheckoutReason(names: readonly string[]): string | null {
  if (names.length === 0) return null;
  const one = names.length === 1;
  const list = one ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `${list} ${one ? "is" : "are"} no longer available. Remove ${
    one ? "it" : "them"
  } to check out.`;
}
