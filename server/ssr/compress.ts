import { constants, createBrotliCompress, createGzip } from "node:zlib";

/** The content encodings pages are sent in, best first. */
export type PageEncoding = "br" | "gzip";

/**
 * The encoding a page is sent in, or null to send it as it is. Gzip first: a page is compressed
 * as it renders, where brotli costs several times the CPU for a few percent fewer bytes, and a
 * kept page is kept gzipped (server/ssr/page_cache.ts).
 */
export function pageEncoding(acceptEncoding: string): PageEncoding | null {
  const accepts = (name: string) =>
    new RegExp(`\\b${name}\\b(?!;q=0(\\.0*)?\\b)`).test(acceptEncoding);
  return accepts("gzip") ? "gzip" : accepts("br") ? "br" : null;
}

/**
 * A page's bytes compressed as they stream. The first chunk (the document's head) is flushed on
 * its own, so the browser starts on the head (its stylesheet) while the server renders the rest;
 * later chunks are compressed together. Brotli at level 5 and gzip at 6 cost about a millisecond
 * for a large page, far less than sending it uncompressed to a phone.
 */
export function compressed(
  body: ReadableStream<Uint8Array>,
  encoding: PageEncoding,
): ReadableStream<Uint8Array> {
  const zip = encoding === "br"
    ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
    : createGzip({ level: 6 });
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip.on("data", (chunk: Uint8Array) => controller.enqueue(new Uint8Array(chunk)));
      zip.on("end", () => controller.close());
      zip.on("error", (err) => controller.error(err));
      (async () => {
        let first = true;
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          zip.write(read.value);
          if (first) {
            first = false;
            await new Promise<void>((resolve) => zip.flush(() => resolve()));
          }
        }
        zip.end();
      })().catch((err) => zip.destroy(err));
    },
    cancel(reason) {
      zip.destroy();
      return reader.cancel(reason);
    },
  });
}
