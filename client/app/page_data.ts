import { createContext, use, useContext } from "react";
import { ApiError } from "./api.ts";
import type { Outcome } from "./request_runner.ts";
import { pageUrl } from "../../shared/page_url.ts";
import { type EmbeddedPageData, isRefusal, PAGE_DATA_ID } from "../../shared/page_data_wire.ts";

/**
 * The answers of the shop's own GET API a page was rendered with, by path. The server renders a
 * public page with the data it needs and embeds those answers in the HTML, so the browser
 * hydrates the same page without asking again (no request waterfall at load).
 */

/** An embedded answer or refusal as the outcome of the request the page would have made. */
function outcomeOf(answer: unknown): Outcome<unknown> | undefined {
  if (answer === undefined) return undefined;
  if (!isRefusal(answer)) return { ok: true, data: answer };
  const { status, error } = answer.$refused;
  return { ok: false, error: new ApiError(status, error, { error }) };
}

/**
 * The server's side: loads an answer, a Refusal (4xx) or undefined (the API failed), once per
 * path.
 */
export interface ServerPageData {
  load(path: string): Promise<unknown>;
}

/** Set by the server's renderer only; in the browser the embedded answers are used instead. */
export const ServerPageDataContext = createContext<ServerPageData | null>(null);

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
  const outcome = embeddedOutcome(path);
  return outcome?.ok ? outcome.data : undefined;
}

function embeddedOutcome(path: string): Outcome<unknown> | undefined {
  if (embedded && embedded.url !== pageUrl(location.pathname, location.search)) embedded = null;
  return outcomeOf(embedded?.answers[path]);
}

/**
 * How `GET path` went when the page was made: on the server it is loaded (the render waits for
 * it), in the browser read from the HTML. undefined when the page came without it (or the API
 * failed): the caller loads it.
 */
export function usePageOutcome(path: string | null): Outcome<unknown> | undefined {
  const server = useContext(ServerPageDataContext);
  if (path === null) return undefined;
  if (server) return outcomeOf(use(server.load(path)));
  return embeddedOutcome(path);
}

/** The answer to `GET path` the page came with, or undefined (none, or refused). */
export function usePageData(path: string | null): unknown {
  const outcome = usePageOutcome(path);
  return outcome?.ok ? outcome.data : undefined;
}
