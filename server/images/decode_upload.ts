/**
 * Reads an uploaded image before it is kept: its dimensions from the format's own header (PNG
 * IHDR, JPEG SOF, WebP VP8/VP8L/VP8X) and its whole structure, to its end marker and not a byte
 * past it. A PNG's pixels are inflated too (counted, not kept), so a PNG is known to decode. A
 * file that only starts like an image (eight bytes of PNG signature, a signature in front of
 * HTML) or an image with something else appended (a ZIP or a page behind the end marker: a
 * polyglot) is refused with what is wrong, so only pictures are ever served from the shop.
 */
import type { UploadType } from "../../shared/images.ts";

/** What an upload turned out to be. */
export interface DecodedImage {
  type: UploadType;
  width: number;
  height: number;
}

/** An image, or why the bytes are not one. */
export type Decoded = { ok: true; image: DecodedImage } | { ok: false; problem: string };

/** The widest or tallest image kept: a shop photo is far smaller; more is a decoding bomb. */
export const MAX_IMAGE_SIDE = 8000;
/** The most pixels an image may have (a 24-megapixel camera photo). */
export const MAX_IMAGE_PIXELS = 24_000_000;

/** Decodes `bytes`, which start like `type` (shared/images.ts sniffImageType). */
export async function decodeUpload(bytes: Uint8Array, type: UploadType): Promise<Decoded> {
  const result = type === "image/png"
    ? await readPng(bytes)
    : type === "image/jpeg"
    ? readJpeg(bytes)
    : readWebp(bytes);
  if (typeof result === "string") return { ok: false, problem: result };
  const [width, height] = result;
  if (width < 1 || height < 1) return { ok: false, problem: "it has no pixels" };
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    return {
      ok: false,
      problem:
        `it is ${width} × ${height} pixels; at most ${MAX_IMAGE_SIDE} a side and ${MAX_IMAGE_PIXELS} in all`,
    };
  }
  return { ok: true, image: { type, width, height } };
}

type Size = [number, number];

// ---------------------------------------------------------------------------------------------
// PNG

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Bit depths each PNG colour type allows, and its samples per pixel. */
const PNG_COLOURS: Record<number, { depths: number[]; samples: number }> = {
  0: { depths: [1, 2, 4, 8, 16], samples: 1 },
  2: { depths: [8, 16], samples: 3 },
  3: { depths: [1, 2, 4, 8], samples: 1 },
  4: { depths: [8, 16], samples: 2 },
  6: { depths: [8, 16], samples: 4 },
};

/** The Adam7 passes: first column, first row, column step, row step. */
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [
  0,
  1,
  1,
  2,
]];

async function readPng(bytes: Uint8Array): Promise<Size | string> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let header:
    | { width: number; height: number; depth: number; colour: number; interlaced: boolean }
    | null = null;
  let palette = false;
  const data: Uint8Array[] = [];
  let idatDone = false;
  for (;;) {
    if (at + 12 > bytes.length) return "it ends before its IEND chunk";
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (!/^[A-Za-z]{4}$/.test(type)) return "a chunk has no valid type";
    if (length > bytes.length - at - 12) return `its ${type} chunk runs past the end of the file`;
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length)) {
      return `its ${type} chunk is damaged (wrong checksum)`;
    }
    at += 12 + length;
    if (header === null && type !== "IHDR") return "it does not start with an IHDR header";
    if (type === "IHDR") {
      if (header !== null) return "it has two IHDR headers";
      if (length !== 13) return "its IHDR header has the wrong length";
      const h = new DataView(body.buffer, body.byteOffset, 13);
      header = {
        width: h.getUint32(0),
        height: h.getUint32(4),
        depth: body[8],
        colour: body[9],
        interlaced: body[12] === 1,
      };
      const colour = PNG_COLOURS[header.colour];
      if (!colour || !colour.depths.includes(header.depth)) {
        return "its IHDR names a colour type and bit depth PNG does not have";
      }
      if (body[10] !== 0 || body[11] !== 0 || body[12] > 1) {
        return "its IHDR names a compression, filter or interlace method PNG does not have";
      }
      // Checked here, before any pixel is inflated.
      if (header.width > MAX_IMAGE_SIDE || header.height > MAX_IMAGE_SIDE) {
        return `it is ${header.width} × ${header.height} pixels; at most ${MAX_IMAGE_SIDE} a side`;
      }
      if (header.width * header.height > MAX_IMAGE_PIXELS) {
        return `it has ${header.width * header.height} pixels; at most ${MAX_IMAGE_PIXELS}`;
      }
    } else if (type === "PLTE") {
      palette = true;
    } else if (type === "IDAT") {
      if (idatDone) return "its image data is split by other chunks";
      data.push(body);
    } else if (type === "IEND") {
      if (at !== bytes.length) return "something else follows its IEND end chunk";
      break;
    } else if (data.length > 0) {
      idatDone = true;
    }
  }
  if (!header) return "it has no IHDR header";
  if (data.length === 0) return "it has no image data";
  if (header.colour === 3 && !palette) return "it is a palette image without a palette";
  const expected = pngDataSize(header);
  const inflated = await inflatedSize(data, expected);
  if (inflated === null) return "its image data does not decompress";
  if (inflated !== expected) return "its image data does not match its size";
  return [header.width, header.height];
}

