import type { SwitchChoice } from "./switch_choice.ts";
import { SwitchCard } from "./switch_card.tsx";
import { NotifyMe } from "../../app/components/notify_me.tsx";

/** The picker grid; the caller passes the switches already filtered and sorted. */
export function SwitchGrid({ switches, isSelected, onToggle }: {
  switches: SwitchChoice[];
  isSelected: (id: number) => boolean;
  onToggle: (sw: SwitchChoice) => void;
}) {
  return (
    <ul className="switch-grid" aria-label="Switches">
      {switches.map((sw) => (
        <li key={sw.id}>
          <SwitchCard sw={sw} selected={isSelected(sw.id)} onToggle={onToggle} />
          {!sw.available && (
            <NotifyMe target={{ switchId: sw.id }} name={`${sw.brand} ${sw.name}`} compact />
          )}
        </li>
      ))}
    </ul>
  );
}
