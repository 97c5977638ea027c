import { addBom, type Bom, shortages, type StockKey } from "../../shared/bom.ts";
import { toDollars } from "../../shared/pricing.ts";
import {
  cubeImageName,
  cubeImageUrl,
  itemImageUrl,
  productImageUrl,
  switchImageUrl,
} from "../../shared/images.ts";
import type { CartView, LineSwitch, PricedItem } from "../../shared/api_types.ts";
import type { CartReads, CartRecord } from "./store.ts";
import type { CartLine } from "./rules.ts";
import { readsFor } from "./store.ts";
import { lineBom, lineUnitCents, unsoldReason } from "./rules.ts";
import { type ProductRecord, productSnapshot, type SwitchRecord } from "../catalog/store.ts";
import { keys } from "../kv/keys.ts";
import { getManyBatched } from "../kv/kv_util.ts";
import { freeUnits } from "../stock/store.ts";
import { stockKeyNames } from "../stock/names.ts";

export type { CartView, LineSwitch, PricedItem };

/** One priced line with its quantity. */
export interface PricedLine {
  item: PricedItem;
  quantity: number;
  lineTotalCents: number;
  bom: Bom;
}

const LINE_NAMES = { custom: "Custom Switch Tester", cube: "Custom Fidget Cube" } as const;

/**
 * Prices every line of a cart from the catalogue in KV. `known` holds records this request
 * already read (an add), which are not read again. Lines still sold are marked available;
 * `markAvailability` checks them against stock for a view.
 */
export async function priceLines(
  kv: Deno.Kv,
  lines: readonly CartLine[],
  imageBase: string,
  known?: CartReads,
): Promise<PricedLine[]> {
  const switchIds = [...new Set(lines.flatMap((l) => (l.kind === "product" ? [] : l.switchIds)))]
    .filter((id) => !known?.switches.has(id));
  const productIds = [
    ...new Set(lines.flatMap((l) => (l.kind === "product" ? [l.productId] : []))),
  ].filter((id) => !known?.products.has(id));
  // Products come from the catalogue snapshot when it is current (no read at all), else by key.
  const snapshot = productIds.length > 0 ? await productSnapshot.peek(kv) : null;
  const [switchEntries, productEntries] = await Promise.all([
    getManyBatched<SwitchRecord>(kv, switchIds.map((id) => keys.switch(id))),
    snapshot
      ? productIds.map((id) => ({ value: snapshot.get(id) ?? null }))
      : getManyBatched<ProductRecord>(kv, productIds.map((id) => keys.product(id))),
  ]);
  const switches = new Map<number, SwitchRecord>(known?.switches);
  for (const e of switchEntries) if (e.value) switches.set(e.value.id, e.value);
  const products = new Map<number, ProductRecord>(known?.products);
  for (const e of productEntries) if (e.value) products.set(e.value.id, e.value);

  const result: PricedLine[] = [];
  for (const line of lines) {
    const item = priceItem(line, switches, products, imageBase);
    // A line whose product or switch left the catalogue is dropped from view rather than sold.
    if (!item) continue;
    const product = line.kind === "product" ? products.get(line.productId)! : null;
    result.push({
      item: { ...item, available: item.unavailableReason === null, shortStock: [] },
      quantity: line.quantity,
      lineTotalCents: item.priceCents * line.quantity,
      bom: lineBom(line, product),
    });
  }
  return result;
}

/**
 * Marks each priced line available or not, from the cart's own stock entries. Advisory: a
 * checkout's reservation checks each entry itself, and skips this.
 */
