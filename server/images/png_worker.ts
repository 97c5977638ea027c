/**
 * The worker that draws link previews (server/images/png.ts): resvg takes 30 to 100 ms of CPU a
 * picture, which here is not the thread that answers requests. One message in (an id and an SVG),
 * one out (the id and the PNG, or the error's message).
 */
import { initWasm, Resvg } from "@resvg/resvg-wasm";

const ready = (async () => {
  const wasm = await Deno.readFile(new URL(import.meta.resolve("@resvg/resvg-wasm/index_bg.wasm")));
  await initWasm(wasm);
})();

const scope = self as unknown as Worker;
scope.onmessage = async (event: MessageEvent<{ id: number; svg: string }>) => {
  const { id, svg } = event.data;
  try {
    await ready;
    const png = new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng();
    scope.postMessage({ id, png }, [png.buffer]);
  } catch (err) {
    scope.postMessage({ id, error: String((err as Error)?.message ?? err) });
  }
};
