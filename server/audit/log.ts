/**
 * The audit log: who (the owner, a staff member, an API key) did what, when, from where, and what
 * changed. An entry is written in the same atomic write as the change it records (`auditInto`),
 * so the log never misses a change that happened nor records one that did not.
 */
import type { AuditKind } from "../../shared/audit.ts";
import type { Clock } from "../clock.ts";
import { randomId } from "../crypto.ts";
import { keys } from "../kv/keys.ts";
import type { Actor } from "./actor.ts";

export type { AuditKind };

/** One recorded action. */
export interface AuditEntry {
  id: string;
  /** Milliseconds since the epoch (the injected clock). */
  at: number;
  actor: { kind: Actor["kind"]; id: string; name: string };
  /** The client's address. */
  from: string;
  kind: AuditKind;
  /** What was done, as a dotted name: "order.shipped", "switch.updated", "key.created". */
  action: string;
  /** What it was done to: an order number, a switch id, a promo code, a member's email. */
  target?: string;
  /** Each changed field's old and new value. */
  changes?: Record<string, { from: unknown; to: unknown }>;
  /** What the target was called then ("Gateron Oil King"), so a later rename leaves it as seen. */
  label?: string;
  /** The names of the switches its changes mention by id, as they were called then. */
  names?: Record<string, string>;
  /** Anything else worth a line: an export's row count ("12 rows"). */
  detail?: string;
}

/**
 * How many mutations `auditInto` adds to a write: the entry, its three index copies and the
 * actor seen (for writes that count their mutations, the stock batch's).
 */
export const AUDIT_MUTATIONS = 5;

/** An entry for `actor` doing `action` now. */
export function auditEntry(
  clock: Clock,
  actor: Actor,
  fields: Pick<AuditEntry, "kind" | "action" | "target" | "changes" | "label" | "names" | "detail">,
): AuditEntry {
  return {
    id: randomId(8),
    at: clock.now(),
    actor: { kind: actor.kind, id: actor.id, name: actor.name },
    from: actor.from,
    ...fields,
  };
}

/**
 * Adds `entry` to an atomic write, so it commits with the change it records, or not at all; its
 * index copies (by kind, by actor, by both) and the actor's name go in the same write.
 */
export function auditInto(op: Deno.AtomicOperation, entry: AuditEntry): Deno.AtomicOperation {
  const { at, id, kind } = entry;
  const actorId = entry.actor.id;
  return op.set(keys.audit(at, id), entry)
    .set(keys.auditByKind(kind, at, id), entry)
    .set(keys.auditByActor(actorId, at, id), entry)
    .set(keys.auditByActorKind(actorId, kind, at, id), entry)
    .set(keys.auditActor(actorId), entry.actor);
}
