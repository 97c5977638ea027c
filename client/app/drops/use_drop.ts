import { useEffect, useState } from "react";
import type { DropPublicView, DropTarget } from "../../../shared/drops.ts";
import { clockOffset } from "./drop_clock.ts";
import { fetchDropFor } from "./drop_api.ts";

/** A drop as the page last heard of it, with the server's clock offset measured at the answer. */
export interface HeardDrop {
  drop: DropPublicView;
  offsetMs: number;
}

/**
 * A target's drop, asked in the browser once the page is up (null: none, or not known yet). Not
 * read by the server's render: the answer carries the server's time, which would make every
 * rendered product page a new one, and a product page must never wait on a drop.
 */
export function useDrop(target: DropTarget | null): HeardDrop | null {
  const [heard, setHeard] = useState<HeardDrop | null>(null);
  const kind = target?.kind;
  const id = target?.id;
  useEffect(() => {
    if (!kind || !id) return;
    const controller = new AbortController();
    fetchDropFor({ kind, id }, controller.signal).then((drop) => {
      if (controller.signal.aborted) return;
      setHeard(drop ? { drop, offsetMs: clockOffset(drop.serverTime, Date.now()) } : null);
    }, (err) => {
      if (!controller.signal.aborted) console.warn("The drop could not be loaded", err);
    });
    return () => controller.abort();
  }, [kind, id]);
  return heard;
}
