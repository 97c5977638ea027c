import { useEffect, useMemo, useRef, useState } from "react";
import { toast } from "react-hot-toast";
import type { LiveStock } from "./use_build_stock.ts";
import { addConfiguration } from "./add_configuration.ts";
import { ticketForSwitch } from "../../app/drops/drop_places.ts";
import { type Selection, useSelection } from "./use_selection.ts";
import { type SwitchesState, useSwitches } from "./use_switches.ts";
import type { SwitchChoice } from "./switch_choice.ts";
import { type SwitchDrops, useSwitchDrops } from "./use_switch_drops.ts";

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
  /** The switch drops (their panels stand above the list). */
  drops: SwitchDrops;
  /** Picks or unpicks a switch; a switch locked in a drop is refused and `refusedId` set. */
  toggle: (sw: SwitchChoice) => void;
  /** The switch whose pick was just refused for its drop (its card says why); null otherwise. */
  refusedId: number | null;
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
  const drops = useSwitchDrops();
  // Each switch with what is left for this shopper (none left is out of stock) and its drop: a
  // switch locked in a drop is not available, so neither "Fill the rest" nor a link picks it.
  const withStock = useMemo(
    () =>
      loaded.switches && (stock || drops.bySwitch.size > 0)
        ? loaded.switches.map((sw) => {
          const left = stock ? stock.switchUnits(sw.id) : sw.left;
          const drop = drops.bySwitch.get(sw.id);
          const inStock = sw.available && (left === undefined || left > 0);
          return { ...sw, left, drop, available: inStock && !drop?.locked };
        })
        : loaded.switches,
    [loaded.switches, stock, drops.bySwitch],
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
    if (
      applied.current || !withStock ||
      (shared.switchIds.length > 0 && (!stock || !drops.ready))
    ) return;
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
    const inDrop = soldOut.filter((id) => byId.get(id)!.drop?.locked);
    const usable = shared.switchIds.filter((id) => byId.get(id)?.available);
    if (unknown.length) {
      dropped.push(
        `${unknown.length} ${unknown.length === 1 ? "switch" : "switches"} no longer sold`,
      );
    }
    for (const id of soldOut) {
      const sw = byId.get(id)!;
      dropped.push(
        `${sw.brand} ${sw.name} (${
          inDrop.includes(id) ? "in a limited drop: pick it once it is your turn" : "out of stock"
        })`,
      );
    }
    if (usable.length > limit) dropped.push(`${usable.length - limit} switches past ${limit}`);
    selection.addAll(usable.slice(0, limit));
    setNotice(
      dropped.length > 0
        ? `The shared build is open, without ${dropped.join(", ")}.`
        : "The shared build is open.",
    );
  }, [withStock, stock, shared, limit, selection, drops.ready]);

  const [refusedId, setRefusedId] = useState<number | null>(null);
  function toggle(sw: SwitchChoice) {
    if (sw.drop?.locked && !selection.has(sw.id)) {
      setRefusedId(sw.id);
      return;
    }
    setRefusedId(null);
    selection.toggle(sw);
  }

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
    drops,
    toggle,
    refusedId,
    extras: selection.chosen.map((sw) => sw.extraPriceCents),
    add,
  };
}
