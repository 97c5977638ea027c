import { useCallback, useEffect, useState } from "react";
import type { SwitchView } from "../../../shared/api_types.ts";
import { api } from "../../app/api.ts";
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
  const [switches, setSwitches] = useState<SwitchChoice[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setFailed(false);
    api<SwitchView[]>("/api/switches", { signal: controller.signal })
      .then((list) => setSwitches(list.map(toSwitchChoice)))
      .catch((err) => {
        if (controller.signal.aborted) return;
        console.warn("The switch list could not be loaded.", err);
        setFailed(true);
      });
    return () => controller.abort();
  }, [attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { switches, failed, retry };
}
