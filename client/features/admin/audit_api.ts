/** The Audit tab's calls: a page of the log, the people and keys in it, and its CSV. */
import type { AuditActorView, AuditEntryView } from "../../../shared/api_types.ts";
import type { AuditKind } from "../../../shared/audit.ts";
import { adminApi } from "./admin_api.ts";

/** What the Audit tab filters by: an actor's id and a kind (empty: everyone, every kind). */
export interface AuditFilters {
  actor: string;
  kind: AuditKind | "";
}

/** The filters as query fields, empty ones left out rather than sent blank. */
function filterQuery(filters: AuditFilters) {
  return { actor: filters.actor || null, kind: filters.kind || null };
}

/** A page of the log, newest first, and the cursor of the next (older) page when there is one. */
export async function fetchAudit(
  filters: AuditFilters,
  before: string | null = null,
  limit = 100,
): Promise<{ entries: AuditEntryView[]; nextCursor: string | null }> {
  let nextCursor: string | null = null;
  const entries = await adminApi<AuditEntryView[]>("/api/admin/audit", {
    query: { ...filterQuery(filters), limit, before },
    onHeaders: (h) => {
      nextCursor = h.get("X-Next-Cursor");
    },
  });
  return { entries, nextCursor };
}

/** Everyone with an entry in the log, for the person filter. */
export function fetchAuditActors(): Promise<AuditActorView[]> {
  return adminApi<AuditActorView[]>("/api/admin/audit/actors");
}

/** The filtered log as a CSV file (its newest 500 entries). */
export function fetchAuditCsv(filters: AuditFilters): Promise<Blob> {
  return adminApi<Blob>("/api/admin/audit.csv", {
    as: "blob",
    headers: { Accept: "text/csv" },
    query: filterQuery(filters),
  });
}
