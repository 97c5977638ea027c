import { useEffect, useState } from "react";
import { useStore } from "../store/store.ts";

const DARK_QUERY = "(prefers-color-scheme: dark)";

/** The theme in effect: the explicit choice, or the OS preference when the choice is system. */
export function useEffectiveTheme(): "light" | "dark" {
  const theme = useStore((s) => s.theme);
  const [systemDark, setSystemDark] = useState(() => matchMedia(DARK_QUERY).matches);
  useEffect(() => {
    const query = matchMedia(DARK_QUERY);
    const onChange = () => setSystemDark(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return theme === "system" ? (systemDark ? "dark" : "light") : theme;
}

/** Applies the effective theme to the document root, where the CSS variables hang. */
export function useApplyTheme(): void {
  const effective = useEffectiveTheme();
  useEffect(() => {
    document.documentElement.dataset.theme = effective;
    document.documentElement.style.colorScheme = effective;
  }, [effective]);
}
