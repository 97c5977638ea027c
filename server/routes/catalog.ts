import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AvailabilityView } from "../../shared/api_types.ts";
import { idSchema } from "../../shared/schemas.ts";
import type { RouteDeps } from "../deps.ts";
import { availabilityOf, shopProducts, shopSwitches } from "../listings/shop_views.ts";
import { getPackPage, listPacksOnSale } from "../listings/packs.ts";
import { perStockVersion } from "../kv/version.ts";
import { validateParams } from "../http/validate.ts";

const idParam = z.object({ id: idSchema });

/** A serialised JSON answer for one version of the catalogue and stock, with its ETag. */
interface RenderedJson {
  /** UTF-8 bytes, encoded once rather than on every answer. */
  body: Uint8Array<ArrayBuffer>;
  /** The same, gzipped once, for clients that accept it (every browser): a sixth of the bytes. */
  gzip: Uint8Array<ArrayBuffer>;
  etag: string;
  gzipEtag: string;
}

/** Whether an Accept-Encoding header allows gzip (named, or `*`, with a q above zero). */
function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (name !== "gzip" && name !== "x-gzip" && name !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

async function gzipped(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * JSON with every non-ASCII character escaped (\u00b3 for "³"): the same value for any parser,
 * and clients (and load generators) decode a pure-ASCII body on their fast path; measured with
 * autocannon, the switch list went from about 7.5k to (see README) requests a second.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Whether an If-None-Match header names this ETag (weak comparison, as RFC 9110 asks for GET). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === etag;
  });
}

async function renderJson(value: unknown): Promise<RenderedJson> {
  const body = new TextEncoder().encode(asciiJson(value));
  const digest = await crypto.subtle.digest("SHA-256", body);
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const tag = hex.slice(0, 32);
  // Each coding is its own representation, so each has its own strong ETag.
  return { body, gzip: await gzipped(body), etag: `"${tag}"`, gzipEtag: `"${tag}-gzip"` };
}

/**
 * Serves a JSON answer that depends only on the catalogue and stock, building and serialising it
 * once per stock version (see stock_version.ts for how fresh that is). The ETag is a digest of the
 * body, so a 304 is only ever sent for the exact bytes the client holds.
 */
function versionedJson(kv: Deno.Kv, build: () => Promise<unknown>) {
  const rendered = perStockVersion(async () => renderJson(await build()));

  return async function serve(c: Context): Promise<Response> {
    const entry = await rendered(kv);
    const gzip = acceptsGzip(c.req.header("Accept-Encoding"));
    const held = c.req.header("If-None-Match");
    // Either coding's tag means the client holds the current content.
    const fresh = etagMatches(held, entry.etag) || etagMatches(held, entry.gzipEtag);
    const headers: [string, string][] = [
      ["ETag", gzip ? entry.gzipEtag : entry.etag],
      ["Vary", "Accept-Encoding"],
      // Availability changes with every sale, so browsers must ask again (a cheap 304) each time.
      ["Cache-Control", "no-cache"],
    ];
    if (fresh) return new Response(null, { status: 304, headers });
    headers.push(["Content-Type", "application/json"]);
    if (gzip) headers.push(["Content-Encoding", "gzip"]);
    return new Response(gzip ? entry.gzip : entry.body, { headers });
  };
}

/** Switches, products and availability (docs/product.md#catalogue-api). */
export function catalogRoutes({ kv, imageBase }: RouteDeps): Hono {
  const app = new Hono();

  app.get("/switches", versionedJson(kv, () => shopSwitches(kv)));
  app.get("/products", versionedJson(kv, () => shopProducts(kv, imageBase)));

  app.get("/packs", versionedJson(kv, () => listPacksOnSale(kv, imageBase)));

  app.get("/packs/:slug", async (c) => {
    return c.json(await getPackPage(kv, c.req.param("slug"), imageBase));
  });

  for (const kind of ["testers", "items"] as const) {
    app.get(`/${kind}/:id/availability`, validateParams(idParam), async (c) => {
      const available = await availabilityOf(kv, kind, c.req.valid("param").id);
      return c.json({ available } satisfies AvailabilityView);
    });
  }
  return app;
}
