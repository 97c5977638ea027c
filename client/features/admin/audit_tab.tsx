import { type FormEvent, useCallback, useState } from "react";
import type { AuditActorView, AuditEntryView } from "../../../shared/api_types.ts";
import {
  AUDIT_KIND_LABELS,
  AUDIT_KINDS,
  type AuditKind,
  summariseChanges,
} from "../../../shared/audit.ts";
import { reportAdminError } from "./admin_api.ts";
import { type AuditFilters, fetchAudit, fetchAuditActors, fetchAuditCsv } from "./audit_api.ts";
import { SectionStatus, useSectionData } from "./use_section.tsx";
import { saveFile } from "../../app/save_file.ts";

const EVERYONE: AuditFilters = { actor: "", kind: "" };

/** When, in the owner's own time zone (the browser's). */
function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}

/** Who, as the owner reads it: a key is said to be one. */
function who(actor: AuditEntryView["actor"]): string {
  return actor.kind === "key" ? `${actor.name} (API key)` : actor.name;
}

/**
 * The Audit tab (the owner's): who did what, when, from where and what changed, newest first;
 * filtered by person and kind, older pages on demand, and the filtered log as a CSV file.
 */
export function AuditTab() {
  const [filters, setFilters] = useState<AuditFilters>(EVERYONE);
  const [draft, setDraft] = useState<AuditFilters>(EVERYONE);
  const [actors, setActors] = useState<AuditActorView[]>([]);
  const [more, setMore] = useState<{ entries: AuditEntryView[]; nextCursor: string | null }>();
  const [busy, setBusy] = useState<"older" | "csv" | null>(null);
  const load = useCallback(async () => {
    const [page, seen] = await Promise.all([fetchAudit(filters), fetchAuditActors()]);
    setActors(seen);
    setMore(undefined);
    // The choice this page answers: the count says "matching" of what is shown, not of a choice
    // whose answer is still on its way.
    return { ...page, filters };
  }, [filters]);
  const section = useSectionData(load, "The audit log could not be loaded");
  // Older pages are kept apart from the first, which a Refresh loads again.
  const entries = [...(section.data?.entries ?? []), ...(more?.entries ?? [])];
  const nextCursor = more ? more.nextCursor : section.data?.nextCursor ?? null;

  function show(event: FormEvent) {
    event.preventDefault();
    setFilters(draft);
  }

  async function older() {
    if (busy || !nextCursor) return;
    setBusy("older");
    try {
      // The cursor belongs to the shown page's choice, which a newer choice may not have replaced yet.
      const page = await fetchAudit(section.data?.filters ?? filters, nextCursor);
      setMore({
        entries: [...(more?.entries ?? []), ...page.entries],
        nextCursor: page.nextCursor,
      });
    } catch (err) {
      reportAdminError(err, "Older entries could not be loaded");
    } finally {
      setBusy(null);
    }
  }

  async function exportCsv() {
    if (busy) return;
    setBusy("csv");
    try {
      saveFile(await fetchAuditCsv(filters), "audit_log.csv");
    } catch (err) {
      reportAdminError(err, "The audit log could not be exported", [400]);
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="admin-audit" aria-labelledby="audit-heading">
      <div className="admin-section-head">
        <h2 id="audit-heading">Audit log</h2>
        <button type="button" className="link-button" onClick={section.load}>Refresh</button>
      </div>
      <form className="admin-order-search" role="search" aria-label="Audit log" onSubmit={show}>
        <label>
          Person
          <select
            name="actor"
            value={draft.actor}
            onChange={(e) => setDraft({ ...draft, actor: e.target.value })}
          >
            <option value="">Everyone</option>
            {actors.map((a) => <option key={a.id} value={a.id}>{who(a)}</option>)}
          </select>
        </label>
        <label>
          Kind
          <select
            name="kind"
            value={draft.kind}
            onChange={(e) => setDraft({ ...draft, kind: e.target.value as AuditKind | "" })}
          >
            <option value="">Every kind</option>
            {AUDIT_KINDS.map((k) => <option key={k} value={k}>{AUDIT_KIND_LABELS[k]}</option>)}
          </select>
        </label>
        <button type="submit" className="button secondary">Show</button>
        <button
          type="button"
          className="button secondary"
          onClick={exportCsv}
          aria-disabled={busy !== null}
        >
          Export CSV
        </button>
      </form>
      {section.data === null
        ? <SectionStatus section={section} loading="Loading the audit log..." />
        : (
          <AuditList
            entries={entries}
            filtered={section.data.filters.actor !== "" || section.data.filters.kind !== ""}
          />
        )}
      {section.data !== null && nextCursor && (
        <button
          type="button"
          className="button secondary"
          onClick={older}
          aria-disabled={busy !== null}
        >
          {busy === "older" ? "Loading..." : "Older"}
        </button>
      )}
    </section>
  );
}

function AuditList({ entries, filtered }: { entries: AuditEntryView[]; filtered: boolean }) {
  return (
    <>
      <p className="admin-orders-count" role="status">
        {entries.length === 1 ? "1 entry" : `${entries.length} entries`}
        {filtered ? " matching" : ""}, newest first
      </p>
      {entries.length === 0
        ? <p className="muted">Nothing recorded{filtered ? " for this choice" : " yet"}.</p>
        : (
          <div className="admin-table-wrap">
            <table className="admin-table admin-audit-table">
              <caption className="visually-hidden">Audit log, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">From</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Changes</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr key={e.id} data-testid="audit-entry">
                    <td data-label="When">
                      <time dateTime={e.at}>{when(e.at)}</time>
                    </td>
                    <td data-label="Who">{who(e.actor)}</td>
                    <td data-label="From">{e.from}</td>
                    <td data-label="Action">{e.action}</td>
                    <td data-label="Target">
                      {e.target ?? ""}
                      {e.label ? ` (${e.label})` : ""}
                    </td>
                    <td data-label="Changes">
                      {[summariseChanges(e.changes), e.detail ?? ""].filter(Boolean).join("; ")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </>
  );
}
