import { SWITCHES } from "../../shared/catalog/switches.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { type ProductData, PRODUCTS } from "../../shared/catalog/products.ts";
import type { PackData, SwitchData } from "../../shared/catalog/types.ts";
import type { ImageUpload } from "../../shared/images.ts";
import { NotFound } from "../errors.ts";
import { keys } from "../kv/keys.ts";
import { getManyBatched, LIST_BATCH, listValues, setMissing } from "../kv/kv_util.ts";
import type { Clock } from "../clock.ts";
import { commitStockChange, type PerStockVersion, perStockVersion } from "../kv/version.ts";

/**
 * The image the owner uploaded for a record; absent (records from before uploads) or null: the
 * generated illustration.
 */
export interface WithUpload {
  upload?: ImageUpload | null;
}

/**
 * A switch as stored: the catalogue data without its seed-only fields. A retired switch is kept
 * (orders and carts refer to it by id) but no longer offered.
 */
export type SwitchRecord = Omit<SwitchData, "initialStock"> & { retired: boolean } & WithUpload;

/**
 * A product as stored: what is sold by id, with its price, bill of materials and whether it is
 * on sale. A pack's two products follow its pack record (names, switches, on sale).
 */
export type ProductRecord = ProductData & WithUpload;

/**
 * A themed pack as stored: what its page shows and its ten switches. Its price is on its two
 * products (the with-keycaps one $2.00 more), which an edit of the pack rewrites with it.
 */
export interface PackRecord extends PackData, WithUpload {
  onSale: boolean;
  /** Where the shop lists it (0 first). */
  position: number;
  /** Set by every edit, so the record's versionstamp moves with any change to the pack. */
  updatedAt: number;
}

/** The first boot's pack records, in the order the shop lists them. */
export function seedPackRecords(now: number): PackRecord[] {
  return PACKS.map((p, position) => ({ ...p, onSale: true, position, updatedAt: now }));
}

/**
 * Writes catalogue records that are absent; existing ones (maybe edited) are left alone: after
 * the first boot KV is the catalogue's truth.
 */
export async function seedCatalog(kv: Deno.Kv, clock: Clock, newStore = false): Promise<number> {
  const entries: [Deno.KvKey, unknown][] = [
    ...SWITCHES.map(({ initialStock: _, ...data }): [Deno.KvKey, SwitchRecord] => [
      keys.switch(data.id),
      { ...data, retired: false },
    ]),
    ...PRODUCTS.map((p): [Deno.KvKey, ProductRecord] => [keys.product(p.id), p]),
    ...seedPackRecords(clock.now()).map((p): [Deno.KvKey, PackRecord] => [keys.pack(p.id), p]),
  ];
  return await setMissing(kv, entries, {
    commit: (op) => commitStockChange(kv, op, clock.now()),
    storeWasEmpty: newStore,
  });
}

/** Orders switches as the shop lists them: by brand, then name. */
function byBrandAndName(a: SwitchRecord, b: SwitchRecord): number {
  return a.brand.localeCompare(b.brand) || a.name.localeCompare(b.name);
}

/** Every switch, retired ones included, sorted by brand then name. */
export async function listSwitches(kv: Deno.Kv): Promise<SwitchRecord[]> {
  const all = await listValues<SwitchRecord>(kv, keys.switches());
  return all.sort(byBrandAndName);
}

/** Every switch entry (with its versionstamp, for the owner's edits), by brand then name. */
export async function listSwitchEntries(kv: Deno.Kv): Promise<Deno.KvEntry<SwitchRecord>[]> {
  return (await listEntries<SwitchRecord>(kv, keys.switches()))
    .sort((a, b) => byBrandAndName(a.value, b.value));
}

/** One switch entry (a miss when there is none). */
export async function getSwitchEntry(
  kv: Deno.Kv,
  id: number,
): Promise<Deno.KvEntryMaybe<SwitchRecord>> {
  return await kv.get<SwitchRecord>(keys.switch(id));
}

