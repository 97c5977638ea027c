/**
 * The worker that renders pages (server/ssr/render_elsewhere.ts): React's render of a page is tens
 * of milliseconds of synchronous work, which here is not the thread that answers requests. The
 * API answers a page needs are asked of the main thread, which reads them as the request's own
 * client; the finished HTML goes back whole (it is complete before its first byte is read anyway).
 */
import { renderApp } from "./render_app.tsx";
import type { FromRenderer, ToRenderer } from "./render_elsewhere.ts";

const scope = self as unknown as Worker;
const post = (message: FromRenderer) => scope.postMessage(message);
/** Each render's answers still awaited, by path. */
const awaited = new Map<number, Map<string, (value: unknown) => void>>();

scope.onmessage = async (event: MessageEvent<ToRenderer>) => {
  const message = event.data;
  if (message.type === "answer") {
    awaited.get(message.id)?.get(message.path)?.(message.value);
    return;
  }
  const { id, url, imageBase } = message;
  const waiting = new Map<string, (value: unknown) => void>();
  awaited.set(id, waiting);
  const get = (path: string) =>
    new Promise<unknown>((resolve) => {
      waiting.set(path, resolve);
      post({ type: "get", id, path });
    });
  try {
    const rendered = await renderApp(url, imageBase, get, (error) => {
      console.error(`Server rendering of ${url} failed in part`, error);
    });
    const html = await new Response(rendered.html).text();
    post({
      type: "done",
      id,
      page: { html, answers: rendered.answers, paths: rendered.paths(), failed: rendered.failed() },
    });
  } catch (error) {
    post({ type: "failed", id, error: String((error as Error)?.stack ?? error) });
  } finally {
    awaited.delete(id);
  }
};
