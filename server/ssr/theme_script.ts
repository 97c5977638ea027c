import { createHash } from "node:crypto";
import { THEME_KEY } from "../../client/app/store/theme_slice.ts";

/**
 * The one inline script of the shop: it sets the theme (the saved choice, else the system's)
 * on <html> before the stylesheet paints anything, so a dark-theme visitor never sees a light
 * flash. useApplyTheme (client/app/layout/use_theme.ts) keeps it in step afterwards. The CSP
 * allows exactly this text by its hash, so no other inline script can run.
 */
export const THEME_SCRIPT = `(function(){var t;try{t=localStorage.getItem(${
  JSON.stringify(THEME_KEY)
})}catch(e){}if(t!=="light"&&t!=="dark")t=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light";var r=document.documentElement;r.dataset.theme=t;r.style.colorScheme=t})()`;

/** The CSP source that allows THEME_SCRIPT. */
export const THEME_SCRIPT_SOURCE = `'sha256-${
  createHash("sha256").update(THEME_SCRIPT).digest("base64")
}'`;