async function markAvailability(
  kv: Deno.Kv,
  lines: PricedLine[],
  known?: Map<StockKey, number>,
): Promise<PricedLine[]> {
  const keysOfLines = [...new Set(lines.flatMap((l) => [...l.bom.keys()]))];
  const read = await freeUnits(kv, keysOfLines.filter((k) => !known?.has(k)));
  const counts = new Map([...(known ?? []), ...read]);
  const shortOf = new Map<PricedLine, Map<StockKey, number>>();
  for (const line of lines) {
    if (line.item.unavailableReason !== null) {
      line.item.available = false;
      continue;
    }
    const lineNeed = addBom(new Map(), line.bom, line.quantity);
    const short = shortages(lineNeed, (k) => counts.get(k) ?? 0);
    line.item.available = short.size === 0;
    if (short.size > 0) shortOf.set(line, short);
  }
  if (shortOf.size === 0) return lines;
  // Names are read only when something is short, so a cart that stock covers costs no read.
  const names = await stockKeyNames(kv, [
    ...new Set([...shortOf.values()].flatMap((s) => [...s.keys()])),
  ]);
  for (const [line, short] of shortOf) {
    line.item.shortStock = [...short].map(([key, free]) => ({
      name: names.get(key) ?? key,
      available: Math.max(0, free),
      needed: (line.bom.get(key) ?? 0) * line.quantity,
    }));
  }
  return lines;
}

function priceItem(
  line: CartLine,
  switches: Map<number, SwitchRecord>,
  products: Map<number, ProductRecord>,
  imageBase: string,
): Omit<PricedItem, "available" | "shortStock"> | null {
  if (line.kind === "product") {
    const product = products.get(line.productId);
    if (!product) return null;
    return {
      id: line.lineId,
      kind: "product",
      productId: product.id,
      name: product.name,
      price: toDollars(product.priceCents),
      priceCents: product.priceCents,
      image: product.image,
      imageUrl: productImageUrl(imageBase, product),
      size: null,
      keycaps: product.packSlug ? (product.withKeycaps ? "transparent" : "none") : null,
      bodyColor: null,
      switches: [],
      priceChangedFrom: changedFrom(line, product.priceCents),
      unavailableReason: unsoldReason(product, []),
    };
  }
  const chosen = line.switchIds.map((id) => switches.get(id));
  if (chosen.some((s) => !s)) return null;
  const list = chosen as SwitchRecord[];
  const priceCents = lineUnitCents(line, null, list);
  return {
    id: line.lineId,
    kind: line.kind,
    productId: null,
    name: LINE_NAMES[line.kind],
    price: toDollars(priceCents),
    priceCents,
    image: line.kind === "cube" ? cubeImageName(line.keycaps, line.bodyColor) : "custom-tester",
    imageUrl: line.kind === "cube"
      ? cubeImageUrl(imageBase, line.keycaps, line.bodyColor)
      : itemImageUrl(imageBase, "custom-tester"),
    size: line.kind === "custom" ? line.size : line.switchIds.length,
    keycaps: line.keycaps,
    bodyColor: line.bodyColor,
    switches: list.map((s) => ({
      id: s.id,
      name: s.name,
      brand: s.brand,
      image: s.image,
      imageUrl: switchImageUrl(imageBase, s.image, s.upload),
      extraPrice: toDollars(s.extraPriceCents),
      quantity: 1 as const,
    })),
    priceChangedFrom: changedFrom(line, priceCents),
    unavailableReason: unsoldReason(null, list),
  };
}

/** Dollars one unit cost when the line was added, when that differs from its price now. */
function changedFrom(line: CartLine, priceCents: number): number | null {
  const before = line.addedPriceCents;
  return before !== undefined && before !== priceCents ? toDollars(before) : null;
}

/** What priced lines cost together, before shipping, tax and discounts. */
export function subtotalOf(lines: readonly PricedLine[]): number {
  return lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
}

/** Prices a cart for the API. */
export async function viewCart(
  kv: Deno.Kv,
  cart: CartRecord,
  imageBase: string,
): Promise<CartView> {
  const reads = readsFor(cart);
  const lines = await markAvailability(
    kv,
    await priceLines(kv, cart.lines, imageBase, reads),
    reads?.free,
  );
  const subtotalCents = subtotalOf(lines);
  return {
    id: cart.id,
    items: lines.map((l) => ({ item: l.item, quantity: l.quantity })),
    subtotal: toDollars(subtotalCents),
    subtotalCents,
    itemCount: lines.reduce((sum, l) => sum + l.quantity, 0),
    lineCount: lines.length,
  };
}
