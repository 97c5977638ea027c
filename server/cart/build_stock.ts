/**
 * What the configurators are told of stock (`GET /api/build-stock`): the free units of every
 * switch still sold and of every component, and what the shopper's cart would already take.
 * Read from the per-stock-version snapshots, so a page load costs no stock read of its own.
 * Advisory: the checkout's reservation decides a sale.
 */
import { COMPONENTS, type StockKey, switchIdOf, switchKey } from "../../shared/bom.ts";
import type { BuildStockView } from "../../shared/api_types.ts";
import { switchSnapshot } from "../catalog/store.ts";
import { stockSnapshot } from "../stock/store.ts";
import type { Clock } from "../clock.ts";
import { findCart } from "./store.ts";
import { priceLines } from "./view.ts";

interface Deps {
  kv: Deno.Kv;
  clock: Clock;
  imageBase: string;
}

/** What a cart's lines would use, per stock key (the configurators count it as taken). */
async function cartUnits(
  deps: Deps,
  cartId: string,
): Promise<Map<StockKey, number>> {
  const units = new Map<StockKey, number>();
  const cart = await findCart(deps.kv, deps.clock, cartId).catch(() => null);
  if (!cart?.value) return units;
  for (const line of await priceLines(deps.kv, cart.value.lines, deps.imageBase)) {
    for (const [key, n] of line.bom) units.set(key, (units.get(key) ?? 0) + n * line.quantity);
  }
  return units;
}

/** The configurators' view of stock, with what the cart `cartId` (if any) would take. */
export async function buildStockView(
  deps: Deps,
  cartId: string | undefined,
): Promise<BuildStockView> {
  const { kv } = deps;
  const [stock, switches, inCart] = await Promise.all([
    stockSnapshot(kv),
    switchSnapshot(kv),
    cartId ? cartUnits(deps, cartId) : null,
  ]);
  const view: BuildStockView = {
    switches: [...switches.values()].filter((s) => !s.retired).map((s) => ({
      id: s.id,
      available: stock.get(switchKey(s.id)) ?? 0,
    })),
    components: COMPONENTS.map((name) => ({ name, available: stock.get(name) ?? 0 })),
  };
  if (inCart) {
    view.inCart = {
      switches: [...inCart].flatMap(([key, units]) => {
        const id = switchIdOf(key);
        return id === null ? [] : [{ id, units }];
      }),
      components: [...inCart].flatMap(([key, units]) =>
        switchIdOf(key) === null ? [{ name: key, units }] : []
      ),
    };
  }
  return view;
}
