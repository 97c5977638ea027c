import type { PackView } from "../../shared/api_types.ts";
import { api } from "./api.ts";
import { useApiRequest } from "./use_request.ts";

/**
 * The themed packs as the shop sells them now (GET /api/packs): titles, descriptions, prices and
 * whether each is on sale are the owner's, edited in the dashboard, so pages read them from here
 * rather than from the compiled catalogue. Null until loaded, or when loading failed (logged):
 * pages then show the seeded data they were built with.
 */
export function usePacks(): PackView[] | null {
  const request = useApiRequest("/api/packs", (packs: PackView[]) => packs, async (signal) => {
    try {
      return await api<PackView[]>("/api/packs", { signal });
    } catch (err) {
      if (!signal.aborted) console.warn("Tester packs could not be loaded", err);
      throw err;
    }
  });
  return request.data;
}
