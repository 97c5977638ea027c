/**
 * Which running drops cart lines take units of: every switch in a line's bill of materials, the
 * line's product as an item, and the pack the product belongs to (a pack's two products, with and
 * without keycaps, are one drop), read through the drop index in one getMany, with the ledgers of
 * the drops found, so a drop that is over no longer counts.
 */
import { type Bom, switchIdOf } from "../../shared/bom.ts";
import type { DropTarget } from "../../shared/drops.ts";
import { packSnapshot } from "../catalog/store.ts";
import { keys } from "../kv/keys.ts";
import { getManyBatched } from "../kv/kv_util.ts";
import type { DropLedger, DropRecord } from "./record.ts";
import { dropsOfTargets } from "./store.ts";
import { dropUnitsOf, gates } from "./purchase_rules.ts";

/** A line as the drop rules see it. */
export interface DropLine {
  productId: number | null;
  bom: Bom;
  quantity: number;
}

/** A running drop the lines take units of. */
export interface LineDrop {
  drop: DropRecord;
  ledger: DropLedger;
  /** Units the lines take of it. */
  units: number;
}

/** The drop targets a line may count toward. */
async function targetsOf(kv: Deno.Kv, lines: readonly DropLine[]): Promise<DropTarget[]> {
  const targets: DropTarget[] = [];
  const products = new Set<number>();
  for (const line of lines) {
    for (const key of line.bom.keys()) {
      const id = switchIdOf(key);
      if (id !== null) targets.push({ kind: "switch", id });
    }
    if (line.productId !== null) products.add(line.productId);
  }
  if (products.size === 0) return targets;
  const packs = await packSnapshot(kv);
  for (const id of products) {
    targets.push({ kind: "item", id });
    const pack = packs.find((p) => p.id === id || p.idWithKeycaps === id);
    if (pack) targets.push({ kind: "pack", id: pack.id });
  }
  return targets;
}

/** The drops that still decide who may buy what `lines` hold (none over or called off). */
export async function runningDropsOf(
  kv: Deno.Kv,
  lines: readonly DropLine[],
): Promise<LineDrop[]> {
  const drops = [...(await dropsOfTargets(kv, await targetsOf(kv, lines))).values()]
    .map((drop) => ({ drop, units: dropUnitsOf(drop, lines) }))
    .filter((d) => d.units > 0);
  if (drops.length === 0) return [];
  const ledgers = await getManyBatched<DropLedger>(
    kv,
    drops.map((d) => keys.dropLedger(d.drop.id)),
  );
  return drops
    .map((d, i) => ({ ...d, ledger: ledgers[i].value ?? { holding: 0, sold: 0 } }))
    .filter((d) => gates(d.drop, d.ledger));
}
