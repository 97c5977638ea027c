import { type Context, Hono } from "hono";
import {
  matchPage,
  type PageInfo,
  PAGES,
  pageTitle,
  withoutTrailingSlashes,
} from "../../shared/routes.ts";
import { originOf } from "../middleware/shop_origin.ts";
import { escapeHtml } from "../../shared/html.ts";
import { pageMetaTags, type Preview } from "./page_meta.ts";
import { THEME_SCRIPT } from "./theme_script.ts";
import { serverRendered } from "./render_page.ts";
import { compressed, pageEncoding } from "./compress.ts";
import { deferAppScripts } from "./app_loader.ts";
import { createPageCache } from "./page_cache.ts";
import { gunzipSync } from "node:zlib";
import { pageUrl } from "../../shared/page_url.ts";
import { clientKey } from "../middleware/client_key.ts";
import { type Clock, systemClock } from "../clock.ts";
import type { Logger } from "../log.ts";
import { createClientBudget } from "../http/client_budget.ts";
import { startRenderer } from "./render_elsewhere.ts";
import type { ReactBuild } from "./react_build.ts";

/** A GET of the shop's own API, made in-process for the request `c` (as its client). */
export type ApiGet = (path: string, c: Context) => Promise<unknown>;

/** Where the server writes the page into the built index.html. */
const ROOT_ELEMENT = '<div id="root"></div>';

/** What a page rendered only in the browser says when JavaScript is off. */
const NO_SCRIPT = "<noscript>This page needs JavaScript to run.</noscript>";

/**
 * The preview of a shared configurator build (/testers/custom or /testers/fidget-cube with its
 * build in the query): a picture of that build, so chat apps and social posts show it.
 */
function buildPreview(url: string, origin: string, page: PageInfo | undefined): Preview | null {
  const { pathname, searchParams } = new URL(url, origin);
  const kind = pathname === "/testers/custom"
    ? "tester"
    : pathname === "/testers/fidget-cube"
    ? "cube"
    : null;
  if (!kind || !page || !searchParams.has("switches")) return null;
  const query = new URLSearchParams(searchParams);
  query.set("kind", kind);
  return {
    title: kind === "tester" ? "A custom switch tester build" : "A custom fidget cube build",
    image: `${origin}/images/build.png?${query.toString()}`,
    url: `${origin}${url}`,
  };
}

/** How much rendering the page server may do, and what it tells about it. */
export interface PageServerOptions {
  clock?: Clock;
  logger?: Logger;
  /** New pages one client may have rendered per minute (kept pages are not counted); past it the browser renders them. */
  rendersPerClient?: number;
  /** New pages the whole shop renders per minute; past it the browser renders them. */
  rendersPerShop?: number;
  /** Bytes of rendered pages kept (gzipped). */
  cacheBytes?: number;
  /** The build of the client in distDir, which the pages render with too; production by default. */
  reactBuild?: ReactBuild;
}

/**
 * Enough for any shopper: a document is asked for only on arriving or reloading (the app moves
 * between pages itself), and most are kept pages, which cost no render; one a second holds even
 * for someone reloading a page whose stock changes under a sale.
 */
export const PAGE_RENDERS_PER_CLIENT = 60;
/** At most about a quarter of one core on the heaviest page (50 ms a render), whoever asks. */
export const PAGE_RENDERS_PER_SHOP = 300;
export const PAGE_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * The longest page path answered. The shop's own are under 100 characters; a longer one is
 * refused before any page is looked up, so its length costs nothing, and never becomes a key.
 */
export const MAX_PAGE_PATH = 2_048;

