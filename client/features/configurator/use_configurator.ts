import { toast } from "react-hot-toast";
import { addConfiguration } from "./add_configuration.ts";
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
  add: () => Promise<void>;
}

/** The state and cart flow the custom tester and the fidget cube share. */
export function useConfigurator({ limit, limitMessage, order }: {
  limit: number;
  /** Shown when the shopper picks past the limit; each page words it its own way. */
  limitMessage: string;
  order: ConfiguratorOrder;
}): Configurator {
  const switches = useSwitches();
  const selection = useSelection(
    switches.switches,
    limit,
    // One toast id, so repeated refusals replace each other instead of stacking up.
    () => toast.error(limitMessage, { id: "switch-limit" }),
  );

  async function add() {
    const added = await addConfiguration({
      ...order,
      switches: selection.ids.map((id) => ({ id, quantity: 1 })),
      quantity: 1,
    });
    // Kept on failure, so the shopper can try again without picking everything anew.
    if (added) selection.clear();
  }

  return {
    switches,
    selection,
    extras: selection.chosen.map((sw) => sw.extraPriceCents),
    add,
  };
}
