/**
 * The themed packs: their pages and list as the shop shows them, and the owner's edits. A pack is
 * one record (title, description, its ten switches, on sale) and two products sold by id, with
 * and without keycaps; an edit rewrites the three in one atomic write with its history entry, so
 * the page, the shop, carts and availability all follow at once.
 */
import type { z } from "zod";
import type { packUpdateSchema } from "../../shared/schemas.ts";
import type { AdminPackView, PackView } from "../../shared/api_types.ts";
import { packImageUrl, switchImageUrl } from "../../shared/images.ts";
import { packCents, toDollars } from "../../shared/pricing.ts";
import { Conflict, InvalidInput, NotFound } from "../errors.ts";
import { changesBetween, recordEditInto, switchNamesIn } from "../catalog/history.ts";
import type { Actor } from "../audit/actor.ts";
import {
  findSwitches,
  getPackEntry,
  getProductEntries,
  getSwitchEntries,
  listPackEntries,
  listProducts,
  type PackRecord,
  packSnapshot,
  type ProductRecord,
  productSnapshot,
  type SwitchRecord,
  switchSnapshot,
  writePackInto,
  writeProductInto,
} from "../catalog/store.ts";
import { CONFLICT, withRetries } from "../kv/kv_util.ts";
import { commitStockChange } from "../kv/version.ts";
import { stockAlertsJobInto } from "../stock/store.ts";
import type { CatalogDeps } from "./switches.ts";

/** An edit body as its schema answers it (money in cents). */
export type PackUpdate = z.output<typeof packUpdateSchema>;

/** The fields the history compares, as the API shows them. */
const HISTORY_FIELDS = ["title", "description", "price", "switchIds", "onSale"] as const;

/** A pack as its page shows it, from its record, its two products and its switches. */
function packView(
  pack: PackRecord,
  plain: ProductRecord,
  withKeycaps: ProductRecord,
  switches: Map<number, SwitchRecord>,
  imageBase: string,
): PackView {
  return {
    id: pack.id,
    idWithKeycaps: pack.idWithKeycaps,
    slug: pack.slug,
    title: pack.title,
    description: pack.description,
    image: pack.image,
    imageUrl: packImageUrl(imageBase, pack.image, pack.upload),
    basePrice: toDollars(plain.priceCents),
    basePriceCents: plain.priceCents,
    priceWithKeycapsCents: withKeycaps.priceCents,
    switches: pack.switchIds.flatMap((id) => {
      const s = switches.get(id);
      return s
        ? [{
          id: s.id,
          name: s.name,
          brand: s.brand,
          referralLink: s.referralLink,
          imageUrl: switchImageUrl(imageBase, s.image, s.upload),
        }]
        : [];
    }),
    onSale: pack.onSale,
  };
}

/** The switches of these packs, by id. */
async function switchesOf(kv: Deno.Kv, packs: readonly PackRecord[]) {
  const ids = [...new Set(packs.flatMap((p) => p.switchIds))];
  const found = await findSwitches(kv, ids);
  return new Map(found.flatMap((s) => (s ? [[s.id, s] as const] : [])));
}

/** Every pack on sale, as the shop lists them (GET /api/packs). */
export async function listPacksOnSale(kv: Deno.Kv, imageBase: string): Promise<PackView[]> {
  const [packs, products, switches] = await Promise.all([
    packSnapshot(kv),
    productSnapshot(kv),
    switchSnapshot(kv),
  ]);
  const sold = packs.filter((p) =>
    p.onSale && products.get(p.id)?.onSale && products.get(p.idWithKeycaps)?.onSale
  );
  return sold.map((p) =>
    packView(p, products.get(p.id)!, products.get(p.idWithKeycaps)!, switches, imageBase)
  );
}

/**
 * A pack's page (GET /api/packs/{slug}), on sale or not: a pack taken off sale still answers, so
 * its page can say it is no longer sold.
 */
