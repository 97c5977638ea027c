import { matchPage } from "./routes.ts";

/**
 * Where every path the shop has no page for is rendered: the not-found page reads nothing of the
 * path, so one document serves them all.
 */
export const NOT_FOUND_URL = "/page-not-found";

/**
 * The URL a page is rendered for: the page's own path (shared/routes.ts matchPage: trailing
 * slashes dropped, letters and escapes as the shop writes them) and
 * only the query parameters the page reads (PageInfo.query), sorted, each once (its first value,
 * as URLSearchParams.get reads it). The server renders and keeps one document per such URL, and
 * the browser compares its own location the same way to know the embedded data is its page's, so
 * any other parameter (a tracker's, or a random one meant to defeat the cache) changes nothing.
 */
export function pageUrl(pathname: string, search: string): string {
  const match = matchPage(pathname);
  if (!match) return NOT_FOUND_URL;
  const { page, path } = match;
  const given = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of [...(page.query ?? [])].sort()) {
    const value = given.get(name);
    if (value !== null) kept.set(name, value);
  }
  const query = kept.toString();
  return query ? `${path}?${query}` : path;
}
