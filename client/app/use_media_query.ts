import { useSyncExternalStore } from "react";

/**
 * Whether a media query matches, following changes while the page is open. The server cannot
 * know (nor can hydration, which must match its HTML): both say false, and the browser's answer
 * follows at once.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const media = matchMedia(query);
      media.addEventListener("change", onChange);
      return () => media.removeEventListener("change", onChange);
    },
    () => matchMedia(query).matches,
    () => false,
  );
}
