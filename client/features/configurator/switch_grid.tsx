import type { SwitchChoice } from "./switch_choice.ts";
import { SwitchCard } from "./switch_card.tsx";
import { NotifyMe } from "../../app/components/notify_me.tsx";
import { DropRefusal } from "./drop_refusal.tsx";

/** The picker grid; the caller passes the switches already filtered and sorted. */
export function SwitchGrid({ switches, isSelected, onToggle, refusedId }: {
  switches: SwitchChoice[];
  isSelected: (id: number) => boolean;
  onToggle: (sw: SwitchChoice) => void;
  /** The switch whose pick its drop just refused: the sentence and the way in follow its card. */
  refusedId: number | null;
}) {
  return (
    <ul className="switch-grid" aria-label="Switches">
      {switches.map((sw) => (
        <li key={sw.id}>
          <SwitchCard sw={sw} selected={isSelected(sw.id)} onToggle={onToggle} />
          {sw.drop?.locked
            ? refusedId === sw.id && <DropRefusal sw={sw} drop={sw.drop} />
            : !sw.available && (
              <NotifyMe target={{ switchId: sw.id }} name={`${sw.brand} ${sw.name}`} compact />
            )}
        </li>
      ))}
    </ul>
  );
}
