import { Hono } from "hono";
import { findPage, type PageInfo, PAGES, pageTitle } from "../shared/routes.ts";
import { originOf } from "./middleware/shop_origin.ts";
import { escapeHtml } from "../shared/html.ts";

/**
 * Link preview tags of a shared configurator build (/testers/custom or /testers/fidget-cube with
 * its build in the query): a picture of that build, so chat apps and social posts show it.
 */
function buildPreviewTags(url: string, origin: string, page: PageInfo | undefined): string | null {
  const { pathname, searchParams } = new URL(url);
  const kind = pathname === "/testers/custom"
    ? "tester"
    : pathname === "/testers/fidget-cube"
    ? "cube"
    : null;
  if (!kind || !page || !searchParams.has("switches")) return null;
  const query = new URLSearchParams(searchParams);
  query.set("kind", kind);
  const image = `${origin}/images/build.png?${query.toString()}`;
  const title = kind === "tester" ? "A custom switch tester build" : "A custom fidget cube build";
  return [
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:type" content="product">`,
    `<meta property="og:url" content="${escapeHtml(`${origin}${pathname}?${searchParams}`)}">`,
    `<meta property="og:image" content="${escapeHtml(image)}">`,
    `<meta property="og:image:width" content="1200">`,
    `<meta property="og:image:height" content="630">`,
    `<meta name="twitter:card" content="summary_large_image">`,
    `<meta name="twitter:image" content="${escapeHtml(image)}">`,
  ].join("\n    ");
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
 * Serves the built client: hashed assets as immutable, and the app's index.html (never cached) for
 * every page. Files are read once at start, so a request never touches the disk.
 */
export function staticRoutes(
  distDir: string,
  imageBase: string,
): Hono {
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
  // The document of a page depends only on which page it is: made once each, on first request.
  const documents = new Map<PageInfo | undefined, string>();
  function documentFor(template: string, page: PageInfo | undefined): string {
    let html = documents.get(page);
    if (html === undefined) {
      html = template
        .replace("%TITLE%", escapeHtml(pageTitle(page?.title ?? "Page not found")))
        .replace("%DESCRIPTION%", escapeHtml(page?.description ?? PAGES[0].description))
        .replace("%IMAGE_BASE%", escapeHtml(imageBase))
        .replace(
          "<!-- PAGE_PRELOAD -->",
          (preload[(page ?? NOT_FOUND).module] ?? [])
            .map((file) => `<link rel="modulepreload" href="/assets/${file}">`).join("\n    "),
        );
      documents.set(page, html);
    }
    return html;
  }
  app.get("*", (c) => {
    if (indexHtml === null) {
      return c.text("The shop's client is not built yet: run `deno task build`.", 503);
    }
    const page = findPage(c.req.path);
    let html = documentFor(indexHtml, page);
    const preview = buildPreviewTags(c.req.url, originOf(c), page);
    if (preview) html = html.replace("</head>", `${preview}\n  </head>`);
    return c.html(html, page ? 200 : 404, { "Cache-Control": "no-cache" });
  });
  return app;
}