/** What a path past MAX_PAGE_PATH is told: a page for a browser, JSON for anything else. */
function pathTooLong(c: Context): Response {
  const error = "This address is too long for any page of the shop.";
  if (!/text\/html/.test(c.req.header("Accept") ?? "")) return c.json({ error }, 414);
  return c.html(
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Address too long</title></head>
<body><h1>Address too long</h1><p>${error} <a href="/">Go to the shop</a>.</p></body></html>
`,
    414,
    { "Cache-Control": "no-store" },
  );
}

const NOT_FOUND = { module: "content/not_found_page.tsx" };

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

interface Asset {
  body: Uint8Array;
  type: string;
  /** Precompressed bodies written by the build, by content encoding. */
  encoded: { br?: Uint8Array; gzip?: Uint8Array };
}

/** The best precompressed body the client accepts. */
function negotiate(asset: Asset, acceptEncoding: string): [Uint8Array, string | null] {
  const accepts = (name: string) => new RegExp(`\\b${name}\\b`).test(acceptEncoding);
  if (asset.encoded.br && accepts("br")) return [asset.encoded.br, "br"];
  if (asset.encoded.gzip && accepts("gzip")) return [asset.encoded.gzip, "gzip"];
  return [asset.body, null];
}

/**
 * Serves the built client: hashed assets as immutable, and every page's document (never cached by
 * the browser): the public ones rendered on the server (server/ssr/), the others as the empty
 * index.html the browser renders into. Files are read once at start, so a request never touches
 * the disk. `api` reads the shop's own API in-process for the pages it renders.
 */
export function staticRoutes(
  distDir: string,
  imageBase: string,
  api: ApiGet = () => Promise.resolve(undefined),
  options: PageServerOptions = {},
): Hono {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? (() => {});
  const assets = new Map<string, Asset>();
  let indexHtml: string | null = null;
  let preload: Record<string, string[]> = {};
  try {
    indexHtml = Deno.readTextFileSync(`${distDir}/index.html`);
    try {
      preload = JSON.parse(Deno.readTextFileSync(`${distDir}/preload.json`));
    } catch { /* an older build without the manifest: pages still load, one round trip later */ }
    const readIfThere = (path: string) => {
      try {
        return Deno.readFileSync(path);
      } catch {
        return undefined;
      }
    };
    for (const entry of Deno.readDirSync(`${distDir}/assets`)) {
      if (!entry.isFile || /\.(br|gz)$/.test(entry.name)) continue;
      const ext = entry.name.slice(entry.name.lastIndexOf("."));
      const path = `${distDir}/assets/${entry.name}`;
      assets.set(entry.name, {
        body: Deno.readFileSync(path),
        type: TYPES[ext] ?? "application/octet-stream",
        encoded: { br: readIfThere(`${path}.br`), gzip: readIfThere(`${path}.gz`) },
      });
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }

  // The entry's stylesheet, as the link index.html names it and as an inline <style>.
  const stylesheetLink = indexHtml?.match(/<link rel="stylesheet" href="\/assets\/([^"]+)"[^>]*>/);
  const css = stylesheetLink ? assets.get(stylesheetLink[1]) : undefined;
  const cssText = css ? new TextDecoder().decode(css.body) : "";
  const inlineStyles = stylesheetLink && css && !/<\/style/i.test(cssText)
    ? `<style data-precedence="app">${cssText}</style>`
    : null;

  if (indexHtml !== null) startRenderer(options.reactBuild ?? "production");
  const rendered = createPageCache(options.cacheBytes ?? PAGE_CACHE_BYTES);
  // A render is tens of milliseconds of this process's only thread: each client has a budget of
  // new ones, and the shop one for all, so no number of clients can keep the thread busy.
  const clientRenders = createClientBudget(
    options.rendersPerClient ?? PAGE_RENDERS_PER_CLIENT,
    clock,
  );
  const shopRenders = createClientBudget(options.rendersPerShop ?? PAGE_RENDERS_PER_SHOP, clock);

  const app = new Hono();
  app.get("/assets/:name", (c) => {
    const asset = assets.get(c.req.param("name"));
    if (!asset) return c.text("Not found", 404);
    const [body, encoding] = negotiate(asset, c.req.header("Accept-Encoding") ?? "");
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": asset.type,
      "Cache-Control": "public, max-age=31536000, immutable",
      "Vary": "Accept-Encoding",
      ...(encoding ? { "Content-Encoding": encoding } : {}),
    });
  });
  app.get("/robots.txt", (c) => {
    const origin = originOf(c);
    // Only what must never show in search results; shopper pages like /cart stay crawlable.
    const disallowed = ["/admin", "/api/", "/auth/", "/demo-checkout/", "/order/track/"]
      .map((p) => `Disallow: ${p}`);
    return c.text(
      ["User-agent: *", "Allow: /", ...disallowed, `Sitemap: ${origin}/sitemap.xml`, ""].join("\n"),
    );
  });
  app.get("/sitemap.xml", (c) => {
    const origin = originOf(c);
    const urls = PAGES.filter((p) => p.public)
      .map((p) => `  <url><loc>${origin}${p.path}</loc></url>`);
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n` +
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${
        urls.join("\n")
      }\n</urlset>\n`;
    return c.body(xml, 200, { "Content-Type": "application/xml; charset=utf-8" });
  });
  /**
   * The frame of a page's document: all but what the server renders into it, split at the root
   * element. It depends only on the page and the origin, so it is made once each, on first
   * request; `preview` (a shared build's picture and title, in place of the page's) comes with
   * any query a client sends, and a tracking page's path with any number, so a frame with either
   * is made each time.
   */
  const frames = new Map<string, [string, string]>();
  function frameFor(
    template: string,
    page: PageInfo | undefined,
    origin: string,
    path: string,
    preview: Preview | null,
  ): [string, string] {
    // Only a page with a part of its own in the path (an order's number) has it in the frame:
    // that frame is made each time (a few string replaces), as keeping one per number sent
    // would hold some 35 KB for each of a thousand numbers anyone can make up.
    const key = preview || page?.path.includes(":") ? null : `${origin} ${page?.path}`;
    const made = key === null ? undefined : frames.get(key);
    if (made) return made;
    const html = template
      .replace("%TITLE%", escapeHtml(pageTitle(page?.title ?? "Page not found")))
      .replace("%DESCRIPTION%", escapeHtml(page?.description ?? PAGES[0].description))
      .replace("%IMAGE_BASE%", escapeHtml(imageBase))
      .replace("<!-- HEAD -->", `<script>${THEME_SCRIPT}</script>`)
      .replace("<!-- META -->", () => pageMetaTags(page, path, origin, preview))
      .replace(
        "<!-- PAGE_PRELOAD -->",
        (preload[(page ?? NOT_FOUND).module] ?? [])
          .map((file) => `<link rel="modulepreload" href="/assets/${file}" fetchpriority="low">`)
          .join("\n    "),
      );
    const at = html.indexOf(ROOT_ELEMENT);
    let [head, tail] = at < 0
      ? [html, ""]
      : [html.slice(0, at), html.slice(at + ROOT_ELEMENT.length)];
    if (!page || page.serverRendered) {
      // A rendered page paints from its HTML alone: the stylesheet inline (no file to wait
      // for), and the code asked for once it has painted.
      if (inlineStyles) head = head.replace(stylesheetLink![0], () => inlineStyles);
      const deferred = deferAppScripts(head);
      head = deferred.head;
      tail = tail.includes("</body>")
        ? tail.replace("</body>", () => `${deferred.loader}\n  </body>`)
        : `${tail}${deferred.loader}`;
    }
    const frame: [string, string] = [`${head}<div id="root">`, `</div>${tail}`];
    if (key !== null && frames.size < 1000) frames.set(key, frame);
    return frame;
  }
  app.get("*", async (c) => {
    if (indexHtml === null) {
      return c.text("The shop's client is not built yet: run `deno task build`.", 503);
    }
    const { pathname, search } = new URL(c.req.url);
    if (pathname.length > MAX_PAGE_PATH) return pathTooLong(c);
    // The page and the URL it is rendered and kept for come from the one path as sent (Hono's
    // c.req.path is decoded: a page chosen from it and kept under the raw one put a page's frame
    // around the not-found body, kept for every later 404).
    const match = matchPage(pathname);
    if (match && withoutTrailingSlashes(pathname) !== match.path) {
      // Another case or encoding of a page's path: the browser's router would show the page,
      // so the browser is sent to the page's own path, where it is rendered and kept once.
      return c.redirect(`${match.path}${search}`, 301);
    }
    const page = match?.page;
    const origin = originOf(c);
    // What the page is rendered for: its path and the parameters it reads, never the raw URL.
    const url = pageUrl(pathname, search);
    const preview = buildPreview(url, origin, page);
    const [head, tail] = frameFor(indexHtml, page, origin, url.split("?")[0], preview);
    const encoding = pageEncoding(c.req.header("Accept-Encoding") ?? "");
    const headers: Record<string, string> = {
      // A page search engines do not see is one person's (an order's name, city and ZIP, a
      // cart, an account, a payment, a link's token): no cache, shared or the browser's, keeps
      // it. Public pages are only revalidated.
      "Cache-Control": page && !page.public ? "no-store" : "no-cache",
      "Content-Type": "text/html; charset=UTF-8",
      "Vary": "Accept-Encoding",
    };
    const status = page ? 200 : 404;
    /** The body as it is, or compressed as it streams in the encoding the client takes. */
    const send = (body: ReadableStream<Uint8Array>) =>
      encoding
        ? c.body(compressed(body, encoding), status, { ...headers, "Content-Encoding": encoding })
        : c.body(body, status, headers);
    // A HEAD is told what a GET would be, without a render or any of the budget: nothing it
    // asks for is ever shown.
    if (c.req.method === "HEAD") {
      return c.body(
        null,
        status,
        encoding ? { ...headers, "Content-Encoding": encoding } : headers,
      );
    }
    // The app alone, which the browser renders into the empty root.
    const unrendered = () =>
      new Blob([`${head}${tail.replace("</div>", `</div>\n    ${NO_SCRIPT}`)}`]).stream();
    if (page && !page.serverRendered) return send(unrendered());
    const answer = (path: string) => api(path, c);
    // The document's frame follows from its origin and URL (a build link's preview is in the
    // query), so those and the answers identify it.
    const key = await rendered.keyFor(origin, url, answer);
    const kept = key === null ? null : rendered.get(key);
    if (kept) {
      // Kept gzipped: sent as it is to any client that takes gzip (every browser), and inflated
      // (under a millisecond) for one that does not, never compressed again per request.
      if (encoding === "gzip") {
        return c.body(kept as Uint8Array<ArrayBuffer>, status, {
          ...headers,
          "Content-Encoding": "gzip",
        });
      }
      return c.body(gunzipSync(kept) as Uint8Array<ArrayBuffer>, status, headers);
    }
    // Past this client's budget, or the shop's, the browser renders the page, as it would if
    // rendering had failed: a shopper behind a busy address (a carrier's NAT, an office) still
    // gets a working page, and the client costs no render. No 429 here: the app costs what a kept
    // page costs, so refusing it would protect nothing.
    if (clientRenders.take(clientKey(c)) !== null || shopRenders.take("shop") !== null) {
      return send(unrendered());
    }
    const started = performance.now();
    return send(serverRendered({
      head,
      tail,
      url,
      page,
      origin,
      imageBase,
      answer,
      onRendered: (html, paths, answers) => {
        rendered.remember(origin, url, paths, answers, html);
        logger({
          msg: "page rendered",
          url,
          ms: Math.round(performance.now() - started),
          keptBytes: rendered.bytes(),
        });
      },
    }));
  });
  return app;
}
