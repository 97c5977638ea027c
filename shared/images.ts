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

/** URL of a switch image. */
export function switchImageUrl(base: string, image: string): string {
  return `${base}/switches/${image}-transparent.svg`;
}

/** URL of a pack image. */
export function packImageUrl(base: string, image: string): string {
  return `${base}/packs/${image}.svg`;
}

/** URL of an item image. */
export function itemImageUrl(base: string, image: string): string {
  return `${base}/items/${image}.svg`;
}

/** URL of a cube preview. */
export function cubeImageUrl(base: string, keycaps: string, bodyColor: string): string {
  return `${base}/cubes/${cubeImageName(keycaps, bodyColor)}.svg`;
}
