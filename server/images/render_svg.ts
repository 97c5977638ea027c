/**
 * Product illustrations drawn from catalogue data. The shop has no internet access for photos, so
 * every product image is a small SVG built here. The output is served as an image under a strict
 * CSP, so it holds no scripts, event attributes, external references or <foreignObject>: only
 * shapes, and text. All markup is written in `markup` templates, which escape every interpolated
 * string, so text is escaped by construction.
 *
 * Solid objects use an isometric projection (camera looking along -(1,1,1)), which keeps the maths
 * tiny and gives the familiar "product on a shelf" 3/4 view.
 */
import { html, type raw } from "hono/html";
import type { ItemData, PackData, SwitchData } from "../../shared/catalog/types.ts";

/** Markup from a `markup` template: nested in another, it is kept as it is. */
type Markup = ReturnType<typeof raw>;

/**
 * Hono's `html` template: interpolated strings are escaped, numbers written as they are, nested
 * templates and arrays of them kept, and false, null and undefined skipped. It returns a promise
 * only when given one, which nothing here does. (Under its own name, deno fmt would reindent the
 * templates as HTML, and the whitespace would change the images' bytes.)
 */
const markup = html as (strings: TemplateStringsArray, ...values: unknown[]) => Markup;

type Vec3 = [number, number, number];

/** Screen placement of the isometric projection: pixels per millimetre and the origin offset. */
interface View {
  scale: number;
  ox: number;
  oy: number;
}

interface Paint {
  fill: string;
  /** Fill opacity for translucent plastic; opaque when absent. */
  opacity?: number;
  /** Outline colour; derived from the fill when absent. */
  stroke?: string;
  /** Skip the two end caps, for a part whose top is hidden under another translucent part. */
  noCaps?: boolean;
}

const SIZE = 240;
const COS30 = Math.cos(Math.PI / 6);
const VIEW_DIR: Vec3 = [1, 1, 1];
const FALLBACK_COLOR = "#9a9a9a";

/** Printed body colours of the fidget cube. */
const CUBE_BODY = { white: "#efebe4", black: "#2b2a28" } as const;
/** One pastel per visible cube face (top, right, left); the other three faces are hidden. */
const PASTELS = ["#bfe8d2", "#b9dbf5", "#f6bcd0"] as const;
const WHITE_KEYCAP = "#fbfbf9";
/** PLA colour of printed plates and boxes: a mid-tone that stands out on light and dark pages. */
const PLATE = "#d8cdbf";

/** Only a strict #rrggbb colour may reach an attribute, so catalogue typos cannot inject markup. */
function safeColor(color: string): string {
  return /^#[0-9a-fA-F]{6}$/.test(color) ? color : FALLBACK_COLOR;
}

