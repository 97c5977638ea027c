/**
 * The catalogue's history: every edit of a switch, pack, item, promo code or the notice, with
 * when, what, and each changed field's old and new value. An edit is recorded in the same atomic
 * write as the change itself, so the history never misses or invents one.
 */
import type { CatalogEditView } from "../../shared/api_types.ts";
import { randomId } from "../crypto.ts";
import { keys } from "../kv/keys.ts";
import { getManyBatched } from "../kv/kv_util.ts";
import { findSwitches, type PackRecord, type ProductRecord } from "./store.ts";

/** What was edited. */
export type EditKind = "switch" | "pack" | "item" | "promo" | "notice" | "image";

/** One field's change; `from` is null for a creation. */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** One recorded edit. */
export interface EditRecord {
  id: string;
  /** Milliseconds since the epoch (the injected clock). */
  at: number;
  kind: EditKind;
  /** The edited record's id (a switch or product id, a promo code, "notice"). */
  target: string;
  /** "created", "updated" or "retired" and the like, for the list. */
  action: string;
  changes: FieldChange[];
  /** What the record was called when edited ("Gateron Oil King"), for the list. */
  label?: string;
  /**
   * What the switches its changes name by id were called when edited ("150": "Gateron Oil
   * King"), so a later rename or removal does not rewrite what the owner did. Older edits have
   * none and are named from the current catalogue.
   */
  names?: Record<string, string>;
}

/** The switch ids a change of a pack's switches mentions, before and after. */
function switchIdsIn(changes: readonly FieldChange[]): number[] {
  return [
    ...new Set(
      changes.filter((c) => c.field === "switchIds").flatMap((c) => [c.from, c.to])
        .flatMap((v) => (Array.isArray(v) ? v.filter((id) => typeof id === "number") : [])),
    ),
  ];
}

/** What a switch reads as in the history ("Gateron Oil King"). */
function switchLabel(s: { brand: string; name: string }): string {
  return `${s.brand} ${s.name}`;
}

/** The current names of the switches `changes` mention; none when they mention no switch. */
export async function switchNamesIn(
  kv: Deno.Kv,
  changes: readonly FieldChange[],
): Promise<Record<string, string> | undefined> {
  const ids = switchIdsIn(changes);
  if (ids.length === 0) return undefined;
  const found = await findSwitches(kv, ids);
  return Object.fromEntries(
    ids.flatMap((id, i) => (found[i] ? [[String(id), switchLabel(found[i]!)]] : [])),
  );
}

/** Adds the edit to `op`, the atomic write that makes the change. */
export function recordEditInto(op: Deno.AtomicOperation, edit: Omit<EditRecord, "id">): void {
  const id = randomId(8);
  op.set(keys.edit(edit.at, id), { ...edit, id } satisfies EditRecord);
}

/**
 * The fields of `fields` whose values differ between `before` (null for a creation) and
 * `after`, compared as JSON (arrays such as a pack's switch ids compare by content).
 */
export function changesBetween<T extends object>(
  before: T | null,
  after: T,
  fields: readonly (keyof T & string)[],
): FieldChange[] {
  return fields
    .filter((f) => JSON.stringify(before?.[f] ?? null) !== JSON.stringify(after[f] ?? null))
    .map((f) => ({ field: f, from: before?.[f] ?? null, to: after[f] ?? null }));
}

/** The newest edits first, at most `limit`. */
export async function listEdits(kv: Deno.Kv, limit = 500): Promise<EditRecord[]> {
  const edits: EditRecord[] = [];
  for await (const e of kv.list<EditRecord>({ prefix: keys.edits() }, { reverse: true, limit })) {
    edits.push(e.value);
  }
  return edits;
}

/**
 * The newest edits first, as the admin API shows them (GET /api/admin/catalog/history): the
 * switches a change names by id are named as they were called then, else as they are called now,
 * else "switch #150 (removed)"; an edit kept without a label is named from the current catalogue.
 */
export async function listEditViews(kv: Deno.Kv, limit = 500): Promise<CatalogEditView[]> {
  const edits = await listEdits(kv, limit);
  const current = await currentNames(kv, edits);
  return edits.map((e) => {
    const names: Record<string, string> = {};
    for (const id of switchIdsIn(e.changes)) {
      names[id] = e.names?.[id] ?? current.switches.get(id) ?? `switch #${id} (removed)`;
    }
    return {
      id: e.id,
      at: new Date(e.at).toISOString(),
      kind: e.kind,
      target: e.target,
      label: e.label ?? current.labels.get(`${e.kind}:${e.target}`) ?? null,
      action: e.action,
      changes: e.changes,
      names,
    };
  });
}

/**
 * The current names of what the edits mention but did not keep a name for: switches in pack
 * changes, and switches, packs and items edited without a label. One batched read each.
 */
async function currentNames(kv: Deno.Kv, edits: readonly EditRecord[]) {
  const switchIds = new Set<number>();
  const packIds = new Set<number>();
  const itemIds = new Set<number>();
  for (const e of edits) {
    for (const id of switchIdsIn(e.changes)) if (!e.names?.[id]) switchIds.add(id);
    const id = Number(e.target);
    if (e.label || !Number.isSafeInteger(id)) continue;
    if (e.kind === "switch") switchIds.add(id);
    else if (e.kind === "pack") packIds.add(id);
    else if (e.kind === "item") itemIds.add(id);
  }
  const [switchList, packList, itemList] = await Promise.all([
    findSwitches(kv, [...switchIds]),
    getManyBatched<PackRecord>(kv, [...packIds].map((id) => keys.pack(id))),
    getManyBatched<ProductRecord>(kv, [...itemIds].map((id) => keys.product(id))),
  ]);
  const switches = new Map<number, string>();
  switchList.forEach((s) => s && switches.set(s.id, switchLabel(s)));
  const labels = new Map<string, string>();
  for (const [id, name] of switches) labels.set(`switch:${id}`, name);
  packList.forEach((p) => p.value && labels.set(`pack:${p.value.id}`, p.value.title));
  itemList.forEach((p) => p.value && labels.set(`item:${p.value.id}`, p.value.name));
  return { switches, labels };
}
