/**
 * The catalogue's history: every edit of a switch, pack, item, promo code or the notice, with
 * when, who, what, and each changed field's old and new value. It is a view of the audit log: an
 * edit is an audit entry (kind catalog, promos or notice) written in the same atomic write as the
 * change itself, so the history never misses or invents one.
 */
import type { CatalogEditView } from "../../shared/api_types.ts";
import type { Actor } from "../audit/actor.ts";
import { type AuditEntry, auditInto, type AuditKind } from "../audit/log.ts";
import { randomId } from "../crypto.ts";
import { keys } from "../kv/keys.ts";
import { getManyBatched } from "../kv/kv_util.ts";
import { findSwitches, type PackRecord, type ProductRecord } from "./store.ts";

/** What was edited. */
export type EditKind = "switch" | "pack" | "item" | "promo" | "notice" | "image";

const EDIT_KINDS: readonly EditKind[] = ["switch", "pack", "item", "promo", "notice", "image"];

/** The audit log's kind of each edit: the Audit tab's filter. */
const AUDIT_KIND_OF: Record<EditKind, AuditKind> = {
  switch: "catalog",
  pack: "catalog",
  item: "catalog",
  image: "catalog",
  promo: "promos",
  notice: "notice",
};

/** The audit kinds the history shows. */
const HISTORY_KINDS: readonly AuditKind[] = ["catalog", "promos", "notice"];

/** One field's change; `from` is null for a creation. */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** One recorded edit, as the history reads it. */
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

/** An edit as the audit log keeps it: action "switch.updated", changes by field. */
export function editAsAuditEntry(
  edit: EditRecord,
  actor: AuditEntry["actor"],
  from: string,
): AuditEntry {
  return {
    id: edit.id,
    at: edit.at,
    actor,
    from,
    kind: AUDIT_KIND_OF[edit.kind],
    action: `${edit.kind}.${edit.action}`,
    target: edit.target,
    changes: Object.fromEntries(edit.changes.map((c) => [c.field, { from: c.from, to: c.to }])),
    ...(edit.label !== undefined ? { label: edit.label } : {}),
    ...(edit.names !== undefined ? { names: edit.names } : {}),
  };
}

/** An audit entry as the history reads it; null for an entry that is no catalogue edit. */
export function auditEntryAsEdit(entry: AuditEntry): EditRecord | null {
  const dot = entry.action.indexOf(".");
  const kind = entry.action.slice(0, dot) as EditKind;
  if (dot < 0 || !EDIT_KINDS.includes(kind) || entry.target === undefined) return null;
  return {
    id: entry.id,
    at: entry.at,
    kind,
    target: entry.target,
    action: entry.action.slice(dot + 1),
    changes: Object.entries(entry.changes ?? {}).map(([field, c]) => ({ field, ...c })),
    ...(entry.label !== undefined ? { label: entry.label } : {}),
    ...(entry.names !== undefined ? { names: entry.names } : {}),
  };
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

/** Adds the edit by `actor` to `op`, the atomic write that makes the change, as an audit entry. */
export function recordEditInto(
  op: Deno.AtomicOperation,
  actor: Actor,
  edit: Omit<EditRecord, "id">,
): void {
  const { kind, id, name } = actor;
  auditInto(op, editAsAuditEntry({ ...edit, id: randomId(8) }, { kind, id, name }, actor.from));
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

/** The newest edits first, at most `limit`: the audit log's catalogue, promo and notice kinds. */
export async function listEdits(kv: Deno.Kv, limit = 500): Promise<EditRecord[]> {
  const lists = await Promise.all(HISTORY_KINDS.map(async (kind) => {
    const entries: AuditEntry[] = [];
    const selector = { prefix: keys.auditsByKind(kind) };
    for await (const e of kv.list<AuditEntry>(selector, { reverse: true, limit })) {
      entries.push(e.value);
    }
    return entries;
  }));
  return lists.flat().sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1)).slice(0, limit)
    .flatMap((e) => auditEntryAsEdit(e) ?? []);
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
