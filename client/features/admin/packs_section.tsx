import { useState } from "react";
import { formatDollars } from "../../app/money.ts";
import { SectionStatus, useSectionData } from "./use_section.tsx";
import type { AdminPackView, AdminSwitchView } from "../../../shared/api_types.ts";
import { fetchCatalogPacks, fetchCatalogSwitches } from "./catalog_api.ts";
import { Dialog } from "./dialog.tsx";
import { PackForm } from "./pack_form.tsx";

/** The six themed packs and the switches they may hold. */
interface PacksData {
  packs: AdminPackView[];
  switches: AdminSwitchView[];
}

/**
 * Packs: the six themed packs with title, price, on sale and their switches; Edit opens a
 * dialog with the pack's form.
 */
/** The packs and the switches their forms pick from, read together. */
async function fetchPacksData(): Promise<PacksData> {
  const [packs, switches] = await Promise.all([fetchCatalogPacks(), fetchCatalogSwitches()]);
  return { packs, switches };
}

export function PacksSection() {
  const section = useSectionData(fetchPacksData, "The packs could not be loaded");
  const { data, setData, load } = section;
  const [editing, setEditing] = useState<number | null>(null);

  if (!data) {
    return <SectionStatus section={section} loading="Loading packs..." />;
  }

  const names = new Map(data.switches.map((s) => [s.id, `${s.brand} ${s.name}`]));
  const edited = data.packs.find((p) => p.id === editing) ?? null;

  function replace(saved: AdminPackView) {
    setData((d) => d && { ...d, packs: d.packs.map((p) => (p.id === saved.id ? saved : p)) });
  }

  return (
    <section className="admin-catalog-section" aria-labelledby="catalog-packs-heading">
      <h2 id="catalog-packs-heading">Packs</h2>
      <div className="admin-table-wrap">
        <table className="admin-table admin-catalog-table">
          <caption className="visually-hidden">The themed tester packs</caption>
          <thead>
            <tr>
              <th scope="col">Pack</th>
              <th scope="col">Price</th>
              <th scope="col">Status</th>
              <th scope="col">Switches</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {data.packs.map((pack) => (
              <tr key={pack.id} data-pack-id={pack.id}>
                <th scope="row">
                  <span className="admin-switch-name">{pack.title}</span>
                  <span className="muted small">/testers/{pack.slug}</span>
                </th>
                <td className="admin-money">{formatDollars(pack.basePrice)}</td>
                <td>
                  <span
                    className={`admin-status ${pack.onSale ? "status-on-sale" : "status-retired"}`}
                  >
                    {pack.onSale ? "On sale" : "Not sold"}
                  </span>
                </td>
                <td className="small">
                  {pack.switchIds.map((id) => names.get(id) ?? `#${id}`).join(", ")}
                </td>
                <td>
                  <button
                    type="button"
                    className="button secondary small-button"
                    aria-label={`Edit ${pack.title}`}
                    onClick={() => setEditing(pack.id)}
                  >
                    Edit
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {edited && (
        <Dialog title={`Edit ${edited.title}`} onClose={() => setEditing(null)} wide>
          <PackForm
            key={edited.id}
            record={edited}
            switches={data.switches}
            reload={async () => (await load())?.packs.find((p) => p.id === edited.id) ?? null}
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
