/**
 * The audit log's words, shared by the server (which records and filters) and the dashboard's
 * Audit tab (which offers the filters and reads the changes).
 */

/** What part of the shop an entry is about: the Audit tab's kind filter. */
export const AUDIT_KINDS = [
  "orders",
  "stock",
  "catalog",
  "drops",
  "promos",
  "notice",
  "emails",
  "staff",
  "keys",
  "sessions",
  "sign_in",
  "security",
  "export",
] as const;

/** One of AUDIT_KINDS. */
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** What each kind reads as in the Audit tab's filter. */
export const AUDIT_KIND_LABELS: Record<AuditKind, string> = {
  orders: "Orders",
  stock: "Stock",
  catalog: "Catalogue",
  drops: "Drops",
  promos: "Promo codes",
  notice: "Notice",
  emails: "Emails",
  staff: "Staff",
  keys: "API keys",
  sessions: "Sessions",
  sign_in: "Sign-ins",
  security: "Second factors",
  export: "Exports",
};

/** Most entries one page of the log answers (`limit`), and how many it answers unasked. */
export const AUDIT_PAGE_MAX = 500;
export const AUDIT_PAGE_DEFAULT = 100;

/** A changed value as a person reads it: "none" for nothing, lists joined, text as is. */
function valueText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "none";
  if (Array.isArray(value)) return value.map(valueText).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * An entry's changes in one line, each field's old and new value: "price 12 -> 14; active true
 * -> false". A creation's field (from nothing) reads as its value alone: "code SPRING5".
 */
export function summariseChanges(
  changes: Record<string, { from: unknown; to: unknown }> | undefined,
): string {
  if (!changes) return "";
  return Object.entries(changes).map(([field, { from, to }]) =>
    from === null || from === undefined
      ? `${field} ${valueText(to)}`
      : `${field} ${valueText(from)} -> ${valueText(to)}`
  ).join("; ");
}
