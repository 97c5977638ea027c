import { useMemo, useState } from "react";
import { toast } from "react-hot-toast";
import { formatDollars } from "../../app/money.ts";
import { reportAdminError } from "./admin_api.ts";
import { SectionStatus, useSectionData } from "./use_section.tsx";
import type { AdminSwitchView } from "../../../shared/api_types.ts";
import { fetchCatalogSwitches, isConflict, updateSwitch } from "./catalog_api.ts";
import { filterCatalogSwitches, type StatusFilter } from "./catalog_format.ts";
import { ConflictNotice } from "./conflict_notice.tsx";
import { Dialog } from "./dialog.tsx";
import { SwitchForm } from "./switch_form.tsx";

/**
 * Switches: every one, retired ones included, in a table with a search and filters (type,
 * active or retired); a form to add one; each row's Edit opens a dialog with every field, and
 * Retire or Put back on sale acts at once.
 */
export function SwitchesSection() {
  const section = useSectionData(fetchCatalogSwitches, "The switches could not be loaded");
  const { data: switches, setData: setSwitches, load } = section;
  const [query, setQuery] = useState("");
  const [type, setType] = useState("");
  const [status, setStatus] = useState<StatusFilter>("all");
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);

  const types = useMemo(
    () => [...new Set((switches ?? []).flatMap((s) => s.type.toLowerCase().split(/\s+/)))].sort(),
    [switches],
  );
  const shown = useMemo(
    () => filterCatalogSwitches(switches ?? [], { query, type, status }),
    [switches, query, type, status],
  );

  if (!switches) {
    return <SectionStatus section={section} loading="Loading switches..." />;
  }

  function replace(saved: AdminSwitchView) {
    setSwitches((list) => {
      const rest = (list ?? []).filter((s) => s.id !== saved.id);
      return [...rest, saved].sort((a, b) =>
        a.brand.localeCompare(b.brand) || a.name.localeCompare(b.name)
      );
    });
  }

  async function toggleRetired(sw: AdminSwitchView) {
    setBusyId(sw.id);
    try {
      const saved = await updateSwitch(sw.id, { retired: !sw.retired, version: sw.version });
      replace(saved);
      setConflict(null);
      toast.success(
        saved.retired
          ? `${saved.brand} ${saved.name} retired`
          : `${saved.brand} ${saved.name} is on sale again`,
      );
    } catch (err) {
      if (isConflict(err)) setConflict(err.message);
      reportAdminError(err, "The switch could not be saved", [400, 404, 409]);
    } finally {
      setBusyId(null);
    }
  }

  const editedSwitch = switches.find((s) => s.id === editing) ?? null;
  const retiredCount = switches.filter((s) => s.retired).length;

  return (
    <section className="admin-catalog-section" aria-labelledby="catalog-switches-heading">
      <div className="admin-section-head">
        <h2 id="catalog-switches-heading">
          Switches{" "}
          <span className="admin-count">
            ({switches.length}, {retiredCount} retired)
          </span>
        </h2>
        <button type="button" className="button" onClick={() => setAdding(true)}>
          Add a switch
        </button>
      </div>
      {conflict && (
        <ConflictNotice
          message={conflict}
          what="the switches"
          onReload={async () => {
            if (await load()) setConflict(null);
          }}
        />
      )}
      <div className="admin-filters">
        <div className="field">
          <label htmlFor="catalog-switch-search">Search switches</label>
          <input
            id="catalog-switch-search"
            type="search"
            placeholder="Name or brand"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="catalog-switch-type">Type</label>
          <select
            id="catalog-switch-type"
            value={type}
            onChange={(e) => setType(e.target.value)}
          >
            <option value="">All types</option>
            {types.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="catalog-switch-status">Status</label>
          <select
            id="catalog-switch-status"
            value={status}
            onChange={(e) => setStatus(e.target.value as StatusFilter)}
          >
            <option value="all">On sale and retired</option>
            <option value="active">On sale</option>
            <option value="retired">Retired</option>
          </select>
        </div>
      </div>
      <p className="muted small" role="status">{shown.length} of {switches.length} shown</p>
      <div className="admin-table-wrap admin-catalog-wrap">
        <table className="admin-table admin-catalog-table">
          <caption className="visually-hidden">Every switch of the catalogue</caption>
          <thead>
            <tr>
              <th scope="col">Switch</th>
              <th scope="col">Type</th>
              <th scope="col">Force</th>
              <th scope="col">Extra price</th>
              <th scope="col">Stock</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((sw) => {
              const label = `${sw.brand} ${sw.name}`;
              return (
                <tr
                  key={sw.id}
                  data-switch-id={sw.id}
                  className={sw.retired ? "retired" : undefined}
                >
                  <th scope="row">
                    <span className="admin-switch-name">{sw.name}</span>
                    <span className="muted small">{sw.brand}</span>
                  </th>
                  <td>{sw.type}</td>
                  <td>{sw.force}</td>
                  <td className="admin-money">{formatDollars(sw.extraPrice)}</td>
                  <td>{sw.stock}</td>
                  <td>
                    <span
                      className={`admin-status ${sw.retired ? "status-retired" : "status-on-sale"}`}
                    >
                      {sw.retired ? "Retired" : "On sale"}
                    </span>
                  </td>
                  <td>
                    <div className="admin-row-buttons">
                      <button
                        type="button"
                        className="button secondary small-button"
                        aria-label={`Edit ${label}`}
                        onClick={() => setEditing(sw.id)}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="button secondary small-button"
                        // Focusable while it works, so the focus stays on the row.
                        aria-disabled={busyId === sw.id || undefined}
                        aria-label={sw.retired ? `Put ${label} back on sale` : `Retire ${label}`}
                        onClick={() => {
                          if (busyId !== sw.id) toggleRetired(sw);
                        }}
                      >
                        {sw.retired ? "Unretire" : "Retire"}
                      </button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {adding && (
        <Dialog title="Add a switch" onClose={() => setAdding(false)} wide>
          <SwitchForm
            record={null}
            reload={() => Promise.resolve(null)}
            onSaved={(saved) => {
              replace(saved);
              setAdding(false);
            }}
          />
        </Dialog>
      )}
      {editedSwitch && (
        <Dialog
          title={`Edit ${editedSwitch.brand} ${editedSwitch.name}`}
          onClose={() => setEditing(null)}
          wide
        >
          <SwitchForm
            key={editedSwitch.id}
            record={editedSwitch}
            reload={async () => (await load())?.find((s) => s.id === editedSwitch.id) ?? null}
            onImageSaved={replace}
            onSaved={(saved) => {
              replace(saved);
              setEditing(null);
            }}
          />
        </Dialog>
      )}
    </section>
  );
}
