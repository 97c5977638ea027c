import { useEffect, useState } from "react";
import { api } from "./api.ts";

/**
 * Availability of a tester or item by id, checked on load. A failed check counts as unavailable
 * (docs/product.md#catalogue-api) and is only logged. null while the check runs.
 */
export function useAvailability(kind: "testers" | "items", id: number): boolean | null {
  const [available, setAvailable] = useState<boolean | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    setAvailable(null);
    api<{ available: boolean }>(`/api/${kind}/${id}/availability`, { signal: controller.signal })
      .then((r) => setAvailable(r.available === true))
      .catch((err) => {
        if (controller.signal.aborted) return;
        console.warn(`Availability check failed for ${kind} ${id}`, err);
        setAvailable(false);
      });
    return () => controller.abort();
  }, [kind, id]);
  return available;
}
