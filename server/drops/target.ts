/**
 * What a drop sells, read from the catalogue and the stock when the owner schedules it: whether
 * it is on sale, what it is called, which products count toward it and how many the free stock
 * can make now.
 */
import { bomOf, switchKey, unitsAvailable } from "../../shared/bom.ts";
import type { DropTarget } from "../../shared/drops.ts";
import { Conflict, NotFound } from "../errors.ts";
import {
  getPackEntry,
  getProductEntries,
  getSwitchEntry,
  type ProductRecord,
} from "../catalog/store.ts";
import { freeUnits } from "../stock/store.ts";

/** A target as a drop records it. */
export interface ResolvedTarget {
  name: string;
  productIds: number[];
  /** Units the free stock can make now. */
  canMake: number;
}

/** The units of one product the free stock can make. */
async function productUnits(kv: Deno.Kv, product: ProductRecord): Promise<number> {
  const bom = bomOf(product.bom);
  const free = await freeUnits(kv, [...bom.keys()]);
  return unitsAvailable(bom, (key) => free.get(key) ?? 0);
}

/**
 * Reads a target: 404 when the catalogue has none, 409 when it is not sold (a retired switch, a
 * pack or an item off sale). A pack is named by its pack id (its product without keycaps) and
 * counts both its products; its units are the packs without keycaps the stock can make.
 */
export async function resolveTarget(kv: Deno.Kv, target: DropTarget): Promise<ResolvedTarget> {
  if (target.kind === "switch") {
    const record = (await getSwitchEntry(kv, target.id)).value;
    if (!record) throw new NotFound(`No switch with id ${target.id}`);
    const name = `${record.brand} ${record.name}`;
    if (record.retired) throw new Conflict(`${name} is retired, so it cannot be dropped`);
    const free = await freeUnits(kv, [switchKey(target.id)]);
    return { name, productIds: [], canMake: free.get(switchKey(target.id)) ?? 0 };
  }
  if (target.kind === "pack") {
    const pack = (await getPackEntry(kv, target.id)).value;
    if (!pack) throw new NotFound(`No pack with id ${target.id}`);
    if (!pack.onSale) throw new Conflict(`${pack.title} is off sale, so it cannot be dropped`);
    const product = (await getProductEntries(kv, [pack.id]))[0].value;
    if (!product) throw new NotFound(`No pack with id ${target.id}`);
    return {
      name: pack.title,
      productIds: [pack.id, pack.idWithKeycaps],
      canMake: await productUnits(kv, product),
    };
  }
  const product = (await getProductEntries(kv, [target.id]))[0].value;
  if (!product) throw new NotFound(`No item with id ${target.id}`);
  if (product.packSlug !== null) {
    // A pack's product would split its drop from its twin with keycaps: the pack is the target.
    throw new Conflict(`${product.name} is a pack: schedule the pack (kind "pack") instead`);
  }
  if (!product.onSale) throw new Conflict(`${product.name} is off sale, so it cannot be dropped`);
  return { name: product.name, productIds: [product.id], canMake: await productUnits(kv, product) };
}

/**
 * Units of a drop's target the free stock can make now, read by the waiting room at each refresh:
 * a switch's free units, or a pack's (without keycaps) or an item's from their parts.
 */
export async function makeableNow(
  kv: Deno.Kv,
  drop: { target: DropTarget; productIds: readonly number[] },
): Promise<number> {
  if (drop.target.kind === "switch") {
    const key = switchKey(drop.target.id);
    return (await freeUnits(kv, [key])).get(key) ?? 0;
  }
  const product = (await getProductEntries(kv, [drop.productIds[0]]))[0].value;
  return product ? await productUnits(kv, product) : 0;
}
