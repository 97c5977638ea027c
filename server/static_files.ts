import { Hono } from "hono";
import { findPage, PAGES, pageTitle } from "../shared/routes.ts";
import { escapeHtml } from "../shared/html.ts";

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
}

/**
 * Serves the built client: hashed assets as immutable, and the app's index.html (never cached) for
 * every page. Files are read once at start, so a request never touches the disk.
 */
export function staticRoutes(
  distDir: string,
  publicUrl: string | undefined,
  imageBase: string,
): Hono {
  const assets = new Map<string, Asset>();
  let indexHtml: string | null = null;
  try {
    indexHtml = Deno.readTextFileSync(`${distDir}/index.html`);
    for (const entry of Deno.readDirSync(`${distDir}/assets`)) {
      if (!entry.isFile) continue;
      const ext = entry.name.slice(entry.name.lastIndexOf("."));
      assets.set(entry.name, {
        body: Deno.readFileSync(`${distDir}/assets/${entry.name}`),
        type: TYPES[ext] ?? "application/octet-stream",
      });
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }

  const app = new Hono();
  app.get("/assets/:name", (c) => {
    const asset = assets.get(c.req.param("name"));
    if (!asset) return c.text("Not found", 404);
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": asset.type,
      "Cache-Control": "public, max-age=31536000, immutable",
    });
  });
  app.get("/robots.txt", (c) => {
    const origin = publicUrl ?? new URL(c.req.url).origin;
    const disallowed = PAGES.filter((p) => !p.public && !p.path.includes(":"))
      .map((p) => `Disallow: ${p.path}`);
    return c.text(
      ["User-agent: *", "Allow: /", ...disallowed, `Sitemap: ${origin}/sitemap.xml`, ""].join("\n"),
    );
  });
  app.get("/sitemap.xml", (c) => {
    const origin = publicUrl ?? new URL(c.req.url).origin;
    const urls = PAGES.filter((p) => p.public)
      .map((p) => `  <url><loc>${origin}${p.path}</loc></url>`);
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n` +
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${
        urls.join("\n")
      }\n</urlset>\n`;
    return c.body(xml, 200, { "Content-Type": "application/xml; charset=utf-8" });
  });
  app.get("*", (c) => {
    if (indexHtml === null) {
      return c.text("The shop's client is not built yet: run `deno task build`.", 503);
    }
    const page = findPage(c.req.path);
    const html = indexHtml
      .replace("%TITLE%", escapeHtml(pageTitle(page?.title ?? "Page not found")))
      .replace("%DESCRIPTION%", escapeHtml(page?.description ?? PAGES[0].description))
      .replace("%IMAGE_BASE%", escapeHtml(imageBase));
    return c.html(html, page ? 200 : 404, { "Cache-Control": "no-cache" });
  });
  return app;
}