/** Bytes the pixels inflate to: each row (of each interlace pass) with its filter byte. */
function pngDataSize(
  h: { width: number; height: number; depth: number; colour: number; interlaced: boolean },
) {
  const bits = PNG_COLOURS[h.colour].samples * h.depth;
  const rows = (width: number, height: number) =>
    width === 0 || height === 0 ? 0 : height * (1 + Math.ceil((width * bits) / 8));
  if (!h.interlaced) return rows(h.width, h.height);
  return ADAM7.reduce(
    (n, [x, y, dx, dy]) =>
      n + rows(Math.ceil(Math.max(0, h.width - x) / dx), Math.ceil(Math.max(0, h.height - y) / dy)),
    0,
  );
}

/**
 * How many bytes the zlib stream in `parts` inflates to, counted as it streams (never held), and
 * stopped one past `limit`; null when it is not a whole zlib stream.
 */
async function inflatedSize(parts: Uint8Array[], limit: number): Promise<number | null> {
  const stream = new Blob(parts as Uint8Array<ArrayBuffer>[]).stream()
    .pipeThrough(new DecompressionStream("deflate"));
  const reader = stream.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return total;
      total += value.length;
      if (total > limit) {
        await reader.cancel();
        return total;
      }
    }
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// JPEG

/** Start-of-frame markers (every coding process), which carry the dimensions. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 &&
    marker !== 0xcc;
}

function readJpeg(bytes: Uint8Array): Size | string {
  let at = 2;
  let size: Size | null = null;
  let scanned = false;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return "a segment does not start with a marker";
    while (bytes[at] === 0xff) at++;
    const marker = bytes[at++];
    if (marker === undefined) break;
    if (marker === 0xd9) {
      if (!size || !scanned) return "it ends before any image data";
      if (at !== bytes.length) return "something else follows its end marker";
      return size;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (marker === 0xd8 || marker === 0x00) return "it has a marker out of place";
    if (at + 2 > bytes.length) break;
    const length = (bytes[at] << 8) | bytes[at + 1];
    if (length < 2 || at + length > bytes.length) return "a segment runs past the end of the file";
    if (isStartOfFrame(marker)) {
      if (size) return "it has two frame headers";
      const components = bytes[at + 7];
      if (length !== 8 + 3 * components || components === 0) {
        return "its frame header has the wrong length";
      }
      size = [(bytes[at + 5] << 8) | bytes[at + 6], (bytes[at + 3] << 8) | bytes[at + 4]];
    }
    at += length;
    if (marker === 0xda) {
      if (!size) return "its image data comes before its frame header";
      scanned = true;
      // The entropy-coded data: a 0xFF in it is followed by 0x00 (a stuffed byte) or a restart
      // marker; any other marker ends it.
      while (at < bytes.length) {
        if (bytes[at] === 0xff) {
          const next = bytes[at + 1];
          if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
            at += 2;
            continue;
          }
          if (next === 0xff) {
            at++;
            continue;
          }
          break;
        }
        at++;
      }
    }
  }
  return "it ends before its end marker";
}

// ---------------------------------------------------------------------------------------------
// WebP

function readWebp(bytes: Uint8Array): Size | string {
  if (bytes.length < 20) return "it is too short to hold an image";
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(4, true) + 8 !== bytes.length) {
    return "its RIFF size is not the file's size (something is missing or follows it)";
  }
  let at = 12;
  let size: Size | null = null;
  let frames = 0;
  let first = true;
  while (at < bytes.length) {
    if (at + 8 > bytes.length) return "a chunk runs past the end of the file";
    const type = String.fromCharCode(...bytes.subarray(at, at + 4));
    const length = view.getUint32(at + 4, true);
    const body = at + 8;
    if (length > bytes.length - body) {
      return `its ${type.trim()} chunk runs past the end of the file`;
    }
    const d = bytes.subarray(body, body + length);
    if (type === "VP8 " || type === "VP8L" || type === "ANMF") frames++;
    if (first) {
      if (type === "VP8 ") {
        if (length < 10 || d[3] !== 0x9d || d[4] !== 0x01 || d[5] !== 0x2a || (d[0] & 1) !== 0) {
          return "its VP8 frame header is not one";
        }
        size = [((d[7] << 8) | d[6]) & 0x3fff, ((d[9] << 8) | d[8]) & 0x3fff];
      } else if (type === "VP8L") {
        if (length < 5 || d[0] !== 0x2f || d[4] >> 5 !== 0) return "its VP8L header is not one";
        const bits = d[1] | (d[2] << 8) | (d[3] << 16) | (d[4] << 24);
        size = [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
      } else if (type === "VP8X") {
        if (length < 10) return "its VP8X header is too short";
        size = [
          (d[4] | (d[5] << 8) | (d[6] << 16)) + 1,
          (d[7] | (d[8] << 8) | (d[9] << 16)) + 1,
        ];
      } else {
        return "it does not start with a VP8, VP8L or VP8X chunk";
      }
      first = false;
    }
    at = body + length + (length % 2);
  }
  if (at !== bytes.length) return "a chunk's padding runs past the end of the file";
  if (!size) return "it has no image header";
  if (frames === 0) return "it has no image data";
  return size;
}
