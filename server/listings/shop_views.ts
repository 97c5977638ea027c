/**
 * The catalogue as shoppers see it: what is offered, each with whether it can be bought now. The
 * flags come from the stock snapshot (advisory: a checkout checks each entry itself).
 */
import { type Bom, bomOf, type StockKey, switchKey, unitsAvailable } from "../../shared/bom.ts";
import { productImageUrl, uploadedImageUrl } from "../../shared/images.ts";
import { toDollars } from "../../shared/pricing.ts";
import type { ProductView, SwitchView } from "../../shared/api_types.ts";
import { NotFound } from "../errors.ts";
import { listProducts, listSwitches, productSnapshot } from "../catalog/store.ts";
import { stockSnapshot } from "../stock/store.ts";

/** Whether one unit of something can be made from current stock. */
function isAvailable(counts: ReadonlyMap<StockKey, number>, bom: Bom): boolean {
  return unitsAvailable(bom, (k) => counts.get(k) ?? 0) > 0;
}

/** Every switch still offered, with whether it is in stock. */
export async function shopSwitches(kv: Deno.Kv): Promise<SwitchView[]> {
  const [switches, stock] = await Promise.all([listSwitches(kv), stockSnapshot(kv)]);
  // Retired switches are no longer offered; orders and carts still find them by id.
  return switches.filter((s) => !s.retired).map((s) => ({
    id: s.id,
    name: s.name,
    brand: s.brand,
    type: s.type,
    force: s.force,
    image: s.image,
    available: (stock.get(switchKey(s.id)) ?? 0) > 0,
    extraPrice: toDollars(s.extraPriceCents),
    referralLink: s.referralLink,
    // Only an upload cannot be derived from `image`, so only it costs bytes in this list.
    ...(s.upload ? { imageUrl: uploadedImageUrl(s.upload) } : {}),
  } satisfies SwitchView));
}

/** Every product on sale, with whether one can be made from stock. */
export async function shopProducts(kv: Deno.Kv, imageBase: string): Promise<ProductView[]> {
  const [products, stock] = await Promise.all([listProducts(kv), stockSnapshot(kv)]);
  const onSale = products.filter((p) => p.onSale).sort((a, b) => a.id - b.id);
  return onSale.map((p): ProductView => ({
    id: p.id,
    name: p.name,
    price: toDollars(p.priceCents),
    priceCents: p.priceCents,
    image: p.image,
    imageUrl: productImageUrl(imageBase, p),
    path: p.path,
    packSlug: p.packSlug,
    withKeycaps: p.withKeycaps,
    available: isAvailable(stock, bomOf(p.bom)),
    onSale: p.onSale,
  }));
}

/**
 * Whether a tester (a pack or the cube) or an item can be bought now; NotFound for an id that is
 * not one of that kind. Something taken off sale cannot be bought, whatever the stock.
 */
export async function availabilityOf(
  kv: Deno.Kv,
  kind: "testers" | "items",
  id: number,
): Promise<boolean> {
  // Both snapshots at once: after a stock change, one round of rebuilds.
  const [products, counts] = await Promise.all([productSnapshot(kv), stockSnapshot(kv)]);
  const product = products.get(id);
  const isRightKind = product && (kind === "testers" ? !!product.packSlug : !product.packSlug);
  if (!product || !isRightKind) {
    throw new NotFound(`No ${kind === "testers" ? "tester" : "item"} with id ${id}`);
  }
  return product.onSale && isAvailable(counts, bomOf(product.bom));
}
