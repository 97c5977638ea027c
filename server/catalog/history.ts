/**
 * The catalogue's history: every edit of a switch, pack, item, promo code or the notice, with
 * when, what, and each changed field's old and new value. An edit is recorded in the same atomic
 * write as the change itself, so the history never misses or invents one.
 */
import type { CatalogEditView } from "../../shared/api_types.ts";
import { randomId } from "../crypto.ts";
import { keys } from "../kv/keys.ts";

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

/** The newest edits first, as the admin API shows them (GET /api/admin/catalog/history). */
export async function listEditViews(kv: Deno.Kv, limit = 500): Promise<CatalogEditView[]> {
  return (await listEdits(kv, limit)).map((e) => ({
    id: e.id,
    at: new Date(e.at).toISOString(),
    kind: e.kind,
    target: e.target,
    label: e.label ?? null,
    action: e.action,
    changes: e.changes,
  }));
}
