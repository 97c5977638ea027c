import { useMemo, useState } from "react";
import type { SwitchChoice } from "./switch_choice.ts";

/** The shopper's chosen switches, in the order they were picked. */
export interface Selection {
  ids: number[];
  /** The chosen switches with their data (for prices and the summary list). */
  chosen: SwitchChoice[];
  has: (id: number) => boolean;
  /** Deselects a chosen switch, or selects an available one while there is room. */
  toggle: (sw: SwitchChoice) => void;
  remove: (id: number) => void;
  /** Adds these switches (the available ones, up to the limit), as "fill the rest" does. */
  addAll: (ids: number[]) => void;
  clear: () => void;
}

/**
 * Selection capped at `limit`. Picking past the cap calls `onLimit` instead (the page shows its
 * own message). Lowering the limit does not trim the selection: the spec keeps the picks and
 * shows the counter in red, so the shopper decides which to drop.
 */
export function useSelection(
  switches: SwitchChoice[] | null,
  limit: number,
  onLimit: () => void,
): Selection {
  const [ids, setIds] = useState<number[]>([]);
  const chosen = useMemo(() => {
    const byId = new Map((switches ?? []).map((sw) => [sw.id, sw]));
    return ids.map((id) => byId.get(id)).filter((sw): sw is SwitchChoice => sw !== undefined);
  }, [switches, ids]);

  function toggle(sw: SwitchChoice) {
    if (ids.includes(sw.id)) {
      setIds(ids.filter((id) => id !== sw.id));
      return;
    }
    if (!sw.available) return;
    if (ids.length >= limit) {
      onLimit();
      return;
    }
    setIds([...ids, sw.id]);
  }

  return {
    ids,
    chosen,
    has: (id) => ids.includes(id),
    toggle,
    remove: (id) => setIds(ids.filter((other) => other !== id)),
    addAll: (more) => setIds([...ids, ...more.filter((id) => !ids.includes(id))].slice(0, limit)),
    clear: () => setIds([]),
  };
}
