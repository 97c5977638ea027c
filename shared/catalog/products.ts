import type { BomSubject, Component } from "../bom.ts";
import { packCents } from "../pricing.ts";
import { ITEMS } from "./items.ts";
import { PACKS } from "./packs.ts";

/** A product sold by id as it is: a pack (with or without keycaps) or an item. */
export interface ProductData {
  id: number;
  name: string;
  /** Price when the shop is first seeded; the owner may change it later in KV. */
  priceCents: number;
  image: string;
  /** Where the product's page is, if it has one. */
  path: string | null;
  /** What one unit consumes, by switch ids. */
  bom: BomSubject;
  /** The pack this product belongs to, for packs. */
  packSlug: string | null;
  withKeycaps: boolean;
  /** Whether it can be bought: the owner takes a pack or item off sale without deleting it. */
  onSale: boolean;
}

/** Every product sellable by id (packs both ways, and the items). */
export const PRODUCTS: readonly ProductData[] = [
  ...PACKS.flatMap((pack) =>
    [false, true].map((withKeycaps): ProductData => ({
      id: withKeycaps ? pack.idWithKeycaps : pack.id,
      name: withKeycaps ? `${pack.title} with transparent keycaps` : pack.title,
      priceCents: packCents(withKeycaps),
      image: pack.image,
      path: `/testers/${pack.slug}`,
      bom: { kind: "pack", switchIds: pack.switchIds, withKeycaps },
      packSlug: pack.slug,
      withKeycaps,
      onSale: true,
    }))
  ),
  ...ITEMS.map((item): ProductData => ({
    id: item.id,
    name: item.name,
    priceCents: item.priceCents,
    image: item.image,
    path: "/shop",
    bom: item.bom,
    packSlug: null,
    withKeycaps: false,
    onSale: true,
  })),
];

/** Initial stock of the non-switch components. */
export const INITIAL_COMPONENT_STOCK: Record<Component, number> = {
  SMALL_BOX: 250,
  LARGE_BOX: 150,
  TRANSPARENT_KEYCAP: 4000,
  RANDOM_KEYCAP: 500,
  CUBE_BODY: 60,
};
