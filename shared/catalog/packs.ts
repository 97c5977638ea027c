import { SWITCHES } from "./switches.ts";
import type { PackData } from "./types.ts";
import { PACK_INFO } from "./pack_info.ts";

/** Looks a switch up by brand and name, so a typo in a pack fails loudly at import time. */
function idOf(brand: string, name: string): number {
  const found = SWITCHES.find((s) => s.brand === brand && s.name === name);
  if (!found) throw new Error(`Unknown switch in pack: ${brand} ${name}`);
  return found.id;
}

/** The ten switches of each pack, by slug. */
const CONTENTS: Record<string, number[]> = {
  "starter-pack": [
    idOf("Outemu", "Lemon v3"),
    idOf("HMX", "Pea Flower"),
    idOf("Huano", "Gift"),
    idOf("Drop x Invyr", "Holy Panda"),
    idOf("Akko", "Sakura"),
    idOf("Akko", "Cream Blue"),
    idOf("Huano", "Light Sakura"),
    idOf("TTC", "Flash"),
    idOf("Tecsee", "Violet Golden"),
    idOf("Haimu", "Whale"),
  ],
  "popular": [
    idOf("Gateron", "Oil King"),
    idOf("Gateron", "Ink Black V2"),
    idOf("Gateron", "Milky Yellow"),
    idOf("Cherry", "MX Red"),
    idOf("Cherry", "MX Brown"),
    idOf("NovelKeys x Kailh", "Cream"),
    idOf("NovelKeys x Kailh", "Box Jade"),
    idOf("Drop x Invyr", "Holy Panda"),
    idOf("Gazzew", "Boba U4T"),
    idOf("Durock", "T1"),
  ],
  "unique": [
    idOf("Kailh", "Choc Red"),
    idOf("ZealPC", "Clickiez"),
    idOf("NovelKeys x Kailh", "Box Navy"),
    idOf("Cherry", "MX Linear Grey"),
    idOf("Gateron", "Baby Kangaroo"),
    idOf("Gateron", "CJ"),
    idOf("Durock", "Shrimp"),
    idOf("C³Equalz x TKC", "Kiwi"),
    idOf("Input Club x Kailh", "Hako Violet"),
    idOf("Everglide", "Oreo"),
  ],
  "linear": [
    idOf("C³Equalz x TKC", "Tangerine"),
    idOf("ZealPC", "Tealios V2"),
    idOf("PrimeKB x JWK", "Alpaca V2"),
    idOf("NovelKeys x Kailh", "Cream"),
    idOf("Gateron", "Oil King"),
    idOf("Gateron", "Ink Black V2"),
    idOf("KTT", "Kang White"),
    idOf("Everglide", "Aqua King"),
    idOf("Akko", "Cream Yellow"),
    idOf("Gazzew", "Boba LT"),
  ],
  "tactile": [
    idOf("ZealPC", "Zealios V2"),
    idOf("Drop x Invyr", "Holy Panda"),
    idOf("Gazzew", "Boba U4T"),
    idOf("Durock", "T1"),
    idOf("C³Equalz x TKC", "Kiwi"),
    idOf("Drop x Input Club", "Halo True"),
    idOf("NovelKeys x Kailh", "Sherbet"),
    idOf("Durock", "Koala"),
    idOf("Tecsee", "Purple Panda"),
    idOf("Gateron", "Quinn"),
  ],
  "aesthetic": [
    idOf("C³Equalz x TKC", "Dragon Fruit"),
    idOf("ZealPC", "Roselios V2"),
    idOf("KTT", "Strawberry"),
    idOf("KTT", "Hyacinth"),
    idOf("Everglide", "Crystal Purple"),
    idOf("Tecsee", "Sapphire"),
    idOf("Tecsee", "Ruby"),
    idOf("Leobog", "Ice Vein"),
    idOf("TTC", "Gold Pink"),
    idOf("Akko", "Matcha Green"),
  ],
};

/** The themed tester packs with their switches, in the order the shop lists them. */
export const PACKS: readonly PackData[] = PACK_INFO.map((info) => ({
  ...info,
  switchIds: CONTENTS[info.slug],
}));
