import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

/** URLs whose reads are remembered: each is a short list of API paths. */
const MAX_URLS = 5_000;

/**
 * The longest URL (path and the parameters its page reads) whose document is kept. A shared build
 * link is a few hundred characters; a longer URL is rendered and served but never kept, so
 * nobody fills the cache with URLs instead of pages.
 */
export const MAX_KEPT_URL = 2_048;

/** The share of the bound the remembered URLs and their reads may take; pages get the rest. */
const URL_SHARE = 1 / 4;

/** What a remembered URL costs: its text and its reads' paths (ASCII, a byte a character). */
function urlBytes(url: string, paths: string[]): number {
  return paths.reduce((sum, path) => sum + path.length, url.length);
}

/** A kept document's key: a SHA-256, base64. */
const KEY_BYTES = 44;

/**
 * Rendered documents by what they were made from. A page's HTML depends only on the shop's origin
 * (in its canonical and preview tags), the URL it was rendered for (shared/page_url.ts: its path
 * and the parameters it reads) and the API answers it read, and those answers are cheap (the
 * catalogue's are kept per stock version), so a request first reads the answers the same URL read
 * last time and, when a document was made from exactly those, sends it without rendering. A
 * changed price, stock level or notice changes the answers and so the key: nothing is served
 * stale.
 *
 * A document is kept gzipped only, compressed once when it is kept (level 6: a few milliseconds
 * for the largest page, where brotli's best costs some 200 ms of the event loop): nearly every
 * browser takes gzip, and the rare one that does not is sent it inflated, which costs less than a
 * millisecond. The bound counts everything kept, whatever URLs clients send: the documents and
 * their keys, and the URLs remembered with what they read (at most a quarter of the bound, each
 * URL at most MAX_KEPT_URL long); least recently used goes first.
 */
export function createPageCache(maxBytes: number) {
  const pathsByUrl = new Map<string, string[]>();
  const pages = new Map<string, Uint8Array>();
  let pageBytes = 0;
  let rememberedBytes = 0;

  /** What a document was made from, hashed: the switch list alone is 26 KB of JSON. */
  function keyOf(origin: string, url: string, paths: string[], answers: unknown[]): string {
    return createHash("sha256").update(JSON.stringify([origin, url, paths, answers]))
      .digest("base64");
  }

  function forget(key: string): void {
    const page = pages.get(key);
    if (!page) return;
    pages.delete(key);
    pageBytes -= page.length + KEY_BYTES;
  }

  function forgetUrl(url: string): void {
    const paths = pathsByUrl.get(url);
    if (!paths) return;
    pathsByUrl.delete(url);
    rememberedBytes -= urlBytes(url, paths);
  }

  return {
    /**
     * The key of a URL's document as it would be rendered now: the origin, the URL and the
     * answers it read last time, read again. Null when the URL has not been rendered yet.
     */
    async keyFor(
      origin: string,
      url: string,
      answer: (path: string) => Promise<unknown>,
    ): Promise<string | null> {
      const paths = pathsByUrl.get(url);
      if (!paths) return null;
      return keyOf(origin, url, paths, await Promise.all(paths.map((path) => answer(path))));
    },

    /** A kept document, gzipped, or null. */
    get(key: string): Uint8Array | null {
      const page = pages.get(key);
      if (!page) return null;
      pages.delete(key);
      pages.set(key, page);
      return page;
    },

    /** Keeps what a URL's render read, and the document it made under the key of those answers. */
    remember(origin: string, url: string, paths: string[], answers: unknown[], html: string): void {
      const size = urlBytes(url, paths);
      const urlBound = maxBytes * URL_SHARE;
      if (url.length > MAX_KEPT_URL || size > urlBound) return;
      forgetUrl(url);
      pathsByUrl.set(url, paths);
      rememberedBytes += size;
      while (pathsByUrl.size > MAX_URLS || rememberedBytes > urlBound) {
        forgetUrl(pathsByUrl.keys().next().value!);
      }
      const key = keyOf(origin, url, paths, answers);
      forget(key);
      const page = gzipSync(html, { level: 6 });
      if (page.length + KEY_BYTES > maxBytes - rememberedBytes) return;
      pages.set(key, page);
      pageBytes += page.length + KEY_BYTES;
      while (pageBytes + rememberedBytes > maxBytes) forget(pages.keys().next().value!);
    },

    /** The bytes of everything kept: documents, their keys, and the URLs remembered. */
    bytes(): number {
      return pageBytes + rememberedBytes;
    },
  };
}
