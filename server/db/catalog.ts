import { SWITCHES } from "../../shared/catalog/switches.ts";
import { type ProductData, PRODUCTS } from "../../shared/catalog/products.ts";
import type { SwitchData } from "../../shared/catalog/types.ts";
import { NotFound } from "../errors.ts";
import { keys } from "./keys.ts";
import { getManyBatched, listValues, setMissing } from "./kv_util.ts";
import type { Clock } from "../deps.ts";
import { type PerStockVersion, perStockVersion } from "./stock_version.ts";

/** A switch as stored: the catalogue data without its seed-only fields. */
export type SwitchRecord = Omit<SwitchData, "initialStock">;

/** A product as stored. */
export type ProductRecord = ProductData;

/** Writes catalogue records that are absent; existing ones (maybe edited) are left alone. */
export async function seedCatalog(kv: Deno.Kv, clock: Clock): Promise<number> {
  const entries: [Deno.KvKey, unknown][] = [
    ...SWITCHES.map(({ initialStock: _, ...record }): [Deno.KvKey, unknown] => [
      keys.switch(record.id),
      record,
    ]),
    ...PRODUCTS.map((p): [Deno.KvKey, unknown] => [keys.product(p.id), p]),
  ];
  return await setMissing(kv, entries, { stockVersionAt: clock.now() });
}

/** Every switch, sorted by brand then name. */
export async function listSwitches(kv: Deno.Kv): Promise<SwitchRecord[]> {
  const all = await listValues<SwitchRecord>(kv, keys.switches());
  return all.sort((a, b) => a.brand.localeCompare(b.brand) || a.name.localeCompare(b.name));
}

/** The switches with these ids in the same order, null where there is none. */
export async function findSwitches(
  kv: Deno.Kv,
  ids: readonly number[],
): Promise<(SwitchRecord | null)[]> {
  const entries = await getManyBatched<SwitchRecord>(kv, ids.map((id) => keys.switch(id)));
  return entries.map((e) => e.value);
}

/** The switches with these ids, in the same order; throws NotFound naming unknown ids. */
export async function getSwitches(kv: Deno.Kv, ids: readonly number[]): Promise<SwitchRecord[]> {
  const found = await findSwitches(kv, ids);
  const unknown = ids.filter((_, i) => found[i] === null);
  if (unknown.length > 0) {
    throw new NotFound(`Unknown switch id${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`);
  }
  return found as SwitchRecord[];
}

/**
 * A product sold by id; throws NotFound. From the snapshot below while it is current, else read
 * on its own (the snapshot is listed anew after every stock change: every few orders).
 */
export async function getProduct(kv: Deno.Kv, id: number): Promise<ProductRecord> {
  const snapshot = await productSnapshot.peek(kv);
  const product = snapshot
    ? snapshot.get(id)
    : (await kv.get<ProductRecord>(keys.product(id))).value;
  if (!product) throw new NotFound(`No product with id ${id}`);
  return product;
}

/**
 * Every product by id, listed once per stock version (catalogue seeding and restores set it), for
 * the catalogue's answers.
 */
export const productSnapshot: PerStockVersion<Map<number, ProductRecord>> = perStockVersion(async (
  kv,
) => new Map((await listProducts(kv)).map((p) => [p.id, p])));

/** Every product sold by id. */
export async function listProducts(kv: Deno.Kv): Promise<ProductRecord[]> {
  return await listValues<ProductRecord>(kv, keys.products());
}
