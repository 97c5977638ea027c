/** Types of the catalogue data that server and browser both read. Money is integer cents. */
import type { BomSubject } from "../bom.ts";

/** One real keyboard switch sold in testers. */
export interface SwitchData {
  /** Stable numeric id, unique across the catalogue (100-999). */
  id: number;
  name: string;
  /** Manufacturer; a collaboration joins brands with " x " (e.g. "Gateron x Keygeek"). */
  brand: string;
  /** One or more of tactile, linear, silent, clicky, space-separated (e.g. "silent linear"). */
  type: string;
  /** Actuation or bottom-out force as text containing a number in grams (e.g. "45g"). */
  force: string;
  /** Image base name, kebab-case, unique (e.g. "gateron-milky-yellow"). */
  image: string;
  /** Surcharge over the base tester price, in cents; may be negative or zero. */
  extraPriceCents: number;
  /** Where the shopper can buy a full set of this switch. */
  referralLink: string;
  /** Dominant stem/housing colour for the generated illustration, as #rrggbb. */
  color: string;
  /** Units in stock when the shop is first seeded. */
  initialStock: number;
}

/** A themed tester pack: ten switches in a small box, sold with or without keycaps. */
export interface PackData {
  /** Product id without keycaps. */
  id: number;
  /** Product id of the same pack with transparent keycaps. */
  idWithKeycaps: number;
  /** URL segment under /testers/. */
  slug: string;
  title: string;
  description: string;
  /** Image base name. */
  image: string;
  /** Exactly ten switch ids from the catalogue. */
  switchIds: number[];
}

/** A simple item sold as it is (no configuration). */
export interface ItemData {
  id: number;
  name: string;
  description: string;
  priceCents: number;
  image: string;
  /** What one unit consumes: data on the item, so a new item needs no rule in code. */
  bom: Extract<BomSubject, { kind: "layout-tester" | "cube-case" }>;
}
