import { Link } from "react-router-dom";
import { waitingRoomPath } from "../../app/drops/drop_places.ts";
import type { SwitchChoice } from "./switch_choice.ts";
import { dropRefusal } from "./switch_drop_rules.ts";
import type { SwitchDrop } from "./use_switch_drops.ts";

/**
 * Why a switch in a drop cannot be picked, said right after its card (where the shopper is, and
 * the next stop for the keyboard), with the way in: the drop's waiting room.
 */
export function DropRefusal({ sw, drop }: { sw: SwitchChoice; drop: SwitchDrop }) {
  const name = `${sw.brand} ${sw.name}`;
  return (
    <div className="switch-drop-refusal small" role="alert" data-testid="drop-refusal">
      <p>{dropRefusal(name, drop.phase, drop.place)}</p>
      <Link to={waitingRoomPath(drop.drop.id, drop.drop.target)}>
        {drop.place === "waiting" ? "Back to your place in line" : "Go to the waiting room"}
        <span className="visually-hidden">: {name}</span>
      </Link>
    </div>
  );
}
