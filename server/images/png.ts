/**
 * SVG to PNG for link previews (chat apps and social posts do not show SVG), with resvg compiled
 * to WebAssembly (npm @resvg/resvg-wasm): no native code, so it runs on Deno Deploy too. The
 * module is loaded on the first preview, not at start.
 */
import { initWasm, Resvg } from "@resvg/resvg-wasm";

let ready: Promise<void> | null = null;

function init(): Promise<void> {
  ready ??= (async () => {
    const wasm = await Deno.readFile(
      new URL(import.meta.resolve("@resvg/resvg-wasm/index_bg.wasm")),
    );
    await initWasm(wasm);
  })().catch((err) => {
    ready = null;
    throw err;
  });
  return ready;
}

/** The PNG of an SVG document (text needs no fonts: previews are shapes only). */
export async function svgToPng(svg: string): Promise<Uint8Array> {
  await init();
  return new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng();
}
