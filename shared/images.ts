/**
 * Image URLs by the names the spec describes: a switch's image base name plus a transparent
 * suffix; the cube preview from keycap type and body colour. Served by the shop under /images,
 * or by a CDN when IMAGE_BASE_URL is set (the page carries the base in a meta tag).
 */

/** The default image base: the shop itself. */
export const LOCAL_IMAGE_BASE = "/images";

/** The cube preview's base name for a keycap set and body colour. */
export function cubeImageName(keycaps: string, bodyColor: string): string {
  return `cube-${keycaps}-${bodyColor}`;
}

/** The types an owner may upload, by their file extension in the served URL. */
export const UPLOAD_TYPES = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
} as const;
export type UploadType = keyof typeof UPLOAD_TYPES;

/** The largest uploaded image (1 MB), counted in bytes of the file itself. */
export const MAX_UPLOAD_BYTES = 1024 * 1024;

/** An image the owner uploaded for a switch, pack or item: its SHA-256 (hex) and its type. */
export interface ImageUpload {
  hash: string;
  type: UploadType;
}

/**
 * The type of an image by its first bytes (PNG, JPEG or WebP), or null: what a file claims to be
 * by its name or Content-Type is not trusted, so an HTML page cannot pass as a picture.
 */
export function sniffImageType(bytes: Uint8Array): UploadType | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  // "RIFF", four bytes of length, then "WEBP".
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return null;
}

/**
 * URL of an uploaded image. Always the shop's own /images: IMAGE_BASE_URL points the generated
 * names at a CDN, which knows nothing of uploads (they live in KV).
 */
export function uploadedImageUrl(upload: ImageUpload): string {
  return `${LOCAL_IMAGE_BASE}/uploads/${upload.hash}.${UPLOAD_TYPES[upload.type]}`;
}

/** Whether an image URL is an upload's (rather than a generated illustration's). */
export function isUploadedImageUrl(url: string): boolean {
  return url.startsWith(`${LOCAL_IMAGE_BASE}/uploads/`);
}

/** URL of a switch image: its upload when the owner gave one, else the generated one. */
export function switchImageUrl(base: string, image: string, upload?: ImageUpload | null): string {
  return upload ? uploadedImageUrl(upload) : `${base}/switches/${image}-transparent.svg`;
}

/** URL of a pack image: its upload when the owner gave one, else the generated one. */
export function packImageUrl(base: string, image: string, upload?: ImageUpload | null): string {
  return upload ? uploadedImageUrl(upload) : `${base}/packs/${image}.svg`;
}

/** URL of an item image: its upload when the owner gave one, else the generated one. */
export function itemImageUrl(base: string, image: string, upload?: ImageUpload | null): string {
  return upload ? uploadedImageUrl(upload) : `${base}/items/${image}.svg`;
}

/** URL of a catalogue product's image: a pack's (it has a slug) or an item's. */
export function productImageUrl(
  base: string,
  product: { packSlug?: string | null; image: string; upload?: ImageUpload | null },
): string {
  return product.packSlug
    ? packImageUrl(base, product.image, product.upload)
    : itemImageUrl(base, product.image, product.upload);
}

/** URL of a cube preview. */
export function cubeImageUrl(base: string, keycaps: string, bodyColor: string): string {
  return `${base}/cubes/${cubeImageName(keycaps, bodyColor)}.svg`;
}
