/**
 * What the simulated shoppers buy: two packs that share a switch, a pack with keycaps, two items
 * and a custom tester from a small pool, so that carts compete for the same few shelves. Shelves
 * start small (the history's first counts), so sell-outs and low-stock falls happen often.
 */
import { type Component, type StockKey, switchKey } from "../../shared/bom.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { US_ADDRESS } from "../helpers/shop_fixtures.ts";
import { TEST_ADMIN_PASSWORD } from "../helpers/test_app.ts";

export const STARTER = PACKS.find((p) => p.slug === "starter-pack")!;
export const POPULAR = PACKS.find((p) => p.slug === "popular")!;

/** Products shoppers add by id: two packs, one with keycaps, the Layout Tester, the cube case. */
export const PLAY_PRODUCTS = [STARTER.id, STARTER.idWithKeycaps, POPULAR.id, 1, 2] as const;

/** Switches no pack holds: the owner may retire them; custom testers may hold them. */
export const LOOSE_SWITCHES = [103, 104, 105] as const;

/** What custom testers of 10 are picked from. */
export const TESTER_POOL = [...STARTER.switchIds, ...LOOSE_SWITCHES];

/** Switches whose shelves the history counts and watches. */
export const PLAY_SWITCHES = [
  ...new Set([...STARTER.switchIds, ...POPULAR.switchIds, ...LOOSE_SWITCHES]),
];

/** Components the products in play use. */
export const PLAY_COMPONENTS: Component[] = ["SMALL_BOX", "TRANSPARENT_KEYCAP", "CUBE_BODY"];

/** Every stock key in play. */
export const PLAY_KEYS: StockKey[] = [...PLAY_SWITCHES.map(switchKey), ...PLAY_COMPONENTS];

/** A switch's catalogue record, from the seed (the history never changes switch prices). */
export function switchData(id: number) {
  return SWITCHES.find((s) => s.id === id)!;
}

/** The ten switches a custom tester picks, from a number (bits choose which three to leave out). */
export function testerSwitches(pick: number): number[] {
  const left = new Set([pick % 13, (pick * 7 + 3) % 13, (pick * 11 + 5) % 13]);
  let extra = 0;
  while (left.size < 3) left.add((pick + ++extra) % 13);
  return TESTER_POOL.filter((_, i) => !left.has(i));
}

/** The test cards of the demo provider. */
export const GOOD_CARD = "4242424242424242";
export const DECLINED_CARD = "4000000000000002";

export const US = US_ADDRESS;
export const ABROAD = {
  street: "Unter den Linden 1",
  apartment: "",
  city: "Berlin",
  state: "",
  zipCode: "10117",
  country: "DE",
};

/** The owner's credentials on every admin request. */
export const ADMIN = { headers: { Authorization: `Bearer ${TEST_ADMIN_PASSWORD}` } };

/** The name of the staff API key a packing script uses in every history (the audit log's name). */
export const STAFF_KEY_NAME = "Packing script";

/** The packing script's credentials: the history's staff key. */
export function staffAuth(staffKey: string) {
  return { headers: { Authorization: `Bearer ${staffKey}` } };
}

/** A password that passes the sign-up rules. */
export const PASSWORD = "Simulated-1x";
