import { Hono } from "hono";
import { resolveImage, switchImageNameOf } from "../images/image_names.ts";
import {
  buildPreviewSvg,
  cubeSvg,
  PREVIEW_HEIGHT,
  PREVIEW_WIDTH,
  previewCanvasSvg,
  switchSvg,
} from "../images/render_svg.ts";
import { svgToPng } from "../images/png.ts";
import { switchesByImage, switchSnapshot } from "../catalog/store.ts";
import { readBuildLink } from "../../shared/build_link.ts";
import { type BodyColor, DEFAULT_BODY_COLOR } from "../../shared/pricing.ts";
import { readImage } from "../catalog/image_store.ts";
import { UPLOAD_TYPES } from "../../shared/images.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { PREVIEW_NAMES } from "../ssr/page_meta.ts";
import type { AppDeps } from "../deps.ts";
import { clientKey } from "../middleware/client_key.ts";
import { createClientBudget } from "../http/client_budget.ts";

/** An uploaded image's path: its SHA-256 and the extension of its type. */
const UPLOAD_PATH = /^\/images\/uploads\/([0-9a-f]{64})\.(png|jpg|webp)$/;

/**
 * The illustration of a switch the owner added (it is in the store, not the compiled
 * catalogue), or null.
 */
async function addedSwitchImage(kv: Deno.Kv, path: string): Promise<{ svg: string } | null> {
  const name = switchImageNameOf(path);
  const sw = name === null ? undefined : (await switchesByImage(kv)).get(name);
  return sw ? { svg: switchSvg(sw) } : null;
}

/**
 * Rendered previews kept in memory (least recently used dropped first): a shared link is fetched
 * in bursts. Bounded in count and in bytes (a preview is 15 to 100 KB).
 */
const MAX_PREVIEWS = 200;
const MAX_PREVIEW_BYTES = 16 * 1024 * 1024;

/** What a build's picture shows, and nothing else: one picture per build, whatever the URL. */
type BuildPicture =
  | { kind: "cube"; keycaps: "white" | "pastel"; body: BodyColor }
  | { kind: "tester"; size: number; colors: string[] };

/** The picture a build link asks for: only what the drawing reads, unknown switches left out. */
async function pictureOf(kv: Deno.Kv, params: URLSearchParams): Promise<BuildPicture> {
  const kind = params.get("kind") === "cube" ? "cube" : "tester";
  const link = readBuildLink(params, kind);
  if (kind === "cube") {
    const keycaps = link.keycaps === "pastel" ? "pastel" : "white";
    return { kind, keycaps, body: link.bodyColor ?? DEFAULT_BODY_COLOR };
  }
  const size = link.size ?? 10;
  const known = await switchSnapshot(kv);
  const chosen = link.switchIds.flatMap((id) => (known.get(id) ? [known.get(id)!] : []));
  return { kind, size, colors: chosen.slice(0, size).map((sw) => sw.color) };
}

/**
 * The key a picture is kept under: what it shows. The switches' colours are in it, so a switch
 * the owner recoloured is drawn again, and two builds that look alike share one picture.
 */
function pictureKey(picture: BuildPicture): string {
  return JSON.stringify(picture);
}

/** The preview of a build: its tester's switches in their sockets, or its cube. */
function previewSvg(picture: BuildPicture): string {
  if (picture.kind === "cube") {
    // The 240-pixel cube drawn large in the middle of the preview canvas.
    const cube = cubeSvg(picture.keycaps, picture.body).replace(
      'width="240" height="240"',
      `x="${(PREVIEW_WIDTH - 560) / 2}" y="35" width="560" height="560"`,
    );
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}"><rect width="100%" height="100%" fill="#f6efe6"/>${cube}</svg>`;
  }
  return buildPreviewSvg(picture.colors.map((color) => ({ color })), picture.size);
}

/** The illustrations a page's preview shows (see previewImagePath), by preview name. */
function pagePreviewSvg(name: string): string | null {
  const image = (path: string) => resolveImage(path)?.svg ?? "";
  if (name === "shop") {
    const starter = PACKS.find((p) => p.slug === "starter-pack")!;
    return previewCanvasSvg([
      image(`packs/${starter.image}.svg`),
      image("items/custom-tester.svg"),
      image("cubes/cube-pastel-black.svg"),
    ]);
  }
  if (name === "custom") return previewCanvasSvg([image("items/custom-tester.svg")]);
  if (name === "fidget-cube") return previewCanvasSvg([image("cubes/cube-pastel-black.svg")]);
  const pack = PACKS.find((p) => p.slug === name);
  return pack ? previewCanvasSvg([image(`packs/${pack.image}.svg`)]) : null;
}

