/**
 * Reading the audit log: newest first, filtered by actor and kind through the index written with
 * each entry (never a scan of the whole log for a rare actor), a page at a time.
 */
import type { AuditKind } from "../../shared/audit.ts";
import { keys } from "../kv/keys.ts";
import type { AuditEntry } from "./log.ts";

/** Someone with an entry in the log: the owner, a staff member or an API key. */
export interface AuditActor {
  kind: AuditEntry["actor"]["kind"];
  id: string;
  name: string;
}

/** What to read: filters, at most `limit`, older than the cursor `before`. */
export interface AuditQuery {
  /** An actor's id, or else a name (any case) of actors seen. */
  actor?: string;
  kind?: AuditKind;
  limit: number;
  before?: string;
}

/** A page of entries, and the cursor of the next (older) page when there is one. */
export interface AuditPage {
  entries: AuditEntry[];
  nextCursor: string | null;
}

/** An entry's place as a cursor: "<at>.<id>" (ids are 11 characters; 8 or more are asked). */
export function auditCursor(entry: Pick<AuditEntry, "at" | "id">): string {
  return `${entry.at}.${entry.id}`;
}

/** A cursor back into its place; null when it is not one. */
export function parseAuditCursor(cursor: string): { at: number; id: string } | null {
  const match = /^(\d{1,16})\.([A-Za-z0-9_-]{8,40})$/.exec(cursor);
  if (!match) return null;
  const at = Number(match[1]);
  return Number.isSafeInteger(at) ? { at, id: match[2] } : null;
}

/** Everyone seen in the log, by name. */
export async function listAuditActors(kv: Deno.Kv): Promise<AuditActor[]> {
  const actors: AuditActor[] = [];
  for await (const e of kv.list<AuditActor>({ prefix: keys.auditActors() })) actors.push(e.value);
  return actors.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The ids `actor` means: itself when an actor has that id, else every actor seen by that name
 * (two keys may share one); none when nobody matches.
 */
async function actorIds(kv: Deno.Kv, actor: string): Promise<string[]> {
  const actors = await listAuditActors(kv);
  if (actors.some((a) => a.id === actor)) return [actor];
  const name = actor.toLowerCase();
  return actors.filter((a) => a.name.toLowerCase() === name).map((a) => a.id);
}

/** The list prefix that answers `kind` for one actor id (or for everyone). */
function prefixFor(actorId: string | null, kind: AuditKind | undefined): Deno.KvKey {
  if (actorId !== null && kind) return keys.auditsByActorKind(actorId, kind);
  if (actorId !== null) return keys.auditsByActor(actorId);
  if (kind) return keys.auditsByKind(kind);
  return keys.audits();
}

/** Up to `limit` entries under `prefix`, newest first, older than `before`. */
async function listUnder(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  limit: number,
  before: { at: number; id: string } | null,
): Promise<AuditEntry[]> {
  const selector = before ? { prefix, end: [...prefix, before.at, before.id] } : { prefix };
  const entries: AuditEntry[] = [];
  for await (const e of kv.list<AuditEntry>(selector, { reverse: true, limit })) {
    entries.push(e.value);
  }
  return entries;
}

/** Newest first: later time, then the larger id (the keys' own order). */
function newestFirst(a: AuditEntry, b: AuditEntry): number {
  return b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** One page of the log, newest first. */
export async function listAudit(kv: Deno.Kv, query: AuditQuery): Promise<AuditPage> {
  const before = query.before ? parseAuditCursor(query.before) : null;
  const ids = query.actor ? await actorIds(kv, query.actor) : [null];
  // One more than asked tells whether an older page exists.
  const lists = await Promise.all(
    ids.map((id) => listUnder(kv, prefixFor(id, query.kind), query.limit + 1, before)),
  );
  const merged = lists.flat().sort(newestFirst);
  const entries = merged.slice(0, query.limit);
  const more = merged.length > query.limit;
  return { entries, nextCursor: more ? auditCursor(entries[entries.length - 1]) : null };
}
