import { createContext, use, useContext } from "react";

/**
 * The answers of the shop's own GET API a page was rendered with, by path. The server renders a
 * public page with the data it needs and embeds those answers in the HTML, so the browser
 * hydrates the same page without asking again (no request waterfall at load).
 */

/** The server's side: loads an answer (undefined when the API refused), once per path. */
export interface ServerPageData {
  load(path: string): Promise<unknown>;
}

/** Set by the server's renderer only; in the browser the embedded answers are used instead. */
export const ServerPageDataContext = createContext<ServerPageData | null>(null);

/** The id of the script element the server writes the answers into. */
export const PAGE_DATA_ID = "page-data";

/** What the server embeds: the page's URL (path and query) and the answers it used. */
export interface EmbeddedPageData {
  url: string;
  answers: Record<string, unknown>;
}

let embedded: EmbeddedPageData | null = null;

/** Reads the answers the server embedded, if it rendered this page. */
export function readEmbeddedPageData(): void {
  const text = document.getElementById(PAGE_DATA_ID)?.textContent;
  try {
    embedded = text ? JSON.parse(text) : null;
  } catch {
    embedded = null;
  }
}

/**
 * An embedded answer, only while the browser is still on the page it was rendered for. Once the
 * shopper moves on they are forgotten for good: they were true when the first page was made, so
 * any later page (even the first one again) asks the API itself.
 */
export function embeddedAnswer(path: string): unknown {
  if (embedded && embedded.url !== location.pathname + location.search) embedded = null;
  return embedded?.answers[path];
}

/**
 * The answer to `GET path` the page came with: on the server it is loaded (the render waits for
 * it), in the browser read from the HTML. undefined when there is none: the caller loads it.
 */
export function usePageData(path: string | null): unknown {
  const server = useContext(ServerPageDataContext);
  if (path === null) return undefined;
  if (server) return use(server.load(path));
  return embeddedAnswer(path);
}
