import { useEffect, useRef, useState } from "react";
import { usePageData } from "../../app/page_data.ts";
import type { Component } from "../../../shared/bom.ts";
import type { BuildStockView } from "../../../shared/api_types.ts";
import type { BuildStock } from "../../../shared/build_rules.ts";
import { api } from "../../app/api.ts";
import { useStore } from "../../app/store/store.ts";

const BUILD_STOCK_PATH = "/api/build-stock";

/** The build stock as the configurator counts it: free units less what the cart would use. */
export interface LiveStock extends BuildStock {
  /** Switch ids the API listed (those still on sale). */
  known: ReadonlySet<number>;
}

function liveStock(view: BuildStockView): LiveStock {
  const inCart = new Map<string, number>([
    ...(view.inCart?.switches ?? []).map((s): [string, number] => [`switch:${s.id}`, s.units]),
    ...(view.inCart?.components ?? []).map((c): [string, number] => [c.name, c.units]),
  ]);
  const switches = new Map(view.switches.map((s) => [s.id, s.available]));
  const components = new Map(view.components.map((c) => [c.name, c.available]));
  return {
    known: new Set(switches.keys()),
    component: (name: Component) =>
      Math.max(0, (components.get(name) ?? 0) - (inCart.get(name) ?? 0)),
    switchUnits: (id: number) =>
      Math.max(0, (switches.get(id) ?? 0) - (inCart.get(`switch:${id}`) ?? 0)),
  };
}

/**
 * GET /api/build-stock once per page, and again (a conditional request the browser answers from
 * its cache with a 304 when nothing changed) when the shopper returns to the tab or the cart
 * changes. null until the first answer; a failure keeps the last answer (the checkout decides).
 */
export function useBuildStock(): LiveStock | null {
  const cartId = useStore((s) => s.cartId);
  const badgeCount = useStore((s) => s.badgeCount);
  // A server-rendered page came with the stock as a shopper without a cart sees it.
  const served = usePageData(BUILD_STOCK_PATH) as BuildStockView | undefined;
  const [stock, setStock] = useState<LiveStock | null>(() => served ? liveStock(served) : null);
  const seeded = useRef(served !== undefined);

  useEffect(() => {
    let live = true;
    const load = () =>
      api<BuildStockView>(BUILD_STOCK_PATH, { query: { cartId } })
        .then((view) => live && setStock(liveStock(view)))
        .catch((err) => console.warn("The build stock could not be loaded", err));
    // The served stock holds for a shopper without a cart; one with a cart asks with it.
    const servedHolds = seeded.current && cartId === null;
    seeded.current = false;
    if (!servedHolds) load();
    const onVisible = () => {
      if (document.visibilityState === "visible") load();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      live = false;
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [cartId, badgeCount]);

  return stock;
}
