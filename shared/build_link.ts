/**
 * A configurator build as a link: size, keycaps, body colour and switches in the query string,
 * so a shared URL opens the configurator as it was. Reading a link keeps only what is valid and
 * says what it dropped (the configurator drops unknown, sold-out and surplus switches again).
 */
import {
  BODY_COLORS,
  type BodyColor,
  CUBE_KEYCAPS,
  type CubeKeycaps,
  TESTER_KEYCAPS,
  TESTER_SIZES,
  type TesterKeycaps,
  type TesterSize,
} from "./pricing.ts";

/**
 * The query parameters a build link has, and the only ones the configurators and their preview
 * read: the server keeps one rendered page (and one picture) per build, whatever else a URL
 * carries (shared/page_url.ts).
 */
export const BUILD_LINK_PARAMS = ["size", "keycaps", "body", "switches"] as const;

/** Most switch ids a link may carry (the largest build holds 20). */
const MAX_IDS = 20;

/** What a link holds; fields it did not hold, or held wrongly, are absent. */
export interface BuildLink {
  size?: TesterSize;
  keycaps?: string;
  bodyColor?: BodyColor;
  switchIds: number[];
  /** What the link held that could not be used, in words for the shopper. */
  dropped: string[];
}

/** The query string of a build ("size=15&keycaps=none&body=white&switches=1,2,3"). */
export function buildQuery(build: {
  size?: number;
  keycaps: string;
  bodyColor: string;
  switchIds: readonly number[];
}): string {
  const params = new URLSearchParams();
  if (build.size !== undefined) params.set("size", String(build.size));
  params.set("keycaps", build.keycaps);
  params.set("body", build.bodyColor);
  params.set("switches", build.switchIds.join(","));
  return params.toString();
}

/** Reads a tester's or a cube's link (`kind` decides which keycaps and sizes are valid). */
export function readBuildLink(given: URLSearchParams, kind: "tester" | "cube"): BuildLink {
  const params = { get: (name: (typeof BUILD_LINK_PARAMS)[number]) => given.get(name) };
  const dropped: string[] = [];
  const link: BuildLink = { switchIds: [], dropped };
  const size = params.get("size");
  if (kind === "tester" && size !== null) {
    if ((TESTER_SIZES as readonly number[]).includes(Number(size))) {
      link.size = Number(size) as TesterSize;
    } else dropped.push(`the size "${size}"`);
  }
  const keycaps = params.get("keycaps");
  const validKeycaps: readonly string[] = kind === "tester" ? TESTER_KEYCAPS : CUBE_KEYCAPS;
  if (keycaps !== null) {
    if (validKeycaps.includes(keycaps)) link.keycaps = keycaps as TesterKeycaps | CubeKeycaps;
    else dropped.push(`the keycaps "${keycaps}"`);
  }
  const body = params.get("body");
  if (body !== null) {
    if ((BODY_COLORS as readonly string[]).includes(body)) link.bodyColor = body as BodyColor;
    else dropped.push(`the body colour "${body}"`);
  }
  const raw = (params.get("switches") ?? "").split(",").filter((p) => p.trim() !== "");
  const ids = raw.filter((p) => /^\d{1,9}$/.test(p.trim())).map((p) => Number(p.trim()));
  const unique = [...new Set(ids)];
  if (raw.length > ids.length) dropped.push(`${raw.length - ids.length} unreadable switch ids`);
  if (unique.length > MAX_IDS) dropped.push(`${unique.length - MAX_IDS} switches past ${MAX_IDS}`);
  link.switchIds = unique.slice(0, MAX_IDS);
  return link;
}
