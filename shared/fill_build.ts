/**
 * "Fill the rest": picks switches for a build's empty slots from the candidates the shopper's
 * filters show, favouring variety: a brand and a type not yet in the build first, then the rest in
 * the order given. Deterministic, so the same page state always fills the same way.
 */

/** What the fill looks at in a switch. */
export interface FillCandidate {
  id: number;
  brand: string;
  type: string;
  available: boolean;
}

/** Ids to add (at most `slots`), never one already chosen or unavailable. */
export function fillBuild(
  candidates: readonly FillCandidate[],
  chosen: readonly FillCandidate[],
  slots: number,
): number[] {
  const taken = new Set(chosen.map((c) => c.id));
  const brands = new Map<string, number>();
  const types = new Map<string, number>();
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const c of chosen) {
    count(brands, c.brand);
    count(types, c.type);
  }
  const pool = candidates.filter((c) => c.available && !taken.has(c.id));
  const picked: number[] = [];
  while (picked.length < slots && pool.length > 0) {
    // The candidate whose brand and type are least represented so far; the first wins a tie.
    let best = 0;
    let bestScore = Infinity;
    pool.forEach((c, i) => {
      const score = (brands.get(c.brand) ?? 0) * 2 + (types.get(c.type) ?? 0);
      if (score < bestScore) {
        best = i;
        bestScore = score;
      }
    });
    const [next] = pool.splice(best, 1);
    picked.push(next.id);
    count(brands, next.brand);
    count(types, next.type);
  }
  return picked;
}
