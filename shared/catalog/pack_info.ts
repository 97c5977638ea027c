import type { PackData } from "./types.ts";

/** What a pack is called and shows, without its contents: light enough for the home page. */
export type PackInfo = Omit<PackData, "switchIds">;

/** The themed tester packs, in the order the shop lists them. */
export const PACK_INFO: readonly PackInfo[] = [
  {
    id: 384,
    idWithKeycaps: 385,
    slug: "starter-pack",
    title: "Starter Pack",
    description:
      "Not sure where to begin? Ten hand-picked switches, from smooth linears to snappy tactiles, show you what you like before you buy a full set.",
    image: "pack-starter",
  },
  {
    id: 380,
    idWithKeycaps: 381,
    slug: "popular",
    title: "Popular Pack",
    description:
      "The switches everyone talks about, side by side. Feel the hype for yourself: Oil Kings, Holy Pandas, NK Creams and more.",
    image: "pack-popular",
  },
  {
    id: 31,
    idWithKeycaps: 42,
    slug: "unique",
    title: "Unique Kit",
    description:
      "For the curious: low-profile Chocs, thick click bars, heavy linears and whisper-quiet silents. Ten switches that feel like nothing else on your desk.",
    image: "pack-unique",
  },
  {
    id: 386,
    idWithKeycaps: 387,
    slug: "linear",
    title: "Linear Collection",
    description:
      "Ten of the smoothest linears around, from light and fast to deep and thocky. Find the spring weight and sound that suit you.",
    image: "pack-linear",
  },
  {
    id: 382,
    idWithKeycaps: 383,
    slug: "tactile",
    title: "Tactile Collection",
    description:
      "From gentle rounded bumps to sharp, pronounced ones. Ten tactiles that show how different a bump can feel.",
    image: "pack-tactile",
  },
  {
    id: 33,
    idWithKeycaps: 43,
    slug: "aesthetic",
    title: "Aesthetic Pack",
    description:
      "Switches you will want to show off: vivid stems, candy colours and translucent housings that glow under RGB.",
    image: "pack-aesthetic",
  },
];
