import { SHOP_NAME } from "../../shared/policy.ts";
import { type PageInfo, pageTitle } from "../../shared/routes.ts";
import { PACK_INFO } from "../../shared/catalog/pack_info.ts";
import { escapeHtml } from "../../shared/html.ts";
import { PREVIEW_HEIGHT, PREVIEW_WIDTH } from "../images/render_svg.ts";

/** The names of the link preview images (/images/previews/{name}.png): one per kind of page. */
export const PREVIEW_NAMES = ["shop", "custom", "fidget-cube", ...PACK_INFO.map((p) => p.slug)];

/**
 * The link preview image of a page: its pack's, its configurator's, or the shop's own (three of
 * its testers) for every other page.
 */
export function previewImagePath(page: PageInfo | undefined): string {
  const name = page?.path.startsWith("/testers/") ? page.path.slice("/testers/".length) : "shop";
  return `/images/previews/${PREVIEW_NAMES.includes(name) ? name : "shop"}.png`;
}

/** A picture of one thing shared by its link (a configurator build) instead of the page's own. */
export interface Preview {
  title: string;
  /** Absolute URLs. */
  image: string;
  url: string;
}

/** Whether a page sells one thing (a pack or a configurator), as link previews call it. */
function isProductPage(page: PageInfo): boolean {
  return page.path.startsWith("/testers/");
}

/**
 * The head tags every page gets for search engines and link previews: its canonical URL, Open
 * Graph and Twitter card, with a 1200×630 PNG. `pathname` is the page's own path (an order's
 * tracking page has its number in it); the query is never part of the canonical URL.
 */
export function pageMetaTags(
  page: PageInfo | undefined,
  pathname: string,
  origin: string,
  preview?: Preview | null,
): string {
  if (!page) return "";
  const canonical = `${origin}${pathname.length > 1 ? pathname.replace(/\/+$/, "") : "/"}`;
  const url = preview?.url ?? canonical;
  const title = preview?.title ?? pageTitle(page.title);
  const image = preview?.image ?? `${origin}${previewImagePath(page)}`;
  const alt = isProductPage(page)
    ? `${page.title}: a 3D-printed switch tester`
    : `${SHOP_NAME}: 3D-printed switch testers`;
  const tags: [string, string, string][] = [
    ["property", "og:type", isProductPage(page) ? "product" : "website"],
    ["property", "og:site_name", SHOP_NAME],
    ["property", "og:title", title],
    ["property", "og:description", page.description],
    ["property", "og:url", url],
    ["property", "og:image", image],
    ["property", "og:image:type", "image/png"],
    ["property", "og:image:width", String(PREVIEW_WIDTH)],
    ["property", "og:image:height", String(PREVIEW_HEIGHT)],
    ["property", "og:image:alt", alt],
    ["name", "twitter:card", "summary_large_image"],
    ["name", "twitter:title", title],
    ["name", "twitter:description", page.description],
    ["name", "twitter:image", image],
    ["name", "twitter:image:alt", alt],
  ];
  return [
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    ...tags.map(([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeHtml(value)}">`),
  ].join("\n    ");
}