export async function getPackPage(
  kv: Deno.Kv,
  slug: string,
  imageBase: string,
): Promise<PackView> {
  // Snapshots, all three: no read while the stock version is current, one round of lists after.
  const [packs, products, switches] = await Promise.all([
    packSnapshot(kv),
    productSnapshot(kv),
    switchSnapshot(kv),
  ]);
  const pack = packs.find((p) => p.slug === slug);
  // The slug is echoed so the message says what was asked for, but never at any length.
  if (!pack) throw new NotFound(`No tester pack called ${slug.slice(0, 80)}`);
  const plain = products.get(pack.id);
  const withKeycaps = products.get(pack.idWithKeycaps);
  if (!plain || !withKeycaps) throw new NotFound(`The ${pack.title} is not sold right now`);
  return packView(pack, plain, withKeycaps, switches, imageBase);
}

/** Every pack, on sale or not, with what an edit needs (GET /api/admin/catalog/packs). */
export async function listAdminPacks(deps: CatalogDeps): Promise<AdminPackView[]> {
  const [entries, products] = await Promise.all([
    listPackEntries(deps.kv),
    listProducts(deps.kv),
  ]);
  const byId = new Map(products.map((p) => [p.id, p]));
  const switches = await switchesOf(deps.kv, entries.map((e) => e.value));
  return entries.flatMap((e) => {
    const plain = byId.get(e.value.id);
    const withKeycaps = byId.get(e.value.idWithKeycaps);
    return plain && withKeycaps
      ? [adminPackView(e, plain, withKeycaps, switches, deps.imageBase)]
      : [];
  });
}

function adminPackView(
  entry: Deno.KvEntry<PackRecord>,
  plain: ProductRecord,
  withKeycaps: ProductRecord,
  switches: Map<number, SwitchRecord>,
  imageBase: string,
): AdminPackView {
  return {
    ...packView(entry.value, plain, withKeycaps, switches, imageBase),
    switchIds: entry.value.switchIds,
    priceWithKeycaps: toDollars(withKeycaps.priceCents),
    version: entry.versionstamp,
  };
}

/** One pack as the admin API shows it, by its id without keycaps; NotFound names the id. */
export async function getAdminPack(deps: CatalogDeps, id: number): Promise<AdminPackView> {
  const entry = await getPackEntry(deps.kv, id);
  if (!entry.versionstamp) throw new NotFound(`There is no tester pack with id ${id}`);
  const [plain, withKeycaps] = await getProductEntries(deps.kv, [
    entry.value.id,
    entry.value.idWithKeycaps,
  ]);
  if (!plain.value || !withKeycaps.value) {
    throw new NotFound(`The ${entry.value.title} has no products to sell`);
  }
  const switches = await switchesOf(deps.kv, [entry.value]);
  return adminPackView(entry, plain.value, withKeycaps.value, switches, deps.imageBase);
}

/** The record as the history shows it: the API's units (dollars). */
function historyView(pack: PackRecord, plain: ProductRecord) {
  return {
    title: pack.title,
    description: pack.description,
    price: toDollars(plain.priceCents),
    switchIds: pack.switchIds,
    onSale: pack.onSale,
  };
}

/**
 * Edits a pack by its id without keycaps: the fields sent replace the stored ones, and both its
 * products follow (names, switches, on sale; the price with keycaps stays $2.00 above). New
 * switches must be ten the shop sells: known and not retired.
 */