/**
 * Generated product illustrations under /images (the local stand-in for the image CDN), and the
 * images the owner uploaded, by their content hash.
 */
export function imageRoutes(
  { kv, clock, logger, config }: Pick<AppDeps, "kv" | "clock" | "logger" | "config">,
): Hono {
  const previews = new Map<string, Uint8Array>();
  let previewBytes = 0;
  function keep(key: string, png: Uint8Array): void {
    previews.set(key, png);
    previewBytes += png.length;
    while (previews.size > MAX_PREVIEWS || previewBytes > MAX_PREVIEW_BYTES) {
      const oldest = previews.keys().next().value!;
      previewBytes -= previews.get(oldest)!.length;
      previews.delete(oldest);
    }
  }
  // A drawing is tens of milliseconds of the only thread: each client has a budget of new ones,
  // and the shop one for all.
  const clientRenders = createClientBudget(config.renders.previewsPerClient, clock);
  const shopRenders = createClientBudget(config.renders.previewsPerShop, clock);
  const app = new Hono();
  app.get("/uploads/*", async (c) => {
    const match = UPLOAD_PATH.exec(c.req.path);
    const image = match ? await readImage(kv, match[1]) : null;
    if (!image || UPLOAD_TYPES[image.meta.type] !== match?.[2]) {
      return c.json({ error: "No such image" }, 404);
    }
    // The name is the hash of the bytes, so they never change under it.
    const headers = {
      "Cache-Control": "public, max-age=31536000, immutable",
      ETag: `"${match[1]}"`,
      "X-Content-Type-Options": "nosniff",
    };
    if (c.req.header("If-None-Match")?.includes(headers.ETag)) return c.body(null, 304, headers);
    return c.body(image.bytes, 200, { ...headers, "Content-Type": image.meta.type });
  });
  // Link previews of the shop's pages (page_meta.ts names them): rendered once each.
  app.get("/previews/:file", async (c) => {
    const name = /^([a-z-]+)\.png$/.exec(c.req.param("file"))?.[1];
    if (!name || !PREVIEW_NAMES.includes(name)) return c.json({ error: "No such preview" }, 404);
    let png = previews.get(`page:${name}`);
    if (!png) {
      png = await svgToPng(pagePreviewSvg(name)!);
      keep(`page:${name}`, png);
    }
    return c.body(png as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "image/png",
      "Cache-Control": "public, max-age=86400",
    });
  });
  app.get("/build.png", async (c) => {
    const search = new URL(c.req.url).search;
    // A build's link is short (20 ids at most); a longer one is not one the shop made.
    if (search.length > 600) return c.json({ error: "That build link is too long" }, 400);
    const picture = await pictureOf(kv, new URLSearchParams(search));
    const key = pictureKey(picture);
    let png = previews.get(key);
    if (png) {
      previews.delete(key);
      previews.set(key, png);
    } else {
      const wait = clientRenders.take(clientKey(c));
      if (wait !== null) {
        return c.json(
          { error: `Too many new previews from this address: try again in ${wait} seconds` },
          429,
          { "Retry-After": String(wait), "Cache-Control": "no-store" },
        );
      }
      const busy = shopRenders.take("shop");
      if (busy !== null) {
        return c.json(
          { error: `The shop is drawing many previews: try again in ${busy} seconds` },
          503,
          { "Retry-After": String(busy), "Cache-Control": "no-store" },
        );
      }
      const started = performance.now();
      png = await svgToPng(previewSvg(picture));
      keep(key, png);
      logger({ msg: "preview rendered", ms: Math.round(performance.now() - started) });
    }
    return c.body(png as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "image/png",
      // A build's picture changes only with the catalogue's colours: a day is plenty.
      "Cache-Control": "public, max-age=86400",
    });
  });
  return app.get("/*", async (c) => {
    const path = c.req.path.replace(/^\/images\//, "");
    const image = resolveImage(path) ?? await addedSwitchImage(kv, path);
    if (!image) return c.text("No such image", 404);
    return c.body(image.svg, 200, {
      "Content-Type": "image/svg+xml",
      "Cache-Control": "public, max-age=86400",
      // An SVG opened directly must not run anything, whatever it contains.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    });
  });
}
