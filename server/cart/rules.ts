/**
 * The cart's pure rules: what a line is and costs, what one unit of it consumes, why it cannot be
 * bought any more, and what a paid order leaves in the cart.
 */
import { type Bom, bomOf, type BomSubject } from "../../shared/bom.ts";
import {
  type BodyColor,
  CUBE_SIZE,
  cubeCents,
  type CubeKeycaps,
  customTesterCents,
  type TesterKeycaps,
  type TesterSize,
} from "../../shared/pricing.ts";
import { type ProductRecord, type SwitchRecord } from "../catalog/store.ts";
import type { DropTicketRef } from "../drops/purchase_rules.ts";

/** Most lines in a cart (most units of one line: MAX_LINE_QUANTITY in shared/policy.ts). */
export const MAX_CART_LINES = 30;

/** What a line is, without its id and quantity. */
export type LineSpec =
  | { kind: "product"; productId: number }
  | {
    kind: "custom";
    size: TesterSize;
    keycaps: TesterKeycaps;
    bodyColor: BodyColor;
    switchIds: number[];
  }
  | { kind: "cube"; keycaps: CubeKeycaps; bodyColor: BodyColor; switchIds: number[] };

/**
 * A line of a cart, as stored: what it is. What it costs is computed on every read; what it cost
 * when added is kept only to tell the shopper that the price changed since.
 */
export type CartLine = {
  lineId: string;
  quantity: number;
  /** Cents one unit cost when last added (absent on lines stored before it was kept). */
  addedPriceCents?: number;
  /**
   * The place in a drop's line it was added with (absent on lines that take no drop's units, and
   * on lines stored before drops): the checkout counts its units against that place.
   */
  dropTicket?: DropTicketRef;
} & LineSpec;

/** The id a line gets: the product id, or a digest of a configuration so equal ones merge. */
export function lineIdOf(spec: LineSpec): string {
  if (spec.kind === "product") return String(spec.productId);
  const config = [
    spec.kind,
    "size" in spec ? spec.size : CUBE_SIZE,
    spec.keycaps,
    spec.bodyColor,
    ...[...spec.switchIds].sort((a, b) => a - b),
  ].join(",");
  // FNV-1a: a stable short digest; collisions inside one cart are vanishingly unlikely.
  let hash = 0x811c9dc5;
  for (let i = 0; i < config.length; i++) {
    hash = Math.imul(hash ^ config.charCodeAt(i), 0x01000193) >>> 0;
  }
  return `${spec.kind}-${hash.toString(16).padStart(8, "0")}`;
}

/** What one unit of a line consumes. */
export function lineBom(spec: LineSpec, product: ProductRecord | null): Bom {
  const subject: BomSubject = spec.kind === "product"
    ? product!.bom
    : spec.kind === "custom"
    ? { kind: "custom", size: spec.size, keycaps: spec.keycaps, switchIds: spec.switchIds }
    : { kind: "cube", keycaps: spec.keycaps, switchIds: spec.switchIds };
  return bomOf(subject);
}

/** What one unit of a line costs now, from its catalogue records (switches in line order). */
export function lineUnitCents(
  spec: LineSpec,
  product: ProductRecord | null,
  switches: readonly SwitchRecord[],
): number {
  if (spec.kind === "product") return product!.priceCents;
  const extras = switches.map((s) => s.extraPriceCents);
  return spec.kind === "custom"
    ? customTesterCents(spec.size, spec.keycaps, extras)
    : cubeCents(extras);
}

/**
 * Why a configuration cannot be a line, before the catalogue is read: a switch chosen twice, or
 * not as many switches as the tester or the cube holds. Null for a product or a right shape.
 */
export function shapeProblem(spec: LineSpec): string | null {
  if (spec.kind === "product") return null;
  const expected = spec.kind === "custom" ? spec.size : CUBE_SIZE;
  const what = spec.kind === "custom" ? "a Custom Switch Tester" : "the Fidget Cube";
  if (new Set(spec.switchIds).size !== spec.switchIds.length) {
    return "Each switch can be chosen only once";
  }
  if (spec.switchIds.length !== expected) {
    return `Please select ${expected} switches for ${what}. You've selected ${spec.switchIds.length}.`;
  }
  return null;
}

/**
 * Why a line cannot be bought any more, for the shopper: its product was taken off sale, or a
 * switch it holds was retired. Null when everything in it is still sold.
 */
export function unsoldReason(
  product: ProductRecord | null,
  switches: readonly SwitchRecord[],
): string | null {
  if (product) return product.onSale ? null : `${product.name} is no longer sold.`;
  const names = switches.filter((s) => s.retired).map((s) => `${s.brand} ${s.name}`);
  if (names.length === 0) return null;
  const list = names.length === 1
    ? names[0]
    : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `${list} ${names.length === 1 ? "is" : "are"} no longer sold; choose another switch.`;
}

/**
 * The lines left once an order bought `bought` out of them: each bought line loses the units
 * bought (and goes when none are left); lines added, or units added, after the checkout began
 * stay for the next order.
 */
export function linesLeftAfter(
  lines: readonly CartLine[],
  bought: readonly { lineId: string; quantity: number }[],
): CartLine[] {
  const taken = new Map<string, number>();
  for (const { lineId, quantity } of bought) taken.set(lineId, (taken.get(lineId) ?? 0) + quantity);
  return lines.flatMap((line) => {
    const left = line.quantity - (taken.get(line.lineId) ?? 0);
    return left > 0 ? [{ ...line, quantity: left }] : [];
  });
}
