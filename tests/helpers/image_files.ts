/**
 * Real image files for upload tests, made here so no binary fixture is needed: PNGs with their
 * pixels deflated as PNG requires (noise, so a large one stays large), and JPEG and WebP files
 * whose headers and structure are what an encoder writes.
 */

/** A repeatable stream of bytes from `seed` (xorshift), never 0xFF (a JPEG's marker byte). */
function noise(length: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  let x = (seed * 2654435761 + 1) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    bytes[i] = x % 255;
  }
  return bytes;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const ascii = (s: string) => new TextEncoder().encode(s);

/** One PNG chunk: length, type, data and the CRC of type and data. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const head = new Uint8Array(8);
  new DataView(head.buffer).setUint32(0, data.length);
  head.set(ascii(type), 4);
  const crc = new Uint8Array(4);
  new DataView(crc.buffer).setUint32(0, crc32(concat([ascii(type), data])));
  return concat([head, data, crc]);
}

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** An RGB PNG of `width` × `height` noise pixels (each row filtered "none"). */
export async function pngFile(
  width = 4,
  height = 4,
  seed = 0,
): Promise<Uint8Array<ArrayBuffer>> {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = 1 + width * 3;
  const raw = noise(row * height, seed);
  for (let y = 0; y < height; y++) raw[y * row] = 0;
  const idat = new Uint8Array(
    await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate")))
      .arrayBuffer(),
  );
  return concat([
    new Uint8Array(PNG_SIGNATURE),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", idat),
    pngChunk("IEND", new Uint8Array()),
  ]);
}

/** A baseline JPEG's segments around `size` bytes of scan data (no 0xFF in it). */
export function jpegFile(width = 4, height = 4, size = 64, seed = 0): Uint8Array<ArrayBuffer> {
  const segment = (marker: number, data: number[]) => [
    0xff,
    marker,
    (data.length + 2) >> 8,
    (data.length + 2) & 0xff,
    ...data,
  ];
  const sof = [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3];
  for (let c = 1; c <= 3; c++) sof.push(c, 0x11, 0);
  return concat([
    new Uint8Array([0xff, 0xd8]),
    new Uint8Array(segment(0xe0, [...ascii("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0])),
    new Uint8Array(segment(0xdb, [0, ...new Array(64).fill(1)])),
    new Uint8Array(segment(0xc0, sof)),
    new Uint8Array(segment(0xc4, [0, ...new Array(16).fill(0).map((_, i) => i === 0 ? 1 : 0), 0])),
    new Uint8Array(segment(0xda, [3, 1, 0, 2, 0, 3, 0, 0, 63, 0])),
    noise(size, seed),
    new Uint8Array([0xff, 0xd9]),
  ]);
}

/** A lossless WebP (VP8L) of `width` × `height` with `size` bytes of image data. */
export function webpFile(width = 4, height = 4, size = 32): Uint8Array<ArrayBuffer> {
  const bits = (width - 1) | ((height - 1) << 14);
  const header = [
    0x2f,
    bits & 0xff,
    (bits >>> 8) & 0xff,
    (bits >>> 16) & 0xff,
    (bits >>> 24) & 0x0f,
  ];
  const data = concat([new Uint8Array(header), noise(size, 1)]);
  const padded = data.length % 2 ? concat([data, new Uint8Array(1)]) : data;
  const chunkHead = new Uint8Array(8);
  chunkHead.set(ascii("VP8L"));
  new DataView(chunkHead.buffer).setUint32(4, data.length, true);
  const body = concat([ascii("WEBP"), chunkHead, padded]);
  const riff = new Uint8Array(8);
  riff.set(ascii("RIFF"));
  new DataView(riff.buffer).setUint32(4, body.length, true);
  return concat([riff, body]);
}
