import { Hono } from "hono";
import { resolveImage, switchImageNameOf } from "../images/image_names.ts";
import { switchSvg } from "../images/render_svg.ts";
import { switchesByImage } from "../db/catalog.ts";

/**
 * The illustration of a switch the owner added (it is in the store, not the compiled
 * catalogue), or null.
 */
async function addedSwitchImage(kv: Deno.Kv, path: string): Promise<{ svg: string } | null> {
  const name = switchImageNameOf(path);
  const sw = name === null ? undefined : (await switchesByImage(kv)).get(name);
  return sw ? { svg: switchSvg(sw) } : null;
}

/** Generated product illustrations under /images (the local stand-in for the image CDN). */
export function imageRoutes(kv: Deno.Kv): Hono {
  return new Hono().get("/*", async (c) => {
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
