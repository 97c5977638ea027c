import { useState } from "react";
import { HistorySection } from "./history_section.tsx";
import { DropsSection } from "./drops_section.tsx";
import { ItemsSection } from "./items_section.tsx";
import { NoticeSection } from "./notice_section.tsx";
import { PacksSection } from "./packs_section.tsx";
import { PromosSection } from "./promos_section.tsx";
import { RestockSection } from "./restock_section.tsx";
import { SwitchesSection } from "./switches_section.tsx";
import { Tabs } from "./tabs.tsx";

const SECTIONS = [
  { id: "switches", label: "Switches" },
  { id: "packs", label: "Packs" },
  { id: "items", label: "Items" },
  { id: "drops", label: "Drops" },
  { id: "restock", label: "Restock" },
  { id: "promos", label: "Promo codes" },
  { id: "notice", label: "Notice" },
  { id: "history", label: "History" },
] as const;

type SectionId = typeof SECTIONS[number]["id"];

/**
 * The Catalogue tab: the owner's switches, packs, items, drops, promo codes and site notice,
 * edited live (the shop follows at once), the restock list, and the history of every edit. Each section loads its data
 * when opened, so the history is fresh after an edit elsewhere.
 */
export function CatalogTab() {
  const [active, setActive] = useState<SectionId>("switches");
  return (
    <div className="admin-catalog">
      <Tabs
        label="Catalogue sections"
        idPrefix="catalog"
        tabs={SECTIONS}
        active={active}
        onChange={setActive}
        className="admin-subtabs"
      >
        {(id) => (
          <>
            {id === "switches" && <SwitchesSection />}
            {id === "packs" && <PacksSection />}
            {id === "items" && <ItemsSection />}
            {id === "drops" && <DropsSection />}
            {id === "restock" && <RestockSection />}
            {id === "promos" && <PromosSection />}
            {id === "notice" && <NoticeSection />}
            {id === "history" && <HistorySection />}
          </>
        )}
      </Tabs>
    </div>
  );
}
