import type { StateCreator } from "zustand";
import { readLocal, writeLocal } from "./storage.ts";

/** The stored theme choice; "system" follows the OS. */
export type ThemeChoice = "light" | "dark" | "system";

/** Where the explicit choice is kept, namespaced to this shop. */
const THEME_KEY = "switch-tester-shop:theme";

/** Theme state. */
export interface ThemeSlice {
  theme: ThemeChoice;
  setTheme: (theme: ThemeChoice) => void;
}

function initialTheme(): ThemeChoice {
  const stored = readLocal(THEME_KEY);
  return stored === "light" || stored === "dark" ? stored : "system";
}

/** Theme slice of the store. */
export const createThemeSlice: StateCreator<ThemeSlice, [], [], ThemeSlice> = (set) => ({
  theme: initialTheme(),
  setTheme: (theme) => {
    writeLocal(THEME_KEY, theme);
    set({ theme });
  },
});
