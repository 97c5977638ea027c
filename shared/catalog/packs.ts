import { SWITCHES } from "./switches.ts";
import type { PackData } from "./types.ts";

/** Looks a switch up by brand and name, so a typo in a pack fails loudly at import time. */
function idOf(brand: string, name: string): number {
  const found = SWITCHES.find((s) => s.brand === brand && s.name === name);
  if (!found) throw new Error(`Unknown switch in pack: ${brand} ${name}`);
  return found.id;
}

/** The themed tester packs, in the order the shop lists them. */
export const PACKS: readonly PackData[] = [
  {
    id: 384,
    idWithKeycaps: 385,
    slug: "starter-pack",
    title: "Starter Pack",
    description:
      "Not sure where to begin? Ten hand-picked switches, from smooth linears to snappy tactiles, show you what you like before you buy a full set.",
    image: "pack-starter",
    switchIds: [
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
  },
  {
    id: 380,
    idWithKeycaps: 381,
    slug: "popular",
    title: "Popular Pack",
    description:
      "The switches everyone talks about, side by side. Feel the hype for yourself: Oil Kings, Holy Pandas, NK Creams and more.",
    image: "pack-popular",
    switchIds: [
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
  },
  {
    id: 31,
    idWithKeycaps: 42,
    slug: "unique",
    title: "Unique Kit",
    description:
      "For the curious: low-profile Chocs, thick click bars, heavy linears and whisper-quiet silents. Ten switches that feel like nothing else on your desk.",
    image: "pack-unique",
    switchIds: [
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
  },
  {
    id: 386,
    idWithKeycaps: 387,
    slug: "linear",
    title: "Linear Collection",
    description:
      "Ten of the smoothest linears around, from light and fast to deep and thocky. Find the spring weight and sound that suit you.",
    image: "pack-linear",
    switchIds: [
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
  },
  {
    id: 382,
    idWithKeycaps: 383,
    slug: "tactile",
    title: "Tactile Collection",
    description:
      "From gentle rounded bumps to sharp, pronounced ones. Ten tactiles that show how different a bump can feel.",
    image: "pack-tactile",
    switchIds: [
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
  },
  {
    id: 33,
    idWithKeycaps: 43,
    slug: "aesthetic",
    title: "Aesthetic Pack",
    description:
      "Switches you will want to show off: vivid stems, candy colours and translucent housings that glow under RGB.",
    image: "pack-aesthetic",
    switchIds: [
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
  },
];
