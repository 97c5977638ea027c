import { type StockKey, switchIdOf } from "../../shared/bom.ts";
import { getSwitches } from "../catalog/store.ts";

const COMPONENT_NAMES: Record<string, string> = {
  SMALL_BOX: "Small tester box",
  LARGE_BOX: "Large tester box",
  TRANSPARENT_KEYCAP: "Transparent keycaps",
  RANDOM_KEYCAP: "Random keycaps",
  CUBE_BODY: "Fidget cube body",
};

/** Human names of stock keys: "Gateron Oil King", "Small tester box". */
export async function stockKeyNames(
  kv: Deno.Kv,
  stockKeys: readonly StockKey[],
): Promise<Map<StockKey, string>> {
  const switchKeys = stockKeys.filter((k) => switchIdOf(k) !== null);
  const switches = await getSwitches(kv, switchKeys.map((k) => switchIdOf(k)!)).catch(() => []);
  const names = new Map<StockKey, string>();
  switches.forEach((s, i) => names.set(switchKeys[i], `${s.brand} ${s.name}`));
  for (const key of stockKeys) if (!names.has(key)) names.set(key, COMPONENT_NAMES[key] ?? key);
  return names;
}

/** "Gateron Oil King (2 left), Small tester box (0 left)". */
export async function describeShortages(
  kv: Deno.Kv,
  short: Map<StockKey, number>,
): Promise<string> {
  const names = await stockKeyNames(kv, [...short.keys()]);
  return [...short].map(([key, have]) => `${names.get(key)} (${have} left)`).join(", ");
}
