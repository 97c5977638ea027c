/**
 * The audit log: who (the owner, a staff member, an API key) did what, when, from where, and what
 * changed. An entry is written in the same atomic write as the change it records (`auditInto`),
 * so the log never misses a change that happened nor records one that did not.
 */
import type { Clock } from "../clock.ts";
import { randomId } from "../crypto.ts";
import { keys } from "../kv/keys.ts";
import type { Actor } from "./actor.ts";

/** What part of the shop an entry is about, for the Audit tab's filter. */
export type AuditKind =
  | "orders"
  | "stock"
  | "catalog"
  | "promos"
  | "notice"
  | "emails"
  | "staff"
  | "keys"
  | "sessions"
  | "sign_in"
  | "security"
  | "export";

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
}

/** An entry for `actor` doing `action` now. */
export function auditEntry(
  clock: Clock,
  actor: Actor,
  fields: Pick<AuditEntry, "kind" | "action" | "target" | "changes">,
): AuditEntry {
  return {
    id: randomId(8),
    at: clock.now(),
    actor: { kind: actor.kind, id: actor.id, name: actor.name },
    from: actor.from,
    ...fields,
  };
}

/** Adds `entry` to an atomic write, so it commits with the change it records, or not at all. */
export function auditInto(op: Deno.AtomicOperation, entry: AuditEntry): Deno.AtomicOperation {
  return op.set(keys.audit(entry.at, entry.id), entry);
}