/** Switch entries by id, in the same order (misses where there is none). */
export async function getSwitchEntries(
  kv: Deno.Kv,
  ids: readonly number[],
): Promise<Deno.KvEntryMaybe<SwitchRecord>[]> {
  return await getManyBatched<SwitchRecord>(kv, ids.map((id) => keys.switch(id)));
}

/**
 * Adds writing a switch record to `op`, checked against the entry it was computed from (null: a
 * new switch, whose id must still be free).
 */
export function writeSwitchInto(
  op: Deno.AtomicOperation,
  previous: Deno.KvEntryMaybe<SwitchRecord> | null,
  record: SwitchRecord,
): void {
  const key = keys.switch(record.id);
  op.check(previous ?? { key, versionstamp: null }).set(key, record);
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
 * Every switch by id (retired ones too), listed once per stock version, for the pack answers: a
 * pack page then costs no read while the version is current.
 */
export const switchSnapshot: PerStockVersion<Map<number, SwitchRecord>> = perStockVersion(async (
  kv,
) => new Map((await listSwitches(kv)).map((s) => [s.id, s])));

/**
 * Every product by id, listed once per stock version (catalogue seeding and restores set it), for
 * the catalogue's answers.
 */
export const productSnapshot: PerStockVersion<Map<number, ProductRecord>> = perStockVersion(async (
  kv,
) => new Map((await listProducts(kv)).map((p) => [p.id, p])));

/** Every product sold by id, on sale or not. */
export async function listProducts(kv: Deno.Kv): Promise<ProductRecord[]> {
  return await listValues<ProductRecord>(kv, keys.products());
}

/** Every product entry, by id. */
export async function listProductEntries(kv: Deno.Kv): Promise<Deno.KvEntry<ProductRecord>[]> {
  return (await listEntries<ProductRecord>(kv, keys.products()))
    .sort((a, b) => a.value.id - b.value.id);
}

/** Product entries by id (misses where there is none), for check-and-set edits. */
export async function getProductEntries(
  kv: Deno.Kv,
  ids: readonly number[],
): Promise<Deno.KvEntryMaybe<ProductRecord>[]> {
  return await getManyBatched<ProductRecord>(kv, ids.map((id) => keys.product(id)));
}

/** Adds writing a product record to `op`, checked against the entry it was computed from. */
export function writeProductInto(
  op: Deno.AtomicOperation,
  previous: Deno.KvEntryMaybe<ProductRecord>,
  record: ProductRecord,
): void {
  op.check(previous).set(keys.product(record.id), record);
}

/** Every pack entry, in the order the shop lists them. */
export async function listPackEntries(kv: Deno.Kv): Promise<Deno.KvEntry<PackRecord>[]> {
  return (await listEntries<PackRecord>(kv, keys.packs()))
    .sort((a, b) => a.value.position - b.value.position);
}

/** One pack entry by its id without keycaps (a miss when there is none). */
export async function getPackEntry(
  kv: Deno.Kv,
  id: number,
): Promise<Deno.KvEntryMaybe<PackRecord>> {
  return await kv.get<PackRecord>(keys.pack(id));
}

/** Adds writing a pack record to `op`, checked against the entry it was computed from. */
export function writePackInto(
  op: Deno.AtomicOperation,
  previous: Deno.KvEntryMaybe<PackRecord>,
  record: PackRecord,
): void {
  op.check(previous).set(keys.pack(record.id), record);
}

/** Every pack, in the order the shop lists them, once per stock version (edits set it). */
export const packSnapshot: PerStockVersion<PackRecord[]> = perStockVersion(async (kv) =>
  (await listPackEntries(kv)).map((e) => e.value)
);

/**
 * Switches by image name, once per stock version: the illustrations of switches the owner
 * added, which the compiled catalogue does not know.
 */
export const switchesByImage: PerStockVersion<Map<string, SwitchRecord>> = perStockVersion(
  async (kv) => new Map((await listSwitches(kv)).map((s) => [s.image, s])),
);

async function listEntries<T>(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Deno.KvEntry<T>[]> {
  const entries: Deno.KvEntry<T>[] = [];
  for await (const entry of kv.list<T>({ prefix }, { batchSize: LIST_BATCH })) {
    entries.push(entry);
  }
  return entries;
}
