/**
 * The owner's switches: listed with their stock, added, edited and retired from the dashboard.
 * Each change is one atomic write with its history entry and the stock version (so every cached
 * catalogue answer rebuilds at once). Edits re-read and retry when another writer got there
 * first, so two edits of different fields both stay; one made on an older copy than the stored
 * one (`version`) is refused instead.
 */
import type { z } from "zod";
import type { switchCreateSchema, switchUpdateSchema } from "../../shared/schemas.ts";
import type { AdminSwitchView } from "../../shared/api_types.ts";
import { type StockKey, switchIdOf, switchKey } from "../../shared/bom.ts";
import { switchImageUrl } from "../../shared/images.ts";
import { toDollars } from "../../shared/pricing.ts";
import type { Clock } from "../clock.ts";
import { Conflict, NotFound } from "../errors.ts";
import { changesBetween, type FieldChange, recordEditInto } from "../catalog/history.ts";
import type { Actor } from "../audit/actor.ts";
import {
  getSwitchEntry,
  listPackEntries,
  listSwitchEntries,
  type SwitchRecord,
  writeSwitchInto,
} from "../catalog/store.ts";
import {
  createStockInto,
  getStockEntries,
  listStock,
  setShelfCountInto,
  stockAlertsJobInto,
} from "../stock/store.ts";
import { availableOf, type StockRecord, stockRecordOf } from "../stock/record.ts";
import { CONFLICT, withRetries } from "../kv/kv_util.ts";
import { commitStockChange } from "../kv/version.ts";

/** A create body as its schema answers it (money in cents). */
export type SwitchCreate = z.output<typeof switchCreateSchema>;
/** An edit body as its schema answers it. */
export type SwitchUpdate = z.output<typeof switchUpdateSchema>;

/** What the owner's catalogue edits need: the store, the time, and where images are served. */
export interface CatalogDeps {
  kv: Deno.Kv;
  clock: Clock;
  imageBase: string;
}

/** Switch ids run from 100 to 999 (docs: catalogue data); a new one takes the next after all. */
const FIRST_SWITCH_ID = 100;
const LAST_SWITCH_ID = 999;

/** The fields the history compares, as the API shows them. */
const HISTORY_FIELDS = [
  "name",
  "brand",
  "type",
  "force",
  "extraPrice",
  "referralLink",
  "retired",
] as const;

/**
 * The stem colour of a new switch's illustration, by its type as the hobby colours them (red
 * linears, brown tactiles, blue clickies); the owner's switches have no photo to take it from.
 */
function colorOfType(type: string): string {
  if (type.includes("clicky")) return "#3f7fd1";
  if (type.includes("tactile")) return "#9a6337";
  if (type.includes("linear")) return "#d8453c";
  return "#9aa0a6";
}

/**
 * A new switch's image name, kebab-case from brand and name ("gateron-tidal-blue"), so its
 * generated illustration resolves like the seeded ones; the id makes it unique when taken.
 */
function imageNameOf(brand: string, name: string, id: number, taken: Set<string>): string {
  const slug = `${brand} ${name}`.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").slice(0, 60).replace(/^-+|-+$/g, "");
  const image = slug || `switch-${id}`;
  return taken.has(image) ? `${image}-${id}` : image;
}

function labelOf(s: { brand: string; name: string }): string {
  return `${s.brand} ${s.name}`;
}

function sameName(a: { brand: string; name: string }, b: { brand: string; name: string }) {
  return labelOf(a).toLowerCase() === labelOf(b).toLowerCase();
}

/** A switch as the admin API shows it. */
function switchView(
  entry: Deno.KvEntry<SwitchRecord>,
  stock: StockRecord,
  imageBase: string,
): AdminSwitchView {
  const s = entry.value;
  return {
    id: s.id,
    ...historyView(s),
    image: s.image,
    imageUrl: switchImageUrl(imageBase, s.image, s.upload),
    stock: stock.stock,
    available: availableOf(stock),
    version: entry.versionstamp,
  };
}

/** The record as the history shows it: the API's units (dollars). */
function historyView(s: SwitchRecord) {
  return {
    name: s.name,
    brand: s.brand,
    type: s.type,
    force: s.force,
    extraPrice: toDollars(s.extraPriceCents),
    referralLink: s.referralLink,
    retired: s.retired,
  };
}

/** Every switch, retired ones included, with its shelf and available units, by brand and name. */
export async function listAdminSwitches(deps: CatalogDeps): Promise<AdminSwitchView[]> {
  const [entries, stock] = await Promise.all([listSwitchEntries(deps.kv), listStock(deps.kv)]);
  return entries.map((e) =>
    switchView(e, stockRecordOf(stock.get(switchKey(e.value.id)) ?? null), deps.imageBase)
  );
}

/** One switch as the admin API shows it; NotFound names the id. */
export async function getAdminSwitch(deps: CatalogDeps, id: number): Promise<AdminSwitchView> {
  const [entry, stock] = await Promise.all([
    getSwitchEntry(deps.kv, id),
    getStockEntries(deps.kv, [switchKey(id)]),
  ]);
  if (!entry.versionstamp) throw new NotFound(`There is no switch with id ${id}`);
  return switchView(entry, stockRecordOf(stock.get(switchKey(id))!.value), deps.imageBase);
}

/**
 * Adds a switch with the next free id and its stock record, in one write: it is sold at once.
 * Racing additions each get their own id (the write checks the id is still free, and the loser
 * takes the next one). A switch with the same brand and name is a 409.
 */
