import type { SwitchView } from "../../../shared/api_types.ts";
import { api } from "../../app/api.ts";
import { useApiRequest } from "../../app/use_request.ts";
import { type SwitchChoice, toSwitchChoice } from "./switch_choice.ts";

/** The switch list of a configurator page, with its loading and failure states. */
export interface SwitchesState {
  /** null until the list has loaded. */
  switches: SwitchChoice[] | null;
  /** True when the last load failed; the page shows an inline message with a Retry button. */
  failed: boolean;
  /** Loads the list again after a failure. */
  retry: () => void;
}

/**
 * Loads GET /api/switches once per page visit. A failure is only logged
 * (docs/product.md#shop-messages: switch list errors are only logged), so no error toast appears;
 * the page offers a retry.
 */
export function useSwitches(): SwitchesState {
  const request = useApiRequest("/api/switches", toSwitchChoices, async (signal) => {
    try {
      return await api<SwitchView[]>("/api/switches", { signal });
    } catch (err) {
      if (!signal.aborted) console.warn("The switch list could not be loaded.", err);
      throw err;
    }
  });
  return { switches: request.data, failed: request.state === "failed", retry: request.reload };
}

function toSwitchChoices(switches: SwitchView[]): SwitchChoice[] {
  return switches.map(toSwitchChoice);
}