function rgb(color: string): Vec3 {
  const value = parseInt(color.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function mix(a: string, b: string, t: number): string {
  const ca = rgb(a);
  const cb = rgb(b);
  return "#" +
    ca.map((v, i) => Math.round(v + (cb[i] - v) * t).toString(16).padStart(2, "0")).join("");
}

function luminance(color: string): number {
  const [r, g, b] = rgb(color);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

/** Darkens (f < 1) or lightens (f > 1) a colour; f = 1 returns it unchanged. */
function shade(color: string, f: number): string {
  if (f === 1) return color;
  return f < 1 ? mix(color, "#000000", 1 - f) : mix(color, "#ffffff", f - 1);
}

/** Outline that contrasts with its fill, so dark parts stay visible on the dark page theme. */
function edge(color: string): string {
  return luminance(color) < 0.3 ? mix(color, "#ffffff", 0.45) : mix(color, "#000000", 0.55);
}

function num(v: number): string {
  return String(Math.round(v * 10) / 10);
}

function doc(title: string, body: Markup): string {
  const size = markup`width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}"`;
  return markup`<svg xmlns="http://www.w3.org/2000/svg" ${size} role="img"><title>${title}</title>${body}</svg>`
    .toString();
}

function rawProject(p: Vec3): [number, number] {
  return [(p[0] - p[1]) * COS30, (p[0] + p[1]) / 2 - p[2]];
}

/** Picks the scale and offset that centre the given 3D bounds in the canvas. */
function fitView(bounds: Vec3[], margin: number): View {
  const pts = bounds.map(rawProject);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const minY = Math.min(...ys);
  const maxY = Math.max(...ys);
  const scale = Math.min((SIZE - 2 * margin) / (maxX - minX), (SIZE - 2 * margin) / (maxY - minY));
  return {
    scale,
    ox: SIZE / 2 - ((minX + maxX) / 2) * scale,
    oy: SIZE / 2 - ((minY + maxY) / 2) * scale,
  };
}

function pathOf(points: Vec3[], view: View): string {
  return "M" + points.map((p) => {
    const [x, y] = rawProject(p);
    return `${num(view.ox + x * view.scale)} ${num(view.oy + y * view.scale)}`;
  }).join(" ") + "Z";
}

function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function mean(points: Vec3[]): Vec3 {
  const s = points.reduce((acc, p) => [acc[0] + p[0], acc[1] + p[1], acc[2] + p[2]], [0, 0, 0]);
  return [s[0] / points.length, s[1] / points.length, s[2] / points.length];
}

/** Unit normal of a planar face (Newell's method), pointing away from the solid's centre. */
function outwardNormal(face: Vec3[], centre: Vec3): Vec3 {
  const n: Vec3 = [0, 0, 0];
  for (let i = 0; i < face.length; i++) {
    const a = face[i];
    const b = face[(i + 1) % face.length];
    n[0] += (a[1] - b[1]) * (a[2] + b[2]);
    n[1] += (a[2] - b[2]) * (a[0] + b[0]);
    n[2] += (a[0] - b[0]) * (a[1] + b[1]);
  }
  const len = Math.hypot(...n) || 1;
  const sign = dot(n, sub(mean(face), centre)) < 0 ? -1 : 1;
  return [(n[0] / len) * sign, (n[1] / len) * sign, (n[2] / len) * sign];
}

/** Light from above and slightly left: tops keep their exact colour, right faces are darkest. */
function brightness(n: Vec3): number {
  if (n[2] > 0.999) return 1;
  return 1 - (1 - Math.max(0, n[2])) * (0.14 + 0.16 * Math.max(0, n[0]));
}

/**
 * Draws a prism between two matching outlines (any polygon, convex or a plus sign). Only faces
 * turned to the camera are drawn, sides far to near and then the caps, which is a correct painter's
 * order for the extruded shapes used here.
 */
function prism(bottom: Vec3[], top: Vec3[], view: View, paint: Paint): Markup {
  const centre = mean([...bottom, ...top]);
  const n = bottom.length;
  const sides = bottom.map((p, i): Vec3[] => [p, bottom[(i + 1) % n], top[(i + 1) % n], top[i]]);
  const caps = paint.noCaps ? [] : [bottom, top];
  const visible = (face: Vec3[]) => dot(outwardNormal(face, centre), VIEW_DIR) > 1e-6;
  const ordered = sides.filter(visible)
    .sort((a, b) => dot(mean(a), VIEW_DIR) - dot(mean(b), VIEW_DIR))
    .concat(caps.filter(visible));
  const opacity = paint.opacity !== undefined && markup` fill-opacity="${paint.opacity}"`;
  const stroke = paint.stroke ?? edge(paint.fill);
  return markup`${
    ordered.map((face) => {
      const fill = shade(paint.fill, brightness(outwardNormal(face, centre)));
      return markup`<path d="${pathOf(face, view)}" fill="${fill}"${opacity} stroke="${stroke}"/>`;
    })
  }`;
}

/** Axis-aligned square outline at height z. */
function square(cx: number, cy: number, half: number, z: number): Vec3[] {
  const [x0, x1, y0, y1] = [cx - half, cx + half, cy - half, cy + half];
  return [[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]];
}

/** Bottom and top outlines of an axis-aligned box, ready for `prism`. */
function box(
  x0: number,
  x1: number,
  y0: number,
  y1: number,
  z0: number,
  z1: number,
): [Vec3[], Vec3[]] {
  const outline = (z: number): Vec3[] => [[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]];
  return [outline(z0), outline(z1)];
}

/** Plus-shaped outline of an MX stem at height z. */
function plus(arm: number, width: number, z: number): Vec3[] {
  // One arm's three outline corners, turned a quarter at a time to trace the whole plus.
  const corners = [[width, -width], [arm, -width], [arm, width]];
  const out: Vec3[] = [];
  for (let k = 0; k < 4; k++) {
    for (const [x, y] of corners) out.push([x, y, z]);
    corners.forEach(([x, y], i) => corners[i] = [-y, x]);
  }
  return out;
}

/** Ellipse for a circle of radius r in a horizontal plane; `squash` flattens it further. */
function isoEllipse(view: View, r: number, z: number, squash: number, attrs: Markup): Markup {
  const [x, y] = rawProject([0, 0, z]);
  const [cx, cy] = [num(view.ox + x * view.scale), num(view.oy + y * view.scale)];
  const rx = num(r * Math.SQRT2 * COS30 * view.scale);
  const ry = num((r / Math.SQRT2) * squash * view.scale);
  return markup`<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" ${attrs}/>`;
}

/**
 * A solid object: its soft contact shadow, flattened so it reads as a shadow on the page rather
 * than a disc, then its parts with shared outline settings.
 */
function solid(view: View, half: number, z: number, parts: (Markup | false)[]): Markup {
  const shadow = isoEllipse(view, half * 1.15, z, 0.55, markup`fill="#000" fill-opacity=".16"`);
  return markup`${shadow}<g stroke-linejoin="round" stroke-width="1.2">${parts}</g>`;
}

/**
 * A mechanical keyboard switch in 3/4 view: opaque bottom housing, the stem in the switch colour
 * seen through a translucent top housing, and a hint of the switch type (a bump for tactile, a
 * click bar for clicky, a dampener ring for silent). The background stays transparent.
 */
export function switchSvg(sw: Pick<SwitchData, "brand" | "name" | "type" | "color">): string {
  const color = safeColor(sw.color);
  const types = sw.type.toLowerCase().split(/\s+/);
  const view = fitView([[-7.8, -7.8, 15], [9, 9, -3], [7.8, -7.8, 0], [-7.8, 7.8, 0]], 14);
  const housingTint = mix("#e8eef3", color, 0.15);
  const bottomHousing = mix("#5b5f66", color, 0.12);
  const metal = "#c9ccd1";
  const ring = markup`fill="none" stroke="#8d86c9" stroke-width="${num(0.7 * view.scale)}"`;
  return doc(
    `${sw.brand} ${sw.name} switch`,
    solid(view, 7.8, -3, [
      // Gold-ish pins first: the bottom housing then hides all but their tips.
      prism(...box(-4.2, -3.4, 2.1, 2.9, -3, 0), view, { fill: "#d4b25a" }),
      prism(...box(2.1, 2.9, 4.6, 5.4, -3, 0), view, { fill: "#d4b25a" }),
      prism(...box(-7, 7, -7, 7, 0, 5), view, { fill: bottomHousing }),
      // The stem body is drawn before the clear top housing so it shows through it, tinted.
      prism(...box(-3, 3, -2.4, 2.4, 4, 11), view, { fill: color }),
      // The tactile leg bump, as a small wedge on the front of the stem.
      types.includes("tactile") && prism(
        [[-1.1, 2.4, 5.8], [-1.1, 2.4, 9], [-1.1, 4.4, 7.4]],
        [[1.1, 2.4, 5.8], [1.1, 2.4, 9], [1.1, 4.4, 7.4]],
        view,
        { fill: shade(color, 0.85), stroke: "#33373c" },
      ),
      // A box-style click bar across the front of the stem.
      types.includes("clicky") &&
      prism(...box(-4.6, 4.6, 3.2, 4, 7, 7.8), view, { fill: metal, stroke: "#4b4f55" }),
      prism(square(0, 0, 7.8, 5), square(0, 0, 7.8, 7), view, {
        fill: housingTint,
        opacity: 0.4,
        stroke: "#7d8a96",
        noCaps: true,
      }),
      prism(square(0, 0, 7.8, 7), square(0, 0, 5.8, 11), view, {
        fill: housingTint,
        opacity: 0.45,
        stroke: "#7d8a96",
      }),
      // LED window and stem opening on the top face.
      prism(...box(-1.9, 1.9, -5.2, -4, 11, 11.05), view, { fill: "#3c4046", opacity: 0.35 }),
      prism(...box(-3.3, 3.3, -3.3, 3.3, 11, 11.05), view, { fill: "#3c4046", opacity: 0.3 }),
      types.includes("silent") && isoEllipse(view, 2.75, 11.4, 1, ring),
      prism(plus(2.05, 0.65, 11), plus(2.05, 0.65, 15), view, { fill: color }),
    ]),
  );
}

/** Flat printed plate seen from above, with a darker band below it for its thickness. */
function plate(x: number, y: number, w: number, h: number, color: string): Markup {
  const line = edge(color);
  const rect = (top: number, fill: string) =>
    markup`<rect x="${x}" y="${top}" width="${w}" height="${h}" rx="12" fill="${fill}" stroke="${line}" stroke-width="1.5"/>`;
  return markup`${rect(y + 9, shade(color, 0.72))}${rect(y, color)}`;
}

/** Top view of one switch in a plate: clear housing and the coloured plus-shaped stem. */
function switchTop(cx: number, cy: number, color: string): Markup {
  const c = safeColor(color);
  const line = edge(c);
  const [x0, y0, x1, y1] = [cx - 17, cy - 17, cx - 11, cy - 11];
  const stem = `M${cx - 2.5} ${cy - 8}h5v5.5h5.5v5h-5.5v5.5h-5v-5.5h-5.5v-5h5.5z`;
  return markup`<rect x="${x0}" y="${y0}" width="34" height="34" rx="3" fill="#eef2f5" fill-opacity=".55" stroke="#6f7a84"/><rect x="${x1}" y="${y1}" width="22" height="22" rx="2" fill="#fff" fill-opacity=".4" stroke="#8d98a2"/><path d="${stem}" fill="${c}" stroke="${line}"/>`;
}

/** Empty plate socket from above; the light strip is the far wall, which gives it depth. */
function socketTop(cx: number, cy: number, size: number): Markup {
  const [x, y, inner] = [cx - size / 2, cy - size / 2, size - 2];
  const [x1, y1] = [x + 1, y + 1];
  return markup`<rect x="${x}" y="${y}" width="${size}" height="${size}" rx="1.5" fill="#2a2622"/><rect x="${x1}" y="${y1}" width="${inner}" height="4" fill="#5a5148"/>`;
}

/** The text of a title, shrunk to fit the plate when it is long. */
function label(text: string, x: number, y: number, maxWidth: number, color: string): Markup {
  const size = Math.min(17, Math.floor(maxWidth / (0.58 * Math.max(1, text.length))));
  return markup`<text x="${x}" y="${y}" font-family="system-ui,sans-serif" font-size="${size}" font-weight="700" text-anchor="middle" fill="${color}">${text}</text>`;
}

/**
 * A 3D-printed tester box holding the pack's ten switches in two rows of five, each stem in its
 * switch's colour, with the pack title printed on the box. Switches are placed in the order of
 * `pack.switchIds`; an id missing from `switches` leaves an empty socket.
 */
export function packSvg(pack: PackData, switches: SwitchData[]): string {
  const byId = new Map(switches.map((s) => [s.id, s]));
  const sockets = pack.switchIds.slice(0, 10).map((id, i) => {
    const cx = 32 + (i % 5) * 44;
    const cy = 108 + Math.floor(i / 5) * 50;
    const sw = byId.get(id);
    return sw ? switchTop(cx, cy, sw.color) : socketTop(cx, cy, 28);
  });
  const title = label(pack.title, 120, 72, 196, "#3a322b");
  return doc(pack.title, markup`${plate(10, 42, 220, 160, PLATE)}${title}${sockets}`);
}

/** Isometric cube body with one face decoration per visible face. */
function cubeBody(view: View, color: string): Markup {
  const body = prism(...box(-12, 12, -12, 12, -12, 12), view, { fill: color });
  // Faint layer lines on the sides: the body is 3D-printed.
  let lines = "";
  for (let z = -9; z <= 9; z += 3) {
    lines += pathOf([[12, -12, z], [12, 12, z], [-12, 12, z]], view).slice(0, -1);
  }
  const line = edge(color);
  return markup`${body}<path d="${lines}" fill="none" stroke="${line}" stroke-opacity=".25"/>`;
}

/**
 * An empty switch socket on a cube face: the dark opening, and inside it the walls turned to the
 * camera, clipped to the opening. `u` and `v` span the face, `n` is the outward normal.
 */
function cubeSocket(view: View, c: Vec3, u: Vec3, v: Vec3, n: Vec3, id: string): Markup {
  const at = (s: number, t: number, d: number): Vec3 => [
    c[0] + u[0] * s + v[0] * t - n[0] * d,
    c[1] + u[1] * s + v[1] * t - n[1] * d,
    c[2] + u[2] * s + v[2] * t - n[2] * d,
  ];
  const h = 7;
  const depth = 6;
  const opening = pathOf([at(-h, -h, 0), at(h, -h, 0), at(h, h, 0), at(-h, h, 0)], view);
  // A wall at one edge faces into the hole; it is seen when that inward direction faces the camera.
  const walls: [Vec3, Vec3[]][] = [
    [u, [at(-h, -h, 0), at(-h, h, 0), at(-h, h, depth), at(-h, -h, depth)]],
    [v, [at(-h, -h, 0), at(h, -h, 0), at(h, -h, depth), at(-h, -h, depth)]],
    [[-u[0], -u[1], -u[2]], [at(h, -h, 0), at(h, h, 0), at(h, h, depth), at(h, -h, depth)]],
    [[-v[0], -v[1], -v[2]], [at(-h, h, 0), at(h, h, 0), at(h, h, depth), at(-h, h, depth)]],
  ];
  const seen = walls.filter(([inward]) => dot(inward, VIEW_DIR) > 1e-6)
    .map(([, wall]) => markup`<path d="${pathOf(wall, view)}" fill="#4a433c"/>`);
  return markup`<clipPath id="${id}"><path d="${opening}"/></clipPath><g clip-path="url(#${id})"><path d="${opening}" fill="#1d1a17"/>${seen}</g>`;
}

/** A keycap standing on a cube face, as a tapered box along the face normal `axis`. */
function keycap(view: View, axis: 0 | 1 | 2, color: string): Markup[] {
  const outline = (half: number, at: number): Vec3[] =>
    square(0, 0, half, 0).map(([a, b]) => {
      const p: Vec3 = [0, 0, 0];
      const others = [0, 1, 2].filter((k) => k !== axis);
      p[others[0]] = a;
      p[others[1]] = b;
      p[axis] = at;
      return p;
    });
  // The switch housing peeks out between cube and keycap.
  return [
    prism(outline(7.2, 12), outline(7.2, 13.4), view, { fill: "#6d6a66" }),
    prism(outline(9, 13.4), outline(6.8, 19), view, { fill: color }),
  ];
}

/**
 * An isometric fidget cube in the given body colour with a keycap on each visible face: all white,
 * or a pastel mix.
 */
export function cubeSvg(keycaps: "white" | "pastel", bodyColor: "white" | "black"): string {
  const view = fitView([[-12, -12, 19], [19, 19, -12], [19, -12, -12], [-12, 19, -12]], 16);
  const caps = keycaps === "pastel" ? PASTELS : [WHITE_KEYCAP, WHITE_KEYCAP, WHITE_KEYCAP];
  return doc(
    `Fidget cube, ${keycaps} keycaps, ${bodyColor} body`,
    solid(view, 14, -12, [
      cubeBody(view, CUBE_BODY[bodyColor]),
      ...keycap(view, 0, caps[1]),
      ...keycap(view, 1, caps[2]),
      ...keycap(view, 2, caps[0]),
    ]),
  );
}

/**
 * Accessories: the layout tester is a printed plate with empty sockets in staggered keyboard rows;
 * the fidget cube case is the printed cube with an empty socket on each visible face. Any other
 * item gets the neutral placeholder with its name as title.
 */
export function itemSvg(item: ItemData): string {
  if (item.image === "layout-tester") {
    // Row stagger of a real keyboard: Q row, A row (+0.25u), Z row (+0.75u).
    const sockets = [0, 0.25, 0.75].flatMap((offset, row) =>
      [0, 1, 2, 3, 4].map((col) => socketTop(30 + (col + offset) * 36, 78 + row * 40, 26))
    );
    return doc(item.name, markup`${plate(8, 52, 224, 132, PLATE)}${sockets}`);
  }
  if (item.image === "fidget-cube-case") {
    const view = fitView([[-12, -12, 12], [16, 16, -12], [12, -12, -12], [-12, 12, -12]], 30);
    return doc(
      item.name,
      solid(view, 13, -12, [
        cubeBody(view, CUBE_BODY.white),
        cubeSocket(view, [0, 0, 12], [1, 0, 0], [0, 1, 0], [0, 0, 1], "s0"),
        cubeSocket(view, [12, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0], "s1"),
        cubeSocket(view, [0, 12, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0], "s2"),
      ]),
    );
  }
  return placeholder(item.name);
}

function placeholder(title: string): string {
  return doc(
    title,
    markup`<rect x="40" y="40" width="160" height="160" rx="18" fill="#8c867e" fill-opacity=".12" stroke="#8c867e" stroke-width="3" stroke-dasharray="10 8"/><path d="M98 102a22 22 0 1 1 30 20c-6 3-8 6-8 12v6" fill="none" stroke="#8c867e" stroke-width="9" stroke-linecap="round"/><circle cx="120" cy="160" r="6" fill="#8c867e"/>`,
  );
}

/** A neutral placeholder for images that do not exist. */
export function notFoundSvg(): string {
  return placeholder("Image not found");
}

/** Width and height of a link preview image (Open Graph's recommended 1.91:1). */
export const PREVIEW_WIDTH = 1200;
export const PREVIEW_HEIGHT = 630;

/**
 * A configurator build for link previews: a tester box holding the build's switches in rows of
 * five (its size's sockets, the empty ones open), on a 1200×630 canvas. Shapes only, so it
 * renders the same without fonts.
 */
export function buildPreviewSvg(switches: { color: string }[], size: number): string {
  const rows = Math.ceil(size / 5);
  const sockets = Array.from({ length: size }, (_, i) => {
    const cx = 32 + (i % 5) * 44;
    const cy = 40 + Math.floor(i / 5) * 50;
    return switches[i] ? switchTop(cx, cy, switches[i].color) : socketTop(cx, cy, 28);
  });
  const [w, h] = [240, 30 + rows * 50];
  const scale = Math.min((PREVIEW_WIDTH - 200) / w, (PREVIEW_HEIGHT - 120) / h);
  const [x, y] = [(PREVIEW_WIDTH - w * scale) / 2, (PREVIEW_HEIGHT - h * scale) / 2];
  const body =
    markup`<rect width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}" fill="#f6efe6"/><g transform="translate(${x} ${y}) scale(${scale})">${
      plate(10, 10, 220, h - 10, PLATE)
    }${sockets}</g>`;
  return markup`<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}" viewBox="0 0 ${PREVIEW_WIDTH} ${PREVIEW_HEIGHT}">${body}</svg>`
    .toString();
}

/**
 * A page's link preview: its illustrations (240-pixel SVGs made here) side by side, drawn large on
 * the 1200×630 canvas.
 */
export function previewCanvasSvg(illustrations: string[]): string {
  const size = Math.min(520, Math.floor((PREVIEW_WIDTH - 80) / illustrations.length));
  const left = (PREVIEW_WIDTH - size * illustrations.length) / 2;
  const placed = illustrations.map((svg, i) =>
    svg.replace(
      `width="${SIZE}" height="${SIZE}"`,
      `x="${left + i * size}" y="${(PREVIEW_HEIGHT - size) / 2}" width="${size}" height="${size}"`,
    )
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}"><rect width="100%" height="100%" fill="#f6efe6"/>${
    placed.join("")
  }</svg>`;
}
