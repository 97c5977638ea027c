/**
 * The audit log as the owner takes it away: a CSV of the filtered entries (every field escaped,
 * a formula never run), and the record of reads worth an entry of their own (exports of customer
 * data and of the log itself), which change nothing else.
 */
import { summariseChanges } from "../../shared/audit.ts";
import type { AuditEntryView } from "../../shared/api_types.ts";
import { toCsv } from "../csv.ts";
import { type AuditEntry, auditInto } from "./log.ts";
import { type AuditQuery, listAudit } from "./read.ts";

/** An entry as the admin API shows it: its time in ISO 8601, its actor without an id. */
export function auditEntryView(entry: AuditEntry): AuditEntryView {
  return {
    id: entry.id,
    at: new Date(entry.at).toISOString(),
    actor: { kind: entry.actor.kind, id: entry.actor.id, name: entry.actor.name },
    from: entry.from,
    kind: entry.kind,
    action: entry.action,
    ...(entry.target !== undefined ? { target: entry.target } : {}),
    ...(entry.label !== undefined ? { label: entry.label } : {}),
    ...(entry.changes !== undefined ? { changes: entry.changes } : {}),
    ...(entry.detail !== undefined ? { detail: entry.detail } : {}),
  };
}

/** The CSV's columns. */
const HEADER = [
  "at",
  "actor",
  "actor kind",
  "from",
  "kind",
  "action",
  "target",
  "changes",
  "detail",
];

/** Entries as CSV text, in the order given (newest first). */
export function auditCsv(entries: readonly AuditEntry[]): string {
  return toCsv([
    HEADER,
    ...entries.map((e) => [
      new Date(e.at).toISOString(),
      e.actor.name,
      e.actor.kind,
      e.from,
      e.kind,
      e.action,
      e.label ? `${e.target ?? ""} (${e.label})` : e.target ?? "",
      summariseChanges(e.changes),
      e.detail ?? "",
    ]),
  ]);
}

/** Records an action that writes nothing else (an export): the entry is its own write. */
export async function recordAlone(kv: Deno.Kv, entry: AuditEntry): Promise<void> {
  // A fresh random key cannot collide, so the write cannot fail on a check.
  await auditInto(kv.atomic(), entry).commit();
}

/**
 * The CSV of one page of the log as `query` filters it, recorded as an export of the log (with
 * its row count) before it is handed over.
 */
export async function exportAuditCsv(
  kv: Deno.Kv,
  query: AuditQuery,
  audit: AuditEntry,
): Promise<{ body: string; nextCursor: string | null }> {
  const page = await listAudit(kv, query);
  await recordAlone(kv, { ...audit, detail: rowsText(page.entries.length) });
  return { body: auditCsv(page.entries), nextCursor: page.nextCursor };
}

/** "1 row", "12 rows". */
export function rowsText(n: number): string {
  return `${n} ${n === 1 ? "row" : "rows"}`;
}
