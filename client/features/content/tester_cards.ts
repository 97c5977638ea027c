/*
 * The home page's tester carousel cards. The home page is the first page most shoppers download,
 * so this imports only small modules: the packs are first drawn from PACK_INFO, never PACKS,
 * which would pull the whole switch catalogue (about 35 KB) into the page's chunk; the owner's
 * titles, descriptions and prices then come from GET /api/packs.
 */
import type { PackView } from "../../../shared/api_types.ts";
import { PACK_INFO } from "../../../shared/catalog/pack_info.ts";
import { formatCents, PACK_BASE_CENTS, TESTER_BASE_CENTS } from "../../../shared/pricing.ts";

/** One card of the tester carousel. */
export interface TesterCard {
  path: string;
  title: string;
  blurb: string;
  price: string;
  /** Pack image base name; null for the custom tester, which has a drawn illustration instead. */
  image: string | null;
  /** The server's URL of the pack's image (an uploaded one, if any), once GET /api/packs answered. */
  imageUrl?: string;
}

/** The carousel's one-line pitch per pack slug; the pack descriptions are too long for a card. */
const PACK_BLURBS: Readonly<Record<string, string>> = {
  "starter-pack": "Ten hand-picked switches to find out what you like.",
  "popular": "The switches everyone talks about, side by side.",
  "unique": "Low-profile, clicky, heavy and silent oddities.",
  "linear": "Ten of the smoothest linears, light to thocky.",
  "tactile": "From gentle rounded bumps to sharp ones.",
  "aesthetic": "Candy colours and housings that glow under RGB.",
};

/** The custom tester's card, first in the carousel. */
const CUSTOM_CARD: TesterCard = {
  path: "/testers/custom",
  title: "Custom Switch Tester",
  blurb: "Pick 10, 15 or 20 switches yourself from the whole catalogue.",
  price: `From ${formatCents(TESTER_BASE_CENTS[10])}`,
  image: null,
};

/**
 * The carousel's cards: the custom tester, then each pack on sale. Until GET /api/packs answers
 * (or when it fails) the seeded packs at the base price are shown; then the owner's titles and
 * prices. The short blurb stands for the seeded description; once the owner rewrites a
 * description, the card shows the owner's words.
 */
export function testerCards(packs: readonly PackView[] | null): TesterCard[] {
  const shown: {
    slug: string;
    title: string;
    description: string;
    image: string;
    imageUrl?: string;
    priceCents: number;
  }[] = packs
    ? packs.filter((p) => p.onSale).map((p) => ({ ...p, priceCents: p.basePriceCents }))
    : PACK_INFO.map((p) => ({ ...p, priceCents: PACK_BASE_CENTS }));
  return [
    CUSTOM_CARD,
    ...shown.map((pack) => {
      const seeded = PACK_INFO.find((p) => p.slug === pack.slug);
      const blurb = PACK_BLURBS[pack.slug];
      return {
        path: `/testers/${pack.slug}`,
        title: pack.title,
        // A pack added later still gets a card, with its full description until it has a blurb.
        blurb: blurb && seeded?.description === pack.description ? blurb : pack.description,
        price: formatCents(pack.priceCents),
        image: pack.image,
        imageUrl: pack.imageUrl,
      };
    }),
  ];
}
