import { Hono } from "hono";
import { resolveImage, switchImageNameOf } from "../images/image_names.ts";
import { switchSvg } from "../images/render_svg.ts";
import { switchesByImage } from "../db/catalog.ts";
import { readImage } from "../db/image_store.ts";
import { UPLOAD_TYPES } from "../../shared/images.ts";

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
 * Generated product illustrations under /images (the local stand-in for the image CDN), and the
 * images the owner uploaded, by their content hash.
 */
export function imageRoutes(kv: Deno.Kv): Hono {
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
