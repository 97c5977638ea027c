import { api } from "./api.ts";
import { useApiRequest } from "./use_request.ts";
import type { AvailabilityView } from "../../shared/api_types.ts";

/**
 * Availability of a tester or item by id, checked on load. A failed check counts as unavailable
 * (docs/product.md#catalogue-api) and is only logged. null while the check runs.
 */
export function useAvailability(kind: "testers" | "items", id: number): boolean | null {
  const path = `/api/${kind}/${id}/availability`;
  const check = useApiRequest(path, isAvailable, async (signal) => {
    try {
      return await api<AvailabilityView>(path, { signal });
    } catch (err) {
      if (!signal.aborted) console.warn(`Availability check failed for ${kind} ${id}`, err);
      return { available: false };
    }
  });
  return check.state === "loaded" ? check.data : null;
}

function isAvailable(answer: Pick<AvailabilityView, "available">): boolean {
  return answer.available === true;
}
