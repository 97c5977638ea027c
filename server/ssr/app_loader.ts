import { createHash } from "node:crypto";

/**
 * The second inline script, at the end of a server-rendered page: it asks for the app's code
 * (the entry, and the chunks it and the page import, as modulepreloads) only once the page has
 * painted. A page that arrives rendered reads and navigates without its code, so on a slow phone
 * the document, its stylesheet and its image get the connection first; the code then hydrates
 * what is already on screen. The files are the script element's data-scripts, the entry first,
 * so the text never changes and the CSP allows it by its hash.
 */
export const APP_LOADER =
  `(function(f){requestAnimationFrame(function(){setTimeout(function(){f=f.split(" ");f.slice(1).concat(f[0]).forEach(function(u){var e=document.createElement(u===f[0]?"script":"link");if(u===f[0]){e.type="module";e.src=u}else{e.rel="modulepreload";e.href=u}document.head.appendChild(e)})})})})(document.currentScript.dataset.scripts)`;

/** The CSP source that allows APP_LOADER. */
export const APP_LOADER_SOURCE = `'sha256-${
  createHash("sha256").update(APP_LOADER).digest("base64")
}'`;

const MODULE_PRELOAD = /\s*<link rel="modulepreload" href="([^"]+)"[^>]*>/g;
const ENTRY_SCRIPT = /\s*<script type="module" src="(\/assets\/main-[^"]+)"[^>]*><\/script>/;

/**
 * A document head whose entry script and modulepreloads are taken out, and the loader that asks
 * for them after the first paint instead; the head unchanged and no loader if it has no entry.
 */
export function deferAppScripts(head: string): { head: string; loader: string } {
  const entry = ENTRY_SCRIPT.exec(head)?.[1];
  if (!entry) return { head, loader: "" };
  const preloads = [...head.matchAll(MODULE_PRELOAD)].map((m) => m[1]);
  const files = [entry, ...preloads].join(" ");
  return {
    head: head.replace(ENTRY_SCRIPT, "").replace(MODULE_PRELOAD, ""),
    loader: `<script data-scripts="${files}">${APP_LOADER}</script>`,
  };
}
