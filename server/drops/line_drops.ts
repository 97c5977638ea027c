/**
 * Which running drops cart lines take units of: every switch in a line's bill of materials, the
 * line's product as an item, and the pack the product belongs to (a pack's two products, with and
 * without keycaps, are one drop), looked up in the drop index, with the drops' ledgers, so a drop
 * that is over no longer counts.
 *
 * Every add and checkout asks, drop or not, so the index is read ahead: the caller starts
 * `readDropIndex` for the targets it can name before the catalogue is read (`guessTargets`: a
 * pack's switches as seeded), alongside its own first reads, and only a target the guess missed
 * (a pack whose switches the owner changed) costs a read of its own. Without a drop nothing more
 * is read.
 */
import { type Bom, switchIdOf } from "../../shared/bom.ts";
import type { DropTarget } from "../../shared/drops.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { keys } from "../kv/keys.ts";
import { getManyBatched } from "../kv/kv_util.ts";
import { type DropLedger, type DropRecord, targetKey } from "./record.ts";
import { dropUnitsOf, gates } from "./purchase_rules.ts";

/** A line as the drop rules see it. */
export interface DropLine {
  productId: number | null;
  bom: Bom;
  quantity: number;
}

/** A line as known before the catalogue is read: its product, or the switches it was built of. */
export interface LineGuess {
  productId: number | null;
  switchIds?: readonly number[];
}

/** A running drop the lines take units of. */
export interface LineDrop {
  drop: DropRecord;
  ledger: DropLedger;
  /** Units the lines take of it. */
  units: number;
}

/** The drop index as read: each target key's drop id, or null. */
export type DropIndex = Map<string, string | null>;

/** Packs by either of their product ids (packs are seeded, never made or unmade later). */
const PACK_OF = new Map(
  PACKS.flatMap((p) => [[p.id, p], [p.idWithKeycaps, p]] as const),
);

/** The product's own targets: itself as an item, and its pack. */
function productTargets(productId: number): DropTarget[] {
  const pack = PACK_OF.get(productId);
  return pack
    ? [{ kind: "item", id: productId }, { kind: "pack", id: pack.id }]
    : [{ kind: "item", id: productId }];
}

/** The targets lines may count toward, exactly, from their bills of materials. */
function targetsOf(lines: readonly DropLine[]): DropTarget[] {
  return lines.flatMap((line) => [
    ...[...line.bom.keys()].flatMap((key) => {
      const id = switchIdOf(key);
      return id === null ? [] : [{ kind: "switch" as const, id }];
    }),
    ...(line.productId === null ? [] : productTargets(line.productId)),
  ]);
}

/** The targets lines likely count toward, before their catalogue records are read. */
export function guessTargets(lines: readonly LineGuess[]): DropTarget[] {
  return lines.flatMap((line) => {
    const switchIds = line.switchIds ??
      (line.productId === null ? [] : PACK_OF.get(line.productId)?.switchIds ?? []);
    return [
      ...switchIds.map((id) => ({ kind: "switch" as const, id })),
      ...(line.productId === null ? [] : productTargets(line.productId)),
    ];
  });
}

/** Reads the drop index for `targets` (ten keys a read, all at once). */
export async function readDropIndex(
  kv: Deno.Kv,
  targets: readonly DropTarget[],
): Promise<DropIndex> {
  const unique = [...new Set(targets.map(targetKey))];
  const index: DropIndex = new Map();
  if (unique.length === 0) return index;
  const entries = await getManyBatched<string>(kv, unique.map((t) => keys.dropByTarget(t)));
  unique.forEach((t, i) => index.set(t, entries[i].value));
  return index;
}

/**
 * The drops that still decide who may buy what `lines` hold (none over or called off), from the
 * index read ahead when given.
 */
export async function runningDropsOf(
  kv: Deno.Kv,
  lines: readonly DropLine[],
  ahead?: Promise<DropIndex>,
): Promise<LineDrop[]> {
  const targets = targetsOf(lines);
  const index = ahead ? await ahead : new Map() as DropIndex;
  const missed = targets.filter((t) => !index.has(targetKey(t)));
  if (missed.length > 0) {
    for (const [t, id] of await readDropIndex(kv, missed)) {
      index.set(t, id);
    }
  }
  const ids = [
    ...new Set(targets.map((t) => index.get(targetKey(t))).filter((id): id is string => !!id)),
  ];
  if (ids.length === 0) return [];
  const entries = await getManyBatched<unknown>(
    kv,
    ids.flatMap((id) => [keys.drop(id), keys.dropLedger(id)]),
  );
  const found: LineDrop[] = [];
  for (let i = 0; i < ids.length; i++) {
    const drop = entries[2 * i].value as DropRecord | null;
    const ledger = (entries[2 * i + 1].value as DropLedger | null) ?? { holding: 0, sold: 0 };
    if (!drop || !gates(drop, ledger)) continue;
    const units = dropUnitsOf(drop, lines);
    if (units > 0) found.push({ drop, ledger, units });
  }
  return found;
}
