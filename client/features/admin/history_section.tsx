import { useMemo, useState } from "react";
import { SectionStatus, useSectionData } from "./use_section.tsx";
import { fetchHistory } from "./catalog_api.ts";
import { historyRows } from "./catalog_format.ts";

/** What the history can be narrowed to. */
const KINDS = [
  { id: "", label: "Everything" },
  { id: "switch", label: "Switches" },
  { id: "pack", label: "Packs" },
  { id: "item", label: "Items" },
  { id: "promo", label: "Promo codes" },
  { id: "notice", label: "Notice" },
] as const;

/** History: every catalogue, promo and notice edit, newest first, narrowed by what was edited. */
export function HistorySection() {
  const section = useSectionData(fetchHistory, "The history could not be loaded");
  const { data: edits, load } = section;
  const [kind, setKind] = useState("");

  const rows = useMemo(
    () => historyRows((edits ?? []).filter((e) => kind === "" || e.kind === kind)),
    [edits, kind],
  );

  if (!edits) {
    return <SectionStatus section={section} loading="Loading the history..." />;
  }

  return (
    <section className="admin-catalog-section" aria-labelledby="catalog-history-heading">
      <div className="admin-section-head">
        <h2 id="catalog-history-heading">History</h2>
        <div className="admin-toolbar">
          <label htmlFor="history-kind">Show</label>
          <select id="history-kind" value={kind} onChange={(e) => setKind(e.target.value)}>
            {KINDS.map((k) => <option key={k.id} value={k.id}>{k.label}</option>)}
          </select>
          <button type="button" className="button secondary small-button" onClick={load}>
            Refresh
          </button>
        </div>
      </div>
      {rows.length === 0
        ? <p className="muted">No edits yet.</p>
        : (
          <div className="admin-table-wrap admin-catalog-wrap">
            <table className="admin-table admin-catalog-table admin-history-table">
              <caption className="visually-hidden">Catalogue edits, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">What</th>
                  <th scope="col">Field</th>
                  <th scope="col">Old → new</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.key} data-testid="history-row">
                    <td className="small">{row.at}</td>
                    <td>
                      <span className="admin-block">{row.what}</span>
                      <span className="muted small admin-block">{row.action}</span>
                    </td>
                    <td>{row.field}</td>
                    <td className="admin-history-change">
                      {row.field === "—" ? "" : (
                        <>
                          <del>{row.from}</del>
                          <span aria-hidden="true">→</span>
                          <span className="visually-hidden">changed to</span>
                          <ins>{row.to}</ins>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </section>
  );
}
