/**
 * Where pages are rendered: in a worker (render_worker.ts), one per process, started with the page
 * server, so the thread that answers requests only waits (a render of /testers/custom is several
 * milliseconds of React's synchronous work, tens on a busy machine; the main thread's part, the
 * page's API reads, is a few). Where a worker cannot start or dies, pages are rendered on this
 * thread from then on, as before (the render budgets of page_server.ts still bound them).
 */

import { chooseReactBuild, type ReactBuild } from "./react_build.ts";

/** A page rendered, whole: its HTML and the API answers (by path) it was made from. */
export interface RenderedPage {
  html: string;
  answers: Record<string, unknown>;
  /** Every path asked for, answered or refused, in the order first asked. */
  paths: string[];
  /** Whether any part failed to render (and was left for the browser). */
  failed: boolean;
}

/** What the main thread tells the worker. */
export type ToRenderer =
  | { type: "render"; id: number; url: string; imageBase: string }
  | { type: "answer"; id: number; path: string; value: unknown };

/** What the worker tells the main thread. */
export type FromRenderer =
  | { type: "get"; id: number; path: string }
  | { type: "done"; id: number; page: RenderedPage }
  | { type: "failed"; id: number; error: string };

/** A render the worker is doing: how to answer its reads, and its caller. */
interface Job {
  url: string;
  imageBase: string;
  get: (path: string) => Promise<unknown>;
  onError: (error: unknown) => void;
  resolve(page: RenderedPage): void;
  reject(error: unknown): void;
}

let worker: Worker | null | undefined;
let nextId = 0;
const jobs = new Map<number, Job>();

/** The page rendered on this thread. */
async function renderHere(job: Omit<Job, "resolve" | "reject">): Promise<RenderedPage> {
  // Loaded here only when this thread renders (no worker could start, or it died): the worker
  // loads React and the app's components itself, and a process rendering no page (an API test's
  // app) never needs them.
  const { renderApp } = await import("./render_app.tsx");
  const rendered = await renderApp(job.url, job.imageBase, job.get, job.onError);
  const html = await new Response(rendered.html).text();
  return { html, answers: rendered.answers, paths: rendered.paths(), failed: rendered.failed() };
}

/** The rendering worker, started once; null where workers cannot start or one has died. */
function renderingWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL("./render_worker.ts", import.meta.url), { type: "module" });
  } catch {
    return worker = null;
  }
  const post = (message: ToRenderer) => worker?.postMessage(message);
  worker.onmessage = (event: MessageEvent<FromRenderer>) => {
    const message = event.data;
    const job = jobs.get(message.id);
    if (!job) return;
    if (message.type === "get") {
      job.get(message.path).then(
        (value) => post({ type: "answer", id: message.id, path: message.path, value }),
        () => post({ type: "answer", id: message.id, path: message.path, value: undefined }),
      );
      return;
    }
    jobs.delete(message.id);
    if (message.type === "done") job.resolve(message.page);
    else job.reject(new Error(message.error));
  };
  worker.onerror = (event) => {
    // A worker that failed answers nobody: what it was given, and every page after, is rendered
    // here instead.
    event.preventDefault();
    worker?.terminate();
    worker = null;
    for (const job of jobs.values()) renderHere(job).then(job.resolve, job.reject);
    jobs.clear();
  };
  return worker;
}

/**
 * Starts the rendering worker now, so the first visitor does not wait the second it takes to load
 * the app's code into it, with the React build that matches the client served (react_build.ts).
 */
export function startRenderer(build: ReactBuild): void {
  chooseReactBuild(build);
  renderingWorker();
}

/**
 * Renders the shop's route table for one URL (render_app.tsx), off this thread where it can.
 * `get` answers the page's API reads; it is asked once per path. Rejects when even the frame
 * cannot be rendered.
 */
export function renderPage(
  url: string,
  imageBase: string,
  get: (path: string) => Promise<unknown>,
  onError: (error: unknown) => void,
): Promise<RenderedPage> {
  const renderer = renderingWorker();
  if (!renderer) return renderHere({ url, imageBase, get, onError });
  const id = nextId++;
  return new Promise((resolve, reject) => {
    jobs.set(id, { url, imageBase, get, onError, resolve, reject });
    renderer.postMessage({ type: "render", id, url, imageBase } satisfies ToRenderer);
  });
}
