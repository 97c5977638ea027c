import { useEffect, useRef } from "react";
import { useStore } from "../store/store.ts";
import { useMediaQuery } from "../use_media_query.ts";

/**
 * The theme in effect: the explicit choice, or the OS preference when the choice is system. The
 * server cannot know the OS preference, so pages render as light there and while hydrating;
 * the theme script (server/ssr/theme_script.ts) has already painted the right colours.
 */
export function useEffectiveTheme(): "light" | "dark" {
  const theme = useStore((s) => s.theme);
  const systemDark = useMediaQuery("(prefers-color-scheme: dark)");
  return theme === "system" ? (systemDark ? "dark" : "light") : theme;
}

/**
 * Applies the effective theme to the document root, where the CSS variables hang, whenever it
 * changes. Not on the first render: the theme script set it before the first paint, and a
 * hydrating page's first render has the server's light theme, which must not be painted.
 */
export function useApplyTheme(): void {
  const effective = useEffectiveTheme();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.documentElement.dataset.theme = effective;
    document.documentElement.style.colorScheme = effective;
  }, [effective]);
}
