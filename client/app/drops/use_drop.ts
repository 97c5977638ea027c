import { useEffect, useState } from "react";
import type { DropPublicView, DropTarget } from "../../../shared/drops.ts";
import { api, ApiError } from "../api.ts";
import { useApiRequest } from "../use_request.ts";
import { clockOffset } from "./drop_clock.ts";
import { dropForPath } from "./drop_api.ts";

/** A drop as the page heard of it, with the server's clock offset once measured in the browser. */
export interface HeardDrop {
  drop: DropPublicView;
  /** null until the page runs in the browser: it then counts from the server's own time. */
  offsetMs: number | null;
}

/**
 * A target's drop (null: none, or not known yet). A server-rendered page is rendered with it and
 * carries it, so the browser does not ask again at load; a product with no drop is told so by a
 * 404 (or an empty answer), which is no failure.
 */
export function useDrop(
  target: DropTarget | null,
  /** The drop as already read with others (the configurators' list): then nothing is asked. */
  known?: DropPublicView,
): HeardDrop | null {
  const path = target && !known ? dropForPath(target) : null;
  const load = useApiRequest(
    path,
    (drop: DropPublicView | null) => drop,
    async (signal) => {
      try {
        return await api<DropPublicView | null>(path!, { signal });
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
  );
  const drop = known ?? (load.state === "loaded" ? load.data : null);
  const [offsetMs, setOffsetMs] = useState<number | null>(null);
  // Measured as the answer reaches the running page (the embedded one: at hydration).
  useEffect(() => setOffsetMs(drop ? clockOffset(drop.serverTime, Date.now()) : null), [drop]);
  return drop ? { drop, offsetMs } : null;
}
