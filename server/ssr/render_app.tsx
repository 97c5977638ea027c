import { StrictMode } from "react";
import { renderToReadableStream } from "react-dom/server";
import { StaticRouter } from "react-router-dom";
import { AppRoutes } from "../../client/app/router.tsx";
import { type ServerPageData, ServerPageDataContext } from "../../client/app/page_data.ts";
import { setImageBase } from "../../client/app/image_base.ts";

/** What rendering a page gave: its HTML, and the API answers it was made from (by path). */
export interface RenderedApp {
  html: ReadableStream<Uint8Array>;
  answers: Record<string, unknown>;
  /** Loads one more answer the same way (kept with the others). */
  answer: (path: string) => Promise<unknown>;
  /** Every path asked for, answered or refused, in the order first asked. */
  paths: () => string[];
  /** Whether any part failed to render (and was left for the browser). */
  failed: () => boolean;
}

/**
 * Renders the shop's own route table for one URL, the same tree the browser hydrates
 * (client/main.tsx) with StaticRouter in place of BrowserRouter. Pages ask for their data through
 * usePageData; `get` answers each path once and the render waits for it. The HTML is complete
 * (every page chunk and answer in place) before the first byte is read: React then writes no
 * inline scripts, which the CSP would refuse. Rejects when even the frame cannot be rendered.
 */
export async function renderApp(
  url: string,
  imageBase: string,
  get: (path: string) => Promise<unknown>,
  onError: (error: unknown) => void,
): Promise<RenderedApp> {
  // One image base per process (its configuration): pages read it as the browser's meta tag.
  setImageBase(imageBase);
  const answers: Record<string, unknown> = {};
  const pending = new Map<string, Promise<unknown>>();
  const data: ServerPageData = {
    load(path) {
      let answer = pending.get(path);
      if (!answer) {
        answer = get(path).then((value) => {
          if (value !== undefined) answers[path] = value;
          return value;
        });
        pending.set(path, answer);
      }
      return answer;
    },
  };
  let failed = false;
  const html = await renderToReadableStream(
    <StrictMode>
      <StaticRouter location={url}>
        <ServerPageDataContext value={data}>
          <AppRoutes />
        </ServerPageDataContext>
      </StaticRouter>
    </StrictMode>,
    // Never outline a large boundary for later: that would take an inline script to reveal.
    {
      onError(error) {
        failed = true;
        onError(error);
      },
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
    },
  );
  await html.allReady;
  return {
    html,
    answers,
    answer: data.load,
    paths: () => [...pending.keys()],
    failed: () => failed,
  };
}
