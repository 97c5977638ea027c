import { useStore } from "../store/store.ts";
import { useEffectiveTheme } from "./use_theme.ts";

/** Toggles between light and dark and saves the explicit choice. */
export function ThemeButton() {
  const setTheme = useStore((s) => s.setTheme);
  const effective = useEffectiveTheme();
  const next = effective === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      className="icon-button theme-button"
      onClick={() => setTheme(next)}
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
    >
      <span aria-hidden="true">{effective === "dark" ? "☀" : "☾"}</span>
    </button>
  );
}
