/**
 * The line that takes a removed line's place, where the focus goes: the next one, else the one
 * before, else none (the cart is empty). `lines` are the line ids in the order shown.
 */
export function lineAfterRemoving(lines: readonly string[], removed: string): string | null {
  const at = lines.indexOf(removed);
  if (at < 0) return null;
  return lines[at + 1] ?? lines[at - 1] ?? null;
}
