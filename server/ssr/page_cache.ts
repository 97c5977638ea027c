import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { PageEncoding } from "./compress.ts";

/** One rendered document, with its compressed copies made on first use. */
interface CachedPage {
  html: Uint8Array;
  encoded: Partial<Record<PageEncoding, Uint8Array>>;
}

/**
 * Rendered documents by what they were made from. A page's HTML depends only on the shop's origin
 * (in its canonical and preview tags), its URL and the API answers it read, and those answers are cheap (the catalogue's are
 * kept per stock version), so a request first reads the answers the same URL read last time and,
 * when a document was made from exactly those, sends it without rendering. A changed price, stock
 * level or notice changes the answers and so the key: nothing is served stale. Both maps are
 * bounded (least recently used goes first), whatever URLs clients send.
 */
export function createPageCache(limit = 200) {
  const pathsByUrl = new Map<string, string[]>();
  const pages = new Map<string, CachedPage>();

  /** What a document was made from, hashed: the switch list alone is 26 KB of JSON. */
  function keyOf(origin: string, url: string, paths: string[], answers: unknown[]): string {
    return createHash("sha256").update(JSON.stringify([origin, url, paths, answers]))
      .digest("base64");
  }

  function touch<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > max) map.delete(map.keys().next().value!);
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

    /** A cached document in an encoding (null: as it is), or null. */
    get(key: string, encoding: PageEncoding | null): Uint8Array | null {
      const page = pages.get(key);
      if (!page) return null;
      touch(pages, key, page, limit);
      if (!encoding) return page.html;
      return page.encoded[encoding] ??= encoding === "br"
        ? brotliCompressSync(page.html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
        : gzipSync(page.html, { level: 9 });
    },

    /** Keeps what a URL's render read, and the document it made under the key of those answers. */
    remember(origin: string, url: string, paths: string[], answers: unknown[], html: string): void {
      touch(pathsByUrl, url, paths, limit * 5);
      const key = keyOf(origin, url, paths, answers);
      touch(pages, key, { html: new TextEncoder().encode(html), encoded: {} }, limit);
    },
  };
}
