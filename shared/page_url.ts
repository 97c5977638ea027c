import { findPage } from "./routes.ts";

/**
 * Where every path the shop has no page for is rendered: the not-found page reads nothing of the
 * path, so one document serves them all.
 */
export const NOT_FOUND_URL = "/page-not-found";

/**
 * The URL a page is rendered for: its path (trailing slashes dropped, as pages are matched) and
 * only the query parameters the page reads (PageInfo.query), sorted, each once (its first value,
 * as URLSearchParams.get reads it). The server renders and keeps one document per such URL, and
 * the browser compares its own location the same way to know the embedded data is its page's, so
 * any other parameter (a tracker's, or a random one meant to defeat the cache) changes nothing.
 */
export function pageUrl(pathname: string, search: string): string {
  const page = findPage(pathname);
  if (!page) return NOT_FOUND_URL;
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const given = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of [...(page.query ?? [])].sort()) {
    const value = given.get(name);
    if (value !== null) kept.set(name, value);
  }
  const query = kept.toString();
  return query ? `${path}?${query}` : path;
}
