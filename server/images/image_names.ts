/**
 * Maps image request paths (relative to /images/) to generated SVGs. Only names that exist in the
 * catalogue resolve; the strict patterns reject traversal ("..") and odd paths before any lookup.
 */
import { ITEMS } from "../../shared/catalog/items.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import type { SwitchData } from "../../shared/catalog/types.ts";
import { cubeSvg, itemSvg, packSvg, switchSvg } from "./render_svg.ts";

/** A resolved image, ready to serve as image/svg+xml. */
export interface ResolvedImage {
  svg: string;
}

/** One kebab-case name per segment: no dots, slashes, percent escapes or upper case. */
const PATTERN = /^(switches|packs|items|cubes)\/([a-z0-9]+(?:-[a-z0-9]+)*)\.svg$/;
const CUBE_PATTERN = /^cube-(white|pastel)-(white|black)$/;
const SWITCH_SUFFIX = "-transparent";

const CUSTOM_TESTER = {
  id: 0,
  idWithKeycaps: 0,
  slug: "custom",
  title: "Custom Switch Tester",
  description: "",
  image: "custom-tester",
  switchIds: [] as number[],
};

const switchesByImage = new Map(SWITCHES.map((s) => [s.image, s]));
const switchesById = new Map(SWITCHES.map((s) => [s.id, s]));
const packsByImage = new Map(PACKS.map((p) => [p.image, p]));
const itemsByImage = new Map(ITEMS.map((i) => [i.image, i]));

/**
 * Only successful renders are cached: they are bounded by the catalogue, while misses could be
 * any string a client sends.
 */
const cache = new Map<string, ResolvedImage>();

function render(folder: string, name: string): string | null {
  if (folder === "switches") {
    if (!name.endsWith(SWITCH_SUFFIX)) return null;
    const sw = switchesByImage.get(name.slice(0, -SWITCH_SUFFIX.length));
    return sw ? switchSvg(sw) : null;
  }
  if (folder === "packs") {
    const pack = packsByImage.get(name);
    if (!pack) return null;
    const members = pack.switchIds.map((id) => switchesById.get(id))
      .filter((s): s is SwitchData => s !== undefined);
    return packSvg(pack, members);
  }
  if (folder === "items" && name === CUSTOM_TESTER.image) {
    // A configured tester has no single look: show a plate of ten different colours.
    const palette = [...new Map(SWITCHES.map((s) => [s.color, s])).values()].slice(0, 10);
    return packSvg({ ...CUSTOM_TESTER, switchIds: palette.map((s) => s.id) }, palette);
  }
  if (folder === "items") {
    const item = itemsByImage.get(name);
    return item ? itemSvg(item) : null;
  }
  const cube = CUBE_PATTERN.exec(name);
  return cube ? cubeSvg(cube[1] as "white" | "pastel", cube[2] as "white" | "black") : null;
}

/**
 * The image name a switch illustration's path asks for ("switches/x-transparent.svg" is "x"),
 * or null for any other path: how a switch the owner added, which the compiled catalogue does
 * not know, is looked up in the store.
 */
export function switchImageNameOf(path: string): string | null {
  const match = PATTERN.exec(path);
  if (match?.[1] !== "switches" || !match[2].endsWith(SWITCH_SUFFIX)) return null;
  return match[2].slice(0, -SWITCH_SUFFIX.length);
}

/**
 * Resolves a path relative to /images/ (e.g. "switches/gateron-oil-king-transparent.svg") to its
 * SVG, rendering each name once. Returns null for anything that is not a catalogue image.
 */
export function resolveImage(path: string): ResolvedImage | null {
  const cached = cache.get(path);
  if (cached) return cached;
  const match = PATTERN.exec(path);
  if (!match) return null;
  const svg = render(match[1], match[2]);
  if (svg === null) return null;
  const image = { svg };
  cache.set(path, image);
  return image;
}
