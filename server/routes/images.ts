import { Hono } from "hono";
import { resolveImage } from "../images/image_names.ts";

/** Generated product illustrations under /images (the local stand-in for the image CDN). */
export function imageRoutes(): Hono {
  return new Hono().get("/*", (c) => {
    const image = resolveImage(c.req.path.replace(/^\/images\//, ""));
    if (!image) return c.text("No such image", 404);
    return c.body(image.svg, 200, {
      "Content-Type": "image/svg+xml",
      "Cache-Control": "public, max-age=86400",
      // An SVG opened directly must not run anything, whatever it contains.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    });
  });
}
