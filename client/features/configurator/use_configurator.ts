import { useEffect, useMemo, useRef, useState } from "react";
import { toast } from "react-hot-toast";
import type { LiveStock } from "./use_build_stock.ts";
import { addConfiguration } from "./add_configuration.ts";
import { ticketForSwitch } from "../../app/drops/drop_places.ts";
import { type Selection, useSelection } from "./use_selection.ts";
import { type SwitchesState, useSwitches } from "./use_switches.ts";

type Payload = Parameters<typeof addConfiguration>[0];

/**
 * What a configurator puts in the cart besides the picked switches. Omitted per member of the
 * union, so a tester order still needs a tester size and a cube order cube keycaps.
 */
export type ConfiguratorOrder = Payload extends unknown ? Omit<Payload, "switches" | "quantity">
  : never;

/** The switch list, the selection capped at `limit`, and adding the configuration to the cart. */
export interface Configurator {
  switches: SwitchesState;
  selection: Selection;
  /** The chosen switches' surcharges, which both pages price from. */
  extras: number[];
  /** What opening a shared link did, for the page to say; null otherwise. */
  notice: string | null;
  add: () => Promise<void>;
}

/** The state and cart flow the custom tester and the fidget cube share. */
export function useConfigurator({ limit, limitMessage, order, stock, shared }: {
  limit: number;
  /** Shown when the shopper picks past the limit; each page words it its own way. */
  limitMessage: string;
  order: ConfiguratorOrder;
  stock: LiveStock | null;
  /** A shared link's switches and what reading it dropped already. */
  shared: { switchIds: number[]; dropped: string[] };
}): Configurator {
  const loaded = useSwitches();
  // Each switch with what is left for this shopper; none left is out of stock.
  const withStock = useMemo(
    () =>
      loaded.switches && stock
        ? loaded.switches.map((sw) => {
          const left = stock.switchUnits(sw.id);
          return { ...sw, left, available: sw.available && left > 0 };
        })
        : loaded.switches,
    [loaded.switches, stock],
  );
  const switches = { ...loaded, switches: withStock };
  const selection = useSelection(
    switches.switches,
    limit,
    // One toast id, so repeated refusals replace each other instead of stacking up.
    () => toast.error(limitMessage, { id: "switch-limit" }),
  );

  // A shared link's switches are picked once the list (and the stock) is known; what cannot be
  // used is dropped and said.
  const [notice, setNotice] = useState<string | null>(null);
  const applied = useRef(false);
  useEffect(() => {
    if (applied.current || !withStock || (shared.switchIds.length > 0 && !stock)) return;
    applied.current = true;
    const dropped = [...shared.dropped];
    if (shared.switchIds.length === 0) {
      if (dropped.length > 0) {
        setNotice(`This link could not be read in full: ${dropped.join(", ")}.`);
      }
      return;
    }
    const byId = new Map(withStock.map((sw) => [sw.id, sw]));
    const unknown = shared.switchIds.filter((id) => !byId.has(id));
    const soldOut = shared.switchIds.filter((id) => byId.get(id) && !byId.get(id)!.available);
    const usable = shared.switchIds.filter((id) => byId.get(id)?.available);
    if (unknown.length) {
      dropped.push(
        `${unknown.length} ${unknown.length === 1 ? "switch" : "switches"} no longer sold`,
      );
    }
    for (const id of soldOut) {
      dropped.push(`${byId.get(id)!.brand} ${byId.get(id)!.name} (out of stock)`);
    }
    if (usable.length > limit) dropped.push(`${usable.length - limit} switches past ${limit}`);
    selection.addAll(usable.slice(0, limit));
    setNotice(
      dropped.length > 0
        ? `The shared build is open, without ${dropped.join(", ")}.`
        : "The shared build is open.",
    );
  }, [withStock, stock, shared, limit, selection]);

  async function add() {
    // A switch in a drop is added with the shopper's place in its line (the server takes only an
    // admitted one); no place, no ticket, and the server says why if the switch needs one.
    const ticket = ticketForSwitch(selection.ids) ?? undefined;
    const added = await addConfiguration({
      ...order,
      switches: selection.ids.map((id) => ({ id, quantity: 1 })),
      quantity: 1,
      ...(ticket ? { ticket } : {}),
    });
    // Kept on failure, so the shopper can try again without picking everything anew.
    if (added) selection.clear();
  }

  return {
    switches,
    selection,
    notice,
    extras: selection.chosen.map((sw) => sw.extraPriceCents),
    add,
  };
}