export async function updatePack(
  deps: CatalogDeps,
  id: number,
  body: PackUpdate,
  actor: Actor,
): Promise<AdminPackView> {
  const { kv, clock } = deps;
  await withRetries(
    async () => {
      const entry = await getPackEntry(kv, id);
      if (!entry.value) throw await unknownPack(kv, id);
      if (body.version !== undefined && body.version !== entry.versionstamp) throw stale();
      const before = entry.value;
      const [[plainEntry, keycapsEntry], switchEntries] = await Promise.all([
        getProductEntries(kv, [before.id, before.idWithKeycaps]),
        body.switchIds ? getSwitchEntries(kv, body.switchIds) : [],
      ]);
      const plain = plainEntry.value;
      const withKeycaps = keycapsEntry.value;
      if (!plain || !withKeycaps) throw new NotFound(`The ${before.title} has no products to sell`);
      checkPackSwitches(body.switchIds ?? [], switchEntries);

      const now = clock.now();
      const next: PackRecord = {
        ...before,
        title: body.title ?? before.title,
        description: body.description ?? before.description,
        switchIds: body.switchIds ?? before.switchIds,
        onSale: body.onSale ?? before.onSale,
        updatedAt: now,
      };
      const priceCents = body.price ?? plain.priceCents;
      const nextPlain: ProductRecord = {
        ...plain,
        name: next.title,
        priceCents,
        bom: { kind: "pack", switchIds: next.switchIds, withKeycaps: false },
        onSale: next.onSale,
      };
      const nextWithKeycaps: ProductRecord = {
        ...withKeycaps,
        name: `${next.title} with transparent keycaps`,
        priceCents: body.price === undefined ? withKeycaps.priceCents : packCents(true, priceCents),
        bom: { kind: "pack", switchIds: next.switchIds, withKeycaps: true },
        onSale: next.onSale,
      };
      const changes = changesBetween(
        historyView(before, plain),
        historyView(next, nextPlain),
        HISTORY_FIELDS,
      );
      if (changes.length === 0) return null;
      // The switches' names now, kept with the edit so the history reads as the owner saw it.
      const names = await switchNamesIn(kv, changes);
      const op = kv.atomic();
      writePackInto(op, entry, next);
      writeProductInto(op, plainEntry, nextPlain);
      writeProductInto(op, keycapsEntry, nextWithKeycaps);
      // A switch retired meanwhile makes the edit read again (and be refused).
      for (const e of switchEntries) op.check(e);
      // New switches or a return to sale may make the pack buyable again: the shoppers waiting
      // for it are looked at, as a stock write would have them.
      if (next.onSale !== before.onSale || `${next.switchIds}` !== `${before.switchIds}`) {
        stockAlertsJobInto(op, now);
      }
      recordEditInto(op, actor, {
        at: now,
        kind: "pack",
        target: String(id),
        label: next.title,
        action: "updated",
        changes,
        ...(names ? { names } : {}),
      });
      return await commitStockChange(kv, op, now) ? null : CONFLICT;
    },
    "edit the pack",
    `catalog:pack:${id}`,
  );
  return await getAdminPack(deps, id);
}

/** Refuses pack switches the shop does not sell, naming them (400 on `switchIds`). */
function checkPackSwitches(
  ids: readonly number[],
  entries: readonly Deno.KvEntryMaybe<SwitchRecord>[],
): void {
  const unknown = ids.filter((_, i) => !entries[i].value);
  const retired = entries.flatMap((e) => (e.value?.retired ? [e.value] : []));
  const message = unknown.length > 0
    ? `switchIds: there is no switch with id ${unknown.join(", ")}`
    : retired.length > 0
    ? `switchIds: ${retired.map((s) => `${s.brand} ${s.name} (${s.id})`).join(", ")} ${
      retired.length === 1 ? "is" : "are"
    } retired; choose switches the shop sells`
    : null;
  if (message) throw new InvalidInput(message, { issues: [{ path: "switchIds", message }] });
}

/** The 404 of an id that is not a pack's, naming the ids that are. */
async function unknownPack(kv: Deno.Kv, id: number): Promise<NotFound> {
  const ids = (await listPackEntries(kv)).map((e) => e.value.id);
  return new NotFound(
    `There is no tester pack with id ${id}; packs are edited by their id without keycaps (${
      ids.join(", ")
    })`,
  );
}

function stale(): Conflict {
  return new Conflict(
    "This pack was changed meanwhile by someone else. Reload to see the current values.",
  );
}
