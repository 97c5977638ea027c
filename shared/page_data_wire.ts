/**
 * How a server-rendered page carries the API answers it was made with (client/app/page_data.ts
 * reads them, server/ssr/ writes them): plain data and no React, so the server's main thread,
 * which only writes them, never loads the client's React modules for it.
 */

/**
 * How an answer the API refused (4xx) is embedded: the page renders what the browser would show
 * for that refusal (an unknown order, say), and the browser does not ask again.
 */
export interface Refusal {
  $refused: { status: number; error: string };
}

/** A refusal to embed, from the API's status and `{ error }` message. */
export function refusal(status: number, error: string): Refusal {
  return { $refused: { status, error } };
}

/** Whether an answer is the API's refusal. */
export function isRefusal(answer: unknown): answer is Refusal {
  return typeof answer === "object" && answer !== null && "$refused" in answer;
}

/** The id of the script element the server writes the answers into. */
export const PAGE_DATA_ID = "page-data";

/**
 * What the server embeds: the URL the page was rendered for (shared/page_url.ts: its path and the
 * parameters it reads) and the answers it used.
 */
export interface EmbeddedPageData {
  url: string;
  answers: Record<string, unknown>;
}
