import { runwayText } from "./drop_format.ts";
import { fetchRestock } from "./drops_api.ts";
import { SectionStatus, useSectionData } from "./use_section.tsx";

const KINDS = { switch: "Switch", product: "Product", component: "Part" } as const;

/**
 * The restock list: what to print or buy next, ranked by the demand the shop could not fill
 * (units short, people waiting, days of runway), across the whole catalogue.
 */
export function RestockSection() {
  const section = useSectionData(fetchRestock, "The restock list could not be loaded");
  const { data: rows, load } = section;
  if (!rows) return <SectionStatus section={section} loading="Loading the restock list..." />;
  return (
    <section className="admin-catalog-section" aria-labelledby="catalog-restock-heading">
      <div className="admin-section-head">
        <h2 id="catalog-restock-heading">Restock</h2>
        <button type="button" className="button secondary" onClick={load}>Refresh</button>
      </div>
      {rows.length === 0
        ? <p className="muted">Nothing is short: no one is waiting and every shelf lasts.</p>
        : (
          <div className="admin-table-wrap">
            <table className="admin-table">
              <caption className="visually-hidden">
                What to print or buy next, most wanted first
              </caption>
              <thead>
                <tr>
                  <th scope="col">What</th>
                  <th scope="col">Kind</th>
                  <th scope="col">In stock</th>
                  <th scope="col">Units short</th>
                  <th scope="col">People waiting</th>
                  <th scope="col">Runway</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={`${row.kind}-${row.id}`}>
                    <th scope="row">{row.name}</th>
                    <td>{KINDS[row.kind]}</td>
                    <td>{row.stock}</td>
                    <td>{row.unitsShort}</td>
                    <td>{row.peopleWaiting}</td>
                    <td>{runwayText(row.daysOfRunway)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </section>
  );
}
