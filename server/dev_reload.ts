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
/**
 * Server-Sent Events: the state (DevState, JSON) on connecting, and again whenever a client
 * rebuild succeeds or fails.
 */
export const DEV_RELOAD_EVENTS = "/__dev/events";
/**
 * Where in distDir the dev build (client/build.ts) leaves a failed build's errors, which the
 * next good build removes. Only the event stream reads it: no route serves the file.
 */
export const BUILD_ERRORS_FILE = "build_errors.json";

/** One error of a failed client build, as the event stream sends it. */
export interface DevBuildError {
  file: string;
  line: number;
  column: number;
  text: string;
  lineText: string;
}

/** What the event stream tells open pages. */
export interface DevState {
  /** The server process and the build it serves: another than a page's first means reload. */
  version: string;
  /** Why the latest client build failed (the page keeps the last good one), or none. */
  errors: DevBuildError[];
}

/** Enough to see what failed; esbuild stops at 10 errors by default too. */
const MAX_ERRORS = 10;
const MAX_TEXT = 2000;

/**
 * The browser's side. Each message names the server process and the build it serves; a message
 * naming another one than the first means the client was rebuilt or the server restarted, so the
 * page reloads. A failed build's errors are drawn over the page until a message has none. While
 * the server does not answer (restarting, or failed to start), the page says so after a moment.
 * EventSource reconnects by itself while the server restarts. Drawn with DOM calls and textContent
 * (no markup from the message is parsed) and styled through the CSSOM, which the CSP allows.
 */
export const RELOAD_CLIENT_JS =
  `// deno task dev only: reloads the page after a client rebuild or a server restart, and shows a
// failed build's errors, or a server that does not answer, over the page.
let first = null;
let overlay = null;
let silent = null;
function hide() {
  overlay?.remove();
  overlay = null;
}
function show(title, body) {
  hide();
  overlay = document.createElement("div");
  overlay.setAttribute("role", "alert");
  overlay.dataset.devOverlay = "";
  Object.assign(overlay.style, {
    position: "fixed", inset: "0", zIndex: "2147483647", overflow: "auto", padding: "24px",
    background: "rgba(24, 24, 27, 0.94)", color: "#fafafa",
    font: "14px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  });
  const heading = document.createElement("strong");
  heading.textContent = title;
  Object.assign(heading.style, { display: "block", color: "#fca5a5", fontSize: "16px" });
  const text = document.createElement("pre");
  text.textContent = body;
  Object.assign(text.style, { whiteSpace: "pre-wrap", margin: "12px 0", font: "inherit" });
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "Hide";
  close.onclick = hide;
  overlay.append(heading, text, close);
  document.body.append(overlay);
}
function describe(error) {
  const where = error.file ? error.file + ":" + error.line + ":" + error.column + ": " : "";
  const code = error.lineText
    ? "\\n    " + error.lineText + "\\n    " + " ".repeat(error.column) + "^"
    : "";
  return where + "ERROR: " + error.text + code;
}
function connect() {
  const events = new EventSource(${JSON.stringify(DEV_RELOAD_EVENTS)});
  events.onmessage = (event) => {
    clearTimeout(silent);
    silent = null;
    const state = JSON.parse(event.data);
    if (first === null) first = state.version;
    else if (state.version !== first) return location.reload();
    if (state.errors.length === 0) return hide();
    show(
      "The client build failed",
      state.errors.map(describe).join("\\n\\n") +
        "\\n\\nPages run the last good build meanwhile. Save a fix and this page reloads; " +
        "the terminal shows the same errors.",
    );
  };
  events.onerror = () => {
    // A dropped connection is retried by EventSource; an HTTP error closes it for good.
    if (events.readyState === EventSource.CLOSED) setTimeout(connect, 1000);
    // A restart takes a second or two; longer than that, the developer should know.
    silent ??= setTimeout(() => {
      show(
        "The dev server is not answering",
        "It is restarting, or it failed to start: the terminal says why. This page reloads once it is back.",
      );
    }, 2000);
  };
}
connect();
`;

/** The page the dev server answers while no client build exists: only the reload script runs. */
const UNBUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>The client is not built</title></head>
<body>
<p>The client has not built yet under <code>deno task dev</code>: the terminal says why.</p>
<script type="module" src="${DEV_RELOAD_SCRIPT}"></script>
</body>
</html>
`;

/**
 * The errors a failed build left in distDir, as sent to pages (each field checked, text cut to a
 * bound); none when the last build succeeded.
 */
export function readBuildErrors(distDir: string): DevBuildError[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Deno.readTextFileSync(`${distDir}/${BUILD_ERRORS_FILE}`));
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const text = (value: unknown) => typeof value === "string" ? value.slice(0, MAX_TEXT) : "";
  const number = (value: unknown) =>
    typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : 0;
  return parsed.slice(0, MAX_ERRORS).map((error) => ({
    file: text(error?.file),
    line: number(error?.line),
    column: number(error?.column),
    text: text(error?.text),
    lineText: text(error?.lineText),
  }));
}

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
  // The dev loop's builds are development builds (client/build.ts): its pages render with
  // React's development build too, warnings and all.
  const pageOptions: PageServerOptions = { reactBuild: "development", ...options };
  let stamp = buildStamp(distDir);
  let statics = staticRoutes(distDir, imageBase, api, pageOptions);
  let build = 0;
  let errors = readBuildErrors(distDir);
  let errorsJson = JSON.stringify(errors);
  const message = () => {
    const state: DevState = { version: `${bootId}.${build}`, errors };
    return `data: ${JSON.stringify(state)}\n\n`;
  };
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

  /** Reads distDir again if a build has changed it, or failed; tells open pages either way. */
  function refresh(): void {
    const now = buildStamp(distDir);
    const built = now !== stamp;
    if (built) {
      stamp = now;
      statics = staticRoutes(distDir, imageBase, api, pageOptions);
      build++;
    }
    const failed = readBuildErrors(distDir);
    const failedJson = JSON.stringify(failed);
    if (!built && failedJson === errorsJson) return;
    errors = failed;
    errorsJson = failedJson;
    for (const controller of streams) send(controller, message());
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
        send(controller, `retry: 300\n${message()}`);
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
    // No build yet (the first one failed): a page that runs the reload script, which shows the
    // errors and reloads once a build exists, where the page server would answer plain text.
    if (stamp === null && c.req.method === "GET" && !c.req.path.startsWith("/assets/")) {
      return c.html(UNBUILT_PAGE, 503, { "Cache-Control": "no-store" });
    }
    // The page server is an app of its own here, whose context lacks the request's id: it goes
    // along as the header the page's API reads send on (server/ssr/api_reader.ts).
    const headers = new Headers(c.req.raw.headers);
    headers.set("X-Request-Id", c.get("requestId"));
    return statics.fetch(new Request(c.req.raw, { headers }), c.env);
  });
  return app;
}
