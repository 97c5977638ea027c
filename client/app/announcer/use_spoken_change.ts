import { useEffect, useRef } from "react";
import { announce } from "./announcements.ts";

/**
 * How long a changed value must stand before it is said: a quantity pressed three times, or a
 * total recomputed as the server answers, is said once, as it ends.
 */
export const SPOKEN_CHANGE_DELAY_MS = 700;

/**
 * Says `text` politely when it changes (a total after a quantity, a promo or a switch), once it
 * has stood for a moment; never the first value (the page says that itself) and never a value
 * that came back to what was last said. `null`: nothing to say yet (still loading).
 */
export function useSpokenChange(text: string | null): void {
  const said = useRef<string | null>(null);
  useEffect(() => {
    if (text === null) return;
    if (said.current === null) {
      said.current = text;
      return;
    }
    if (text === said.current) return;
    const timer = setTimeout(() => {
      said.current = text;
      announce(text);
    }, SPOKEN_CHANGE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
}
