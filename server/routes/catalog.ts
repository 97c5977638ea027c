import { type Context, Hono } from "hono";
import { z } from "zod";
import { type Bom, bomOf, type StockKey, switchKey, unitsAvailable } from "../../shared/bom.ts";
import { itemImageUrl, packImageUrl, uploadedImageUrl } from "../../shared/images.ts";
import { toDollars } from "../../shared/pricing.ts";
import type { AvailabilityView, ProductView, SwitchView } from "../../shared/api_types.ts";
import { idSchema } from "../../shared/schemas.ts";
import type { AppDeps } from "../deps.ts";
import { NotFound } from "../errors.ts";
import { listProducts, listSwitches, productSnapshot } from "../catalog/store.ts";
import { getPackPage, listPacksOnSale } from "../catalog/packs.ts";
import { stockSnapshot } from "../stock/store.ts";
import { perStockVersion } from "../kv/version.ts";
import { validateParams } from "../middleware/validate.ts";

const idParam = z.object({ id: idSchema });

/** Whether one unit of something can be made from current stock (advisory, per stock version). */
function isAvailable(counts: Map<StockKey, number>, bom: Bom): boolean {
  return unitsAvailable(bom, (k) => counts.get(k) ?? 0) > 0;
}

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
export function catalogRoutes({ kv, imageBase }: AppDeps & { imageBase: string }): Hono {
  const app = new Hono();

  app.get(
    "/switches",
    versionedJson(kv, async () => {
      const [switches, stock] = await Promise.all([listSwitches(kv), stockSnapshot(kv)]);
      // Retired switches are no longer offered; orders and carts still find them by id.
      return switches.filter((s) => !s.retired).map((s) => ({
        id: s.id,
        name: s.name,
        brand: s.brand,
        type: s.type,
        force: s.force,
        image: s.image,
        available: (stock.get(switchKey(s.id)) ?? 0) > 0,
        extraPrice: toDollars(s.extraPriceCents),
        referralLink: s.referralLink,
        // Only an upload cannot be derived from `image`, so only it costs bytes in this list.
        ...(s.upload ? { imageUrl: uploadedImageUrl(s.upload) } : {}),
      } satisfies SwitchView));
    }),
  );

  app.get(
    "/products",
    versionedJson(kv, async () => {
      const [products, stock] = await Promise.all([listProducts(kv), stockSnapshot(kv)]);
      const onSale = products.filter((p) => p.onSale).sort((a, b) => a.id - b.id);
      return onSale.map((p): ProductView => ({
        id: p.id,
        name: p.name,
        price: toDollars(p.priceCents),
        priceCents: p.priceCents,
        image: p.image,
        imageUrl: p.packSlug
          ? packImageUrl(imageBase, p.image, p.upload)
          : itemImageUrl(imageBase, p.image, p.upload),
        path: p.path,
        packSlug: p.packSlug,
        withKeycaps: p.withKeycaps,
        available: unitsAvailable(bomOf(p.bom), (k) => stock.get(k) ?? 0) > 0,
        onSale: p.onSale,
      }));
    }),
  );

  app.get("/packs", versionedJson(kv, () => listPacksOnSale(kv, imageBase)));

  app.get("/packs/:slug", async (c) => {
    return c.json(await getPackPage(kv, c.req.param("slug"), imageBase));
  });

  for (const kind of ["testers", "items"] as const) {
    app.get(`/${kind}/:id/availability`, validateParams(idParam), async (c) => {
      const { id } = c.req.valid("param");
      // Both snapshots at once: after a stock change, one round of rebuilds.
      const [products, counts] = await Promise.all([productSnapshot(kv), stockSnapshot(kv)]);
      const product = products.get(id);
      const isRightKind = product && (kind === "testers" ? !!product.packSlug : !product.packSlug);
      if (!product || !isRightKind) {
        throw new NotFound(`No ${kind === "testers" ? "tester" : "item"} with id ${id}`);
      }
      // Something taken off sale cannot be bought, whatever the stock.
      const available = product.onSale && isAvailable(counts, bomOf(product.bom));
      return c.json({ available } satisfies AvailabilityView);
    });
  }
  return app;
}
