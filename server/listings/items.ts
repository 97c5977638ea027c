/**
 * The items sold as they are (the layout tester, the cube case): the owner renames them, prices
 * them and takes them off sale. An edit is one atomic write of the product with its history entry
 * and the stock version, so the shop, carts and availability follow at once.
 */
import type { z } from "zod";
import type { itemUpdateSchema } from "../../shared/schemas.ts";
import type { AdminItemView } from "../../shared/api_types.ts";
import { itemImageUrl } from "../../shared/images.ts";
import { toDollars } from "../../shared/pricing.ts";
import { Conflict, NotFound } from "../errors.ts";
import { changesBetween, recordEditInto } from "../catalog/history.ts";
import type { Actor } from "../audit/actor.ts";
import {
  getProductEntries,
  listProductEntries,
  type ProductRecord,
  writeProductInto,
} from "../catalog/store.ts";
import { CONFLICT, withRetries } from "../kv/kv_util.ts";
import { commitStockChange } from "../kv/version.ts";
import { stockAlertsJobInto } from "../stock/store.ts";
import type { CatalogDeps } from "./switches.ts";

/** An edit body as its schema answers it (money in cents). */
export type ItemUpdate = z.output<typeof itemUpdateSchema>;

const HISTORY_FIELDS = ["name", "price", "onSale"] as const;

function itemView(entry: Deno.KvEntry<ProductRecord>, imageBase: string): AdminItemView {
  const p = entry.value;
  return {
    id: p.id,
    name: p.name,
    price: toDollars(p.priceCents),
    priceCents: p.priceCents,
    image: p.image,
    imageUrl: itemImageUrl(imageBase, p.image, p.upload),
    onSale: p.onSale,
    version: entry.versionstamp,
  };
}

function historyView(p: ProductRecord) {
  return { name: p.name, price: toDollars(p.priceCents), onSale: p.onSale };
}

/** Every item, on sale or not (GET /api/admin/catalog/items). */
export async function listAdminItems(deps: CatalogDeps): Promise<AdminItemView[]> {
  const entries = await listProductEntries(deps.kv);
  return entries.filter((e) => e.value.packSlug === null).map((e) => itemView(e, deps.imageBase));
}

/** The item's entry; NotFound for an id that is no item (packs are edited as packs). */
export async function itemEntry(kv: Deno.Kv, id: number): Promise<Deno.KvEntry<ProductRecord>> {
  const [entry] = await getProductEntries(kv, [id]);
  if (!entry.value || entry.value.packSlug !== null) {
    throw new NotFound(
      entry.value
        ? `Product ${id} is a pack: edit it as a pack (by its id without keycaps)`
        : `There is no item with id ${id}`,
    );
  }
  return entry as Deno.KvEntry<ProductRecord>;
}

/** Edits an item: the fields sent replace the stored ones; `version` refuses a stale edit. */
export async function updateItem(
  deps: CatalogDeps,
  id: number,
  body: ItemUpdate,
  actor: Actor,
): Promise<AdminItemView> {
  const { kv, clock } = deps;
  await withRetries(
    async () => {
      const entry = await itemEntry(kv, id);
      if (body.version !== undefined && body.version !== entry.versionstamp) throw stale();
      const before = entry.value;
      const next: ProductRecord = {
        ...before,
        name: body.name ?? before.name,
        priceCents: body.price ?? before.priceCents,
        onSale: body.onSale ?? before.onSale,
      };
      const changes = changesBetween(historyView(before), historyView(next), HISTORY_FIELDS);
      if (changes.length === 0) return null;
      const now = clock.now();
      const op = kv.atomic();
      writeProductInto(op, entry, next);
      // Back on sale (or off): the shoppers waiting for it are looked at, as a stock write would.
      if (next.onSale !== before.onSale) stockAlertsJobInto(op, now);
      recordEditInto(op, actor, {
        at: now,
        kind: "item",
        target: String(id),
        label: next.name,
        action: "updated",
        changes,
      });
      return await commitStockChange(kv, op, now) ? null : CONFLICT;
    },
    "edit the item",
    `catalog:item:${id}`,
  );
  return itemView(await itemEntry(kv, id), deps.imageBase);
}

/** One item as the admin API shows it; NotFound names the id. */
export async function getAdminItem(deps: CatalogDeps, id: number): Promise<AdminItemView> {
  return itemView(await itemEntry(deps.kv, id), deps.imageBase);
}

function stale(): Conflict {
  return new Conflict(
    "This item was changed meanwhile by someone else. Reload to see the current values.",
  );
}