export async function createSwitch(
  deps: CatalogDeps,
  body: SwitchCreate,
  actor: Actor,
): Promise<AdminSwitchView> {
  const { kv, clock } = deps;
  const id = await withRetries(
    async () => {
      const [entries, stock] = await Promise.all([listSwitchEntries(kv), listStock(kv)]);
      const same = entries.find((e) => sameName(e.value, body));
      if (same) {
        throw new Conflict(
          `There is a switch called ${labelOf(same.value)} already (id ${same.value.id}${
            same.value.retired ? ", retired: edit it to sell it again" : ""
          })`,
        );
      }
      // Ids of stock records count too: an id is never given twice, even if a record was lost.
      const used = [
        ...entries.map((e) => e.value.id),
        ...[...stock.keys()].map((k: StockKey) => switchIdOf(k) ?? 0),
      ];
      const id = Math.max(FIRST_SWITCH_ID - 1, ...used) + 1;
      if (id > LAST_SWITCH_ID) {
        throw new Conflict(
          `Every switch id up to ${LAST_SWITCH_ID} is taken; retire and edit a switch instead`,
        );
      }
      const record: SwitchRecord = {
        id,
        name: body.name,
        brand: body.brand,
        type: body.type,
        force: body.force,
        extraPriceCents: body.extraPrice,
        referralLink: body.referralLink ?? "",
        image: imageNameOf(body.brand, body.name, id, new Set(entries.map((e) => e.value.image))),
        color: colorOfType(body.type),
        retired: false,
      };
      const now = clock.now();
      const op = kv.atomic();
      writeSwitchInto(op, null, record);
      createStockInto(op, switchKey(id), { stock: body.stock ?? 0, reserved: 0, used: 0 }, now);
      recordEditInto(op, actor, {
        at: now,
        kind: "switch",
        target: String(id),
        label: labelOf(record),
        action: "created",
        changes: [
          ...changesBetween(null, historyView(record), HISTORY_FIELDS),
          { field: "stock", from: null, to: body.stock ?? 0 },
        ],
      });
      return await commitStockChange(kv, op, now) ? id : CONFLICT;
    },
    "add the switch",
    "catalog:new-switch",
  );
  return await getAdminSwitch(deps, id);
}

/**
 * Edits a switch: the fields sent replace the stored ones; `stock` sets its shelf count;
 * `retired` takes it out of the shop (or back). A switch in a pack cannot be retired: the pack
 * would sell what the shop no longer offers, so it is replaced in the pack first.
 */
export async function updateSwitch(
  deps: CatalogDeps,
  id: number,
  body: SwitchUpdate,
  actor: Actor,
): Promise<AdminSwitchView> {
  const { kv, clock } = deps;
  await withRetries(
    async () => {
      const entry = await getSwitchEntry(kv, id);
      if (!entry.value) throw new NotFound(`There is no switch with id ${id}`);
      if (body.version !== undefined && body.version !== entry.versionstamp) throw stale();
      const before = entry.value;
      const next: SwitchRecord = {
        ...before,
        name: body.name ?? before.name,
        brand: body.brand ?? before.brand,
        type: body.type ?? before.type,
        force: body.force ?? before.force,
        extraPriceCents: body.extraPrice ?? before.extraPriceCents,
        referralLink: body.referralLink ?? before.referralLink,
        retired: body.retired ?? before.retired,
      };
      const retiring = next.retired && !before.retired;
      const renamed = !sameName(next, before);
      const key = switchKey(id);
      const [packs, others, stockEntries] = await Promise.all([
        retiring ? listPackEntries(kv) : [],
        renamed ? listSwitchEntries(kv) : [],
        body.stock === undefined ? null : getStockEntries(kv, [key]),
      ]);
      const holding = packs.filter((p) => p.value.switchIds.includes(id));
      if (holding.length > 0) {
        throw new Conflict(
          `${labelOf(before)} is in the ${
            holding.map((p) => p.value.title).join(", ")
          }: replace it there before retiring it`,
        );
      }
      const same = others.find((e) => e.value.id !== id && sameName(e.value, next));
      if (same) {
        throw new Conflict(
          `There is a switch called ${labelOf(same.value)} already (id ${same.value.id})`,
        );
      }

      const changes: FieldChange[] = changesBetween(
        historyView(before),
        historyView(next),
        HISTORY_FIELDS,
      );
      const op = kv.atomic();
      // Checked even when only the stock changes, so a stale `version` is never let through.
      if (changes.length > 0) writeSwitchInto(op, entry, next);
      else op.check(entry);
      const stockEntry = stockEntries?.get(key);
      const now = clock.now();
      const shelf = stockEntry && body.stock !== undefined
        ? setShelfCountInto(op, key, stockEntry, body.stock, now)
        : null;
      if (shelf) changes.push({ field: "stock", ...shelf });
      if (changes.length === 0) return null;
      // A pack that took this switch meanwhile makes the retirement read again.
      for (const pack of packs) op.check(pack);
      // Retired or back: the shoppers waiting for it (and its packs) are looked at.
      if (next.retired !== before.retired) stockAlertsJobInto(op, now);
      recordEditInto(op, actor, {
        at: now,
        kind: "switch",
        target: String(id),
        label: labelOf(next),
        action: retiring ? "retired" : before.retired && !next.retired ? "restored" : "updated",
        changes,
      });
      return await commitStockChange(kv, op, now) ? null : CONFLICT;
    },
    "edit the switch",
    `catalog:switch:${id}`,
  );
  return await getAdminSwitch(deps, id);
}

function stale(): Conflict {
  return new Conflict(
    "This switch was changed meanwhile by someone else. Reload to see the current values.",
  );
}
