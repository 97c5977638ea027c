import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

/** URLs whose reads are remembered: each is a short list of API paths. */
const MAX_URLS = 5_000;

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
 * millisecond. The kept bytes are bounded (least recently used goes first), whatever URLs
 * clients send.
 */
export function createPageCache(maxBytes: number) {
  const pathsByUrl = new Map<string, string[]>();
  const pages = new Map<string, Uint8Array>();
  let bytes = 0;

  /** What a document was made from, hashed: the switch list alone is 26 KB of JSON. */
  function keyOf(origin: string, url: string, paths: string[], answers: unknown[]): string {
    return createHash("sha256").update(JSON.stringify([origin, url, paths, answers]))
      .digest("base64");
  }

  function forget(key: string): void {
    const page = pages.get(key);
    if (!page) return;
    pages.delete(key);
    bytes -= page.length;
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
      pathsByUrl.delete(url);
      pathsByUrl.set(url, paths);
      if (pathsByUrl.size > MAX_URLS) pathsByUrl.delete(pathsByUrl.keys().next().value!);
      const key = keyOf(origin, url, paths, answers);
      forget(key);
      const page = gzipSync(html, { level: 6 });
      if (page.length > maxBytes) return;
      pages.set(key, page);
      bytes += page.length;
      while (bytes > maxBytes) forget(pages.keys().next().value!);
    },

    /** The bytes of every kept document together. */
    bytes(): number {
      return bytes;
    },
  };
}
