import { api } from "./api.ts";
import { useRequest } from "./use_request.ts";
import type { AvailabilityView } from "../../shared/api_types.ts";

/**
 * Availability of a tester or item by id, checked on load. A failed check counts as unavailable
 * (docs/product.md#catalogue-api) and is only logged. null while the check runs.
 */
export function useAvailability(kind: "testers" | "items", id: number): boolean | null {
  const check = useRequest(`${kind}/${id}`, async (signal) => {
    try {
      const answer = await api<AvailabilityView>(`/api/${kind}/${id}/availability`, {
        signal,
      });
      return answer.available === true;
    } catch (err) {
      if (!signal.aborted) console.warn(`Availability check failed for ${kind} ${id}`, err);
      return false;
    }
  });
  return check.state === "loaded" ? check.data : null;
}
