import { useState } from "react";
import { Dialog } from "./dialog.tsx";
import { DropCard } from "./drop_card.tsx";
import { DropForm } from "./drop_form.tsx";
import { fetchDrops } from "./drops_api.ts";
import { SectionStatus, useSectionData } from "./use_section.tsx";

/**
 * Drops: limited runs sold through a waiting room. Schedule one, watch it live, read its report
 * afterwards (the owner's alone, as the whole Catalogue tab is).
 */
export function DropsSection() {
  const section = useSectionData(fetchDrops, "The drops could not be loaded");
  const { data: drops, load } = section;
  const [adding, setAdding] = useState(false);

  if (!drops) return <SectionStatus section={section} loading="Loading drops..." />;
  return (
    <section className="admin-catalog-section" aria-labelledby="catalog-drops-heading">
      <div className="admin-section-head">
        <h2 id="catalog-drops-heading">Drops</h2>
        <button type="button" className="button" onClick={() => setAdding(true)}>
          Schedule a drop
        </button>
      </div>
      <p className="muted small">
        A drop sells a set number of units from a set time: shoppers who arrive in the first window
        get a random place in line, then each is let in to check out in turn.
      </p>
      {drops.length === 0 ? <p className="muted">No drops yet.</p> : (
        <div className="admin-drops">
          {drops.map((drop) => <DropCard key={drop.id} first={drop} onChanged={load} />)}
        </div>
      )}
      {adding && (
        <Dialog title="Schedule a drop" onClose={() => setAdding(false)} wide>
          <DropForm
            onScheduled={() => {
              setAdding(false);
              load();
            }}
          />
        </Dialog>
      )}
    </section>
  );
}
