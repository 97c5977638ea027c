import assert from "node:assert/strict";
import { ITEMS } from "../../shared/catalog/items.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import type { SwitchData } from "../../shared/catalog/types.ts";
import { resolveImage } from "../../server/images/image_names.ts";
import {
  cubeSvg,
  itemSvg,
  notFoundSvg,
  packSvg,
  switchSvg,
} from "../../server/images/render_svg.ts";

const XMLNS = 'xmlns="http://www.w3.org/2000/svg"';
const CUBE_VARIANTS = ["white-white", "white-black", "pastel-white", "pastel-black"];

/** Reference escaping, written out independently of the renderer's (Hono's `html` template). */
function escaped(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

/** Checks that an SVG is a safe, standalone document titled with `title`. */
function assertSafeSvg(svg: string, title: string): void {
  assert.ok(svg.startsWith("<svg "), "starts with <svg");
  assert.ok(svg.endsWith("</svg>"), "ends with </svg>");
  assert.ok(svg.includes(XMLNS), "has the SVG namespace");
  assert.ok(svg.includes('viewBox="0 0 240 240"'));
  assert.ok(svg.includes('width="240"') && svg.includes('height="240"'));
  assert.ok(svg.includes('role="img"'));
  const titleMatch = /<title>([^<]*)<\/title>/.exec(svg);
  assert.ok(titleMatch, "has a <title>");
  assert.ok(titleMatch[1].includes(escaped(title)), `title ${titleMatch[1]} names ${title}`);
  assert.ok(!/<script/i.test(svg), "no script");
  assert.ok(!/<foreignObject/i.test(svg), "no foreignObject");
  assert.ok(!/\son[a-z]+\s*=/i.test(svg), "no event attributes");
  assert.equal(svg.replace(XMLNS, "").includes("http"), false, "no external references");
  assert.ok(!/(?:xlink:)?href\s*=/.test(svg), "no links");
  assert.ok(svg.length < 4500, `small enough (${svg.length} bytes)`);
  // Tags nest properly and text holds no stray markup: well formed enough to parse as XML.
  const open: string[] = [];
  for (const tag of svg.match(/<[^>]*>/g) ?? []) {
    const name = /^<\/?([a-zA-Z]+)/.exec(tag)?.[1];
    assert.ok(name, `bad tag ${tag}`);
    if (tag.startsWith("</")) assert.equal(open.pop(), name, `misnested ${tag}`);
    else if (!tag.endsWith("/>")) open.push(name);
  }
  assert.deepEqual(open, [], "every element is closed");
  const text = svg.replace(/<[^>]*>/g, "");
  assert.ok(!/[<>]|&(?!(?:amp|lt|gt|quot|#39);)/.test(text), `unescaped text in ${text}`);
}

Deno.test("every switch resolves to a safe SVG showing its stem colour", () => {
  for (const sw of SWITCHES) {
    const image = resolveImage(`switches/${sw.image}-transparent.svg`);
    assert.ok(image, `switch image ${sw.image}`);
    assertSafeSvg(image.svg, sw.name);
    assert.ok(image.svg.includes(sw.color), `${sw.image} uses ${sw.color}`);
  }
});

Deno.test("every pack resolves to a safe SVG with its switches' colours", () => {
  const byId = new Map(SWITCHES.map((s) => [s.id, s]));
  for (const pack of PACKS) {
    const image = resolveImage(`packs/${pack.image}.svg`);
    assert.ok(image, `pack image ${pack.image}`);
    assertSafeSvg(image.svg, pack.title);
    for (const id of pack.switchIds) {
      assert.ok(image.svg.includes(byId.get(id)!.color), `${pack.image} shows switch ${id}`);
    }
  }
});

Deno.test("every item and cube variant resolves to a safe SVG", () => {
  for (const item of ITEMS) {
    const image = resolveImage(`items/${item.image}.svg`);
    assert.ok(image, `item image ${item.image}`);
    assertSafeSvg(image.svg, item.name);
  }
  for (const variant of CUBE_VARIANTS) {
    const image = resolveImage(`cubes/cube-${variant}.svg`);
    assert.ok(image, `cube ${variant}`);
    assertSafeSvg(image.svg, "Fidget cube");
  }
  assertSafeSvg(notFoundSvg(), "not found");
});

Deno.test("resolved images are cached per name", () => {
  const path = `switches/${SWITCHES[0].image}-transparent.svg`;
  assert.equal(resolveImage(path), resolveImage(path));
});

Deno.test("unknown names, traversal and wrong extensions resolve to null", () => {
  const image = SWITCHES[0].image;
  const bad = [
    "",
    "switches/",
    "switches/no-such-switch-transparent.svg",
    `switches/${image}.svg`,
    `switches/${image}-transparent.png`,
    `switches/${image}-transparent.svg.png`,
    `switches/${image}-transparent.SVG`,
    `switches/${image.toUpperCase()}-transparent.svg`,
    `/switches/${image}-transparent.svg`,
    `switches//${image}-transparent.svg`,
    `switches/../switches/${image}-transparent.svg`,
    `../switches/${image}-transparent.svg`,
    "switches/..%2fsecret-transparent.svg",
    `packs/${image}.svg`,
    `items/${PACKS[0].image}.svg`,
    `packs/${PACKS[0].image}.svg?x=1`,
    `packs/${PACKS[0].image}`,
    `other/${PACKS[0].image}.svg`,
    "items/layout-tester.svg/",
    "cubes/cube-white.svg",
    "cubes/cube-black-white.svg",
    "cubes/cube-pastel-pink.svg",
    "cubes/cube-white-white-transparent.svg",
  ];
  for (const path of bad) assert.equal(resolveImage(path), null, `rejects ${path}`);
});

Deno.test("text with markup is escaped", () => {
  const name = `<b>&"x"</b>`;
  const sw: SwitchData = { ...SWITCHES[0], name, brand: "O'Brand" };
  const svg = switchSvg(sw);
  assert.ok(svg.includes("&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;"));
  assert.ok(svg.includes(`<title>${escaped(`O'Brand ${name} switch`)}</title>`));
  assert.ok(!svg.includes("<b>"));
  const pack = packSvg({ ...PACKS[0], title: name }, [...SWITCHES]);
  assert.ok(!pack.includes("<b>"));
  assert.equal(pack.split("&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;").length, 3, "title and label");
  assert.ok(!itemSvg({ ...ITEMS[0], name }).includes("<b>"));
});

Deno.test("a malformed colour never reaches the markup", () => {
  const svg = switchSvg({ ...SWITCHES[0], color: `red" onload="x` });
  assert.ok(!svg.includes("onload"));
  assertSafeSvg(svg, SWITCHES[0].name);
});

Deno.test("switch type hints differ between types", () => {
  const base = SWITCHES[0];
  const kinds = ["linear", "tactile", "clicky", "silent linear"];
  const svgs = new Set(kinds.map((type) => switchSvg({ ...base, type })));
  assert.equal(svgs.size, kinds.length);
});

Deno.test("cube keycaps and body colours change the drawing", () => {
  assert.notEqual(cubeSvg("pastel", "white"), cubeSvg("white", "white"));
  assert.notEqual(cubeSvg("pastel", "black"), cubeSvg("white", "black"));
  assert.notEqual(cubeSvg("white", "white"), cubeSvg("white", "black"));
  assert.notEqual(cubeSvg("pastel", "white"), cubeSvg("pastel", "black"));
});
