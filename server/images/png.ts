/**
 * SVG to PNG for link previews (chat apps and social posts do not show SVG), with resvg compiled
 * to WebAssembly (npm @resvg/resvg-wasm): no native code, so it runs on Deno Deploy too. Drawing a
 * 1200×630 picture takes 30 to 100 ms of CPU, so it runs in a worker (png_worker.ts), started on
 * the first preview, and the thread that answers requests only waits for it. Where a worker
 * cannot start or dies, pictures are drawn here from then on, as before (the render budgets of
 * server/routes/images.ts still bound them).
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

/** The PNG drawn on this thread. */
async function drawHere(svg: string): Promise<Uint8Array> {
  await init();
  return new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng();
}

type Answer = { id: number; png: Uint8Array } | { id: number; error: string };

let worker: Worker | null | undefined;
let nextId = 0;
const waiting = new Map<
  number,
  { svg: string; resolve(png: Uint8Array): void; reject(err: Error): void }
>();

/** The drawing worker, started once; null where workers cannot start. */
function drawingWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL("./png_worker.ts", import.meta.url), { type: "module" });
  } catch {
    return worker = null;
  }
  worker.onmessage = (event: MessageEvent<Answer>) => {
    const answer = event.data;
    const caller = waiting.get(answer.id);
    waiting.delete(answer.id);
    if ("png" in answer) caller?.resolve(answer.png);
    else caller?.reject(new Error(answer.error));
  };
  worker.onerror = (event) => {
    // A worker that failed (a platform without workers may fail only once started) answers
    // nobody: what it was given, and every picture after, is drawn here instead.
    event.preventDefault();
    worker?.terminate();
    worker = null;
    for (const caller of waiting.values()) {
      drawHere(caller.svg).then(caller.resolve, caller.reject);
    }
    waiting.clear();
  };
  return worker;
}

/** The PNG of an SVG document (text needs no fonts: previews are shapes only). */
export function svgToPng(svg: string): Promise<Uint8Array> {
  const drawer = drawingWorker();
  if (!drawer) return drawHere(svg);
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { svg, resolve, reject });
    drawer.postMessage({ id, svg });
  });
}
