import type { StateCreator } from "zustand";
import { readLocal, writeLocal } from "./storage.ts";

/** The stored theme choice; "system" follows the OS. */
export type ThemeChoice = "light" | "dark" | "system";

/**
 * Where the explicit choice is kept, namespaced to this shop. The server's theme script reads it
 * too, before the first paint (server/ssr/theme_script.ts).
 */
export const THEME_KEY = "switch-tester-shop:theme";

/** Theme state. */
export interface ThemeSlice {
  theme: ThemeChoice;
  setTheme: (theme: ThemeChoice) => void;
}

/** The choice this browser saved ("system" when none). */
export function storedTheme(): ThemeChoice {
  const stored = readLocal(THEME_KEY);
  return stored === "light" || stored === "dark" ? stored : "system";
}

/** Theme slice of the store. */
export const createThemeSlice: StateCreator<ThemeSlice, [], [], ThemeSlice> = (set) => ({
  theme: "system",
  setTheme: (theme) => {
    writeLocal(THEME_KEY, theme);
    set({ theme });
  },
});
