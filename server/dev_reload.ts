import { Hono } from "hono";
import { type ApiGet, type PageServerOptions, staticRoutes } from "./ssr/page_server.ts";

/**
 * Live reload for `deno task dev`, and nothing else: server/dev.ts sets SHOP_DEV_RELOAD=1 for the
 * server it runs (read into `config.devReload`), and only then does the app serve the client
 * through devStaticRoutes.
 */
export const DEV_RELOAD_ENV = "SHOP_DEV_RELOAD";
/** The script the dev build adds to index.html (an external file: the CSP allows no inline one). */
export const DEV_RELOAD_SCRIPT = "/__dev/reload.js";
/** Server-Sent Events: one message on connecting and one after every client rebuild. */
export const DEV_RELOAD_EVENTS = "/__dev/events";

/**
 * The browser's side. Each message names the server process and the build it serves; a message
 * naming another one than the first means the client was rebuilt or the server restarted, so the
 * page reloads. EventSource reconnects by itself while the server restarts.
 */
export const RELOAD_CLIENT_JS =
  `// deno task dev only: reloads the page after a client rebuild or a server restart.
let first = null;
function connect() {
  const events = new EventSource(${JSON.stringify(DEV_RELOAD_EVENTS)});
  events.onmessage = (event) => {
    if (first === null) first = event.data;
    else if (event.data !== first) location.reload();
  };
  events.onerror = () => {
    // A dropped connection is retried by EventSource; an HTTP error closes it for good.
    if (events.readyState === EventSource.CLOSED) setTimeout(connect, 1000);
  };
}
connect();
`;

/** What identifies one client build in distDir: its index.html and preload.json, or null. */
export function buildStamp(distDir: string): string | null {
  const read = (path: string) => {
    try {
      return Deno.readTextFileSync(path);
    } catch {
      return "";
    }
  };
  const stamp = read(`${distDir}/index.html`) + "\n" + read(`${distDir}/preload.json`);
  return stamp === "\n" ? null : stamp;
}

/**
 * Options of devStaticRoutes, the page server's own (its budgets) among them; the defaults are
 * the dev server's.
 */
export interface DevStaticOptions extends PageServerOptions {
  /** How often open event streams look for a new build, in milliseconds. */
  pollMs?: number;
  /** Close the event streams on SIGINT and SIGTERM, so the server's graceful shutdown ends. */
  closeOnSignals?: boolean;
}

/**
 * staticRoutes for the dev loop: it reads distDir again whenever the dev build has rewritten it
 * (the build writes index.html last), so a client rebuild needs no server restart, and it serves
 * the reload script and its event stream. Each request compares the build once, so a page loaded
 * right after a rebuild gets the new files; open event streams compare every pollMs.
 */
export function devStaticRoutes(
  distDir: string,
  imageBase: string,
  api: ApiGet,
  options: DevStaticOptions = {},
): Hono {
  const bootId = crypto.randomUUID().slice(0, 8);
  let stamp = buildStamp(distDir);
  let statics = staticRoutes(distDir, imageBase, api, options);
  let build = 0;
  const version = () => `${bootId}.${build}`;
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;

  function send(controller: ReadableStreamDefaultController<Uint8Array>, text: string) {
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      streams.delete(controller); // closed already
    }
  }

  /** Reads distDir again if a build has changed it; true when it had. */
  function refresh(): boolean {
    const now = buildStamp(distDir);
    if (now === stamp) return false;
    stamp = now;
    statics = staticRoutes(distDir, imageBase, api, options);
    build++;
    for (const controller of streams) send(controller, `data: ${version()}\n\n`);
    return true;
  }

  function closeStreams() {
    for (const controller of streams) {
      try {
        controller.close();
      } catch { /* closed already */ }
    }
    streams.clear();
    clearInterval(timer);
    timer = undefined;
  }

  if (options.closeOnSignals ?? true) {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      try {
        Deno.addSignalListener(signal, closeStreams);
      } catch { /* a platform without this signal */ }
    }
  }

  const app = new Hono();
  app.get(DEV_RELOAD_SCRIPT, (c) =>
    c.body(RELOAD_CLIENT_JS, 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-cache",
    }));
  app.get(DEV_RELOAD_EVENTS, () => {
    let own: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        own = controller;
        refresh();
        streams.add(controller);
        send(controller, `retry: 300\ndata: ${version()}\n\n`);
        timer ??= setInterval(refresh, options.pollMs ?? 300);
      },
      cancel() {
        streams.delete(own);
        if (streams.size === 0) {
          clearInterval(timer);
          timer = undefined;
        }
      },
    });
    return new Response(body, {
      headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" },
    });
  });
  app.all("*", (c) => {
    refresh();
    // The page server is an app of its own here, whose context lacks the request's id: it goes
    // along as the header the page's API reads send on (server/ssr/api_reader.ts).
    const headers = new Headers(c.req.raw.headers);
    headers.set("X-Request-Id", c.get("requestId"));
    return statics.fetch(new Request(c.req.raw, { headers }), c.env);
  });
  return app;
}
