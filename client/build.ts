import * as esbuild from "esbuild";
import { resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const CLIENT_DIR = new URL(".", import.meta.url).pathname;
const DEFAULT_OUT = new URL("../dist", import.meta.url).pathname;

/** Options of one client build. */
export interface BuildOptions {
  outDir?: string;
  /** Print the size of every chunk. */
  report?: boolean;
}

/** The size of one output file. */
export interface ChunkSize {
  file: string;
  bytes: number;
  gzipBytes: number;
}

/**
 * Bundles the client for production: minified ESM split into lazy chunks, content-hashed names,
 * CSS bundled, and an index.html that references the hashed entry files.
 */
export async function buildClient(options: BuildOptions = {}): Promise<BuildResult> {
  const outDir = options.outDir ?? DEFAULT_OUT;
  await Deno.remove(outDir, { recursive: true }).catch(() => {});
  const result = await esbuild.build(clientBuildOptions(outDir));
  await afterBuild(outDir, result.metafile!);
  await precompress(`${outDir}/assets`);
  const sizes = await chunkSizes(outDir);
  if (options.report) printSizes(sizes);
  return { sizes, metafile: result.metafile! };
}

/** What a build produced: the size of every file and esbuild's map of outputs and inputs. */
export interface BuildResult {
  sizes: ChunkSize[];
  metafile: esbuild.Metafile;
}

/** Production builds are minified and precompressed; development ones are readable, with maps. */
export type BuildMode = "production" | "development";

/**
 * esbuild's options for a client build into outDir. Both modes write the same layout (index.html,
 * preload.json and content-hashed files under assets/), so the server serves either as it is.
 */
export function clientBuildOptions(
  outDir: string,
  mode: BuildMode = "production",
): esbuild.BuildOptions {
  const production = mode === "production";
  return {
    entryPoints: [`${CLIENT_DIR}main.tsx`, `${CLIENT_DIR}styles/admin.css`],
    outdir: `${outDir}/assets`,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: ["es2022", "chrome110", "firefox110", "safari16"],
    minify: production,
    // "linked": each .js and .css names its .map, which the server sends from /assets/ too.
    sourcemap: production ? false : "linked",
    jsx: "automatic",
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    metafile: true,
    legalComments: "none",
    define: { "process.env.NODE_ENV": production ? '"production"' : '"development"' },
    logLevel: "warning",
  };
}

/**
 * What every esbuild run needs before the server can use its output, a build's and each dev
 * rebuild's alike: preload.json and index.html name the new hashed files. index.html is written
 * last, and by rename, so a dev server that sees it change finds everything else in place.
 */
async function afterBuild(
  outDir: string,
  metafile: esbuild.Metafile,
  devScript?: string,
): Promise<void> {
  await writePreloadManifest(outDir, metafile);
  const template = await Deno.readTextFile(`${CLIENT_DIR}index.html`);
  await writeAtomically(`${outDir}/index.html`, renderIndexHtml(template, metafile, devScript));
}

async function writeAtomically(path: string, text: string): Promise<void> {
  await Deno.writeTextFile(`${path}.tmp`, text);
  await Deno.rename(`${path}.tmp`, path);
}

/**
 * The app's index.html: the template with the entry's stylesheet, preloads and script in place of
 * its ASSETS comment. devScript, given only by the dev loop, adds one more script (an external
 * file, as the CSP allows no inline ones); production builds never pass it.
 */
export function renderIndexHtml(
  template: string,
  metafile: esbuild.Metafile,
  devScript?: string,
): string {
  // Dynamic imports are entry points too once split, so look for main.tsx by name.
  const entry = Object.entries(metafile.outputs)
    .find(([, out]) => out.entryPoint?.endsWith("client/main.tsx"));
  if (!entry) throw new Error("The client build produced no entry file");
  const [jsPath, jsOut] = entry;
  const js = jsPath.slice(jsPath.lastIndexOf("/") + 1);
  const css = jsOut.cssBundle ? jsOut.cssBundle.slice(jsOut.cssBundle.lastIndexOf("/") + 1) : null;
  // Preloading the entry's static imports saves the round trips of discovering them. At low
  // priority, as the script itself: pages arrive rendered, so the document, its image and its
  // fonts come first and the code that makes them interactive after.
  const preloads = jsOut.imports
    .filter((imp) => imp.kind === "import-statement" && !imp.external)
    .map((imp) => imp.path.slice(imp.path.lastIndexOf("/") + 1))
    .map((file) => `<link rel="modulepreload" href="/assets/${file}" fetchpriority="low">`);
  // The admin's stylesheet, named for the admin page to load (client/features/admin/).
  const admin = Object.keys(metafile.outputs)
    .find((path) => metafile.outputs[path].entryPoint?.endsWith("client/styles/admin.css"));
  const tags = [
    // data-precedence: stylesheets React adds later (the admin's) go after this one.
    ...(css ? [`<link rel="stylesheet" href="/assets/${css}" data-precedence="app">`] : []),
    ...(admin
      ? [`<meta name="admin-styles" content="/assets/${admin.slice(admin.lastIndexOf("/") + 1)}">`]
      : []),
    ...preloads,
    `<script type="module" src="/assets/${js}" fetchpriority="low"></script>`,
    ...(devScript ? [`<script type="module" src="${devScript}"></script>`] : []),
  ].join("\n    ");
  return template.replace("<!-- ASSETS -->", tags);
}

/**
 * Writes preload.json: for each page module under client/features/, the files loading it takes
 * (its chunk and everything that chunk imports). The server adds them to a page's HTML as
 * modulepreload links, saving the round trip the router would spend discovering them.
 */
async function writePreloadManifest(outDir: string, metafile: esbuild.Metafile): Promise<void> {
  const outputs = metafile.outputs;
  const fileOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);
  function closure(output: string, seen: Set<string>): Set<string> {
    if (seen.has(output)) return seen;
    seen.add(output);
    for (const imp of outputs[output].imports) {
      if (imp.kind === "import-statement" && !imp.external) closure(imp.path, seen);
    }
    return seen;
  }
  const mainOutput = Object.keys(outputs)
    .find((o) => outputs[o].entryPoint?.endsWith("client/main.tsx"))!;
  const alreadyLoaded = closure(mainOutput, new Set());
  const manifest: Record<string, string[]> = {};
  for (const [output, info] of Object.entries(outputs)) {
    const entry = info.entryPoint?.match(/client\/features\/(.+)$/)?.[1];
    if (!entry) continue;
    manifest[entry] = [...closure(output, new Set())]
      .filter((o) => o.endsWith(".js") && !alreadyLoaded.has(o))
      .map(fileOf);
  }
  await Deno.writeTextFile(`${outDir}/preload.json`, JSON.stringify(manifest));
}

/**
 * Writes .br and .gz beside every text asset at build time, at the highest levels: the server
 * sends them as they are, so no request pays for compression.
 */
async function precompress(dir: string): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    if (!/\.(js|css|svg|json)$/.test(entry.name)) continue;
    const bytes = await Deno.readFile(`${dir}/${entry.name}`);
    await Deno.writeFile(
      `${dir}/${entry.name}.br`,
      brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    await Deno.writeFile(`${dir}/${entry.name}.gz`, gzipSync(bytes, { level: 9 }));
  }
}

/** The size of every output file and of what the server sends for it. */
async function chunkSizes(outDir: string): Promise<ChunkSize[]> {
  const dir = `${outDir}/assets`;
  const sizes: ChunkSize[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (/\.(br|gz)$/.test(entry.name)) continue;
    const { size } = await Deno.stat(`${dir}/${entry.name}`);
    // precompress already wrote the .gz the server sends; a file it skips is sent as it is.
    const gzipBytes = await Deno.stat(`${dir}/${entry.name}.gz`).then((gz) => gz.size, () => size);
    sizes.push({ file: entry.name, bytes: size, gzipBytes });
  }
  return sizes.sort((a, b) => b.bytes - a.bytes);
}

function printSizes(sizes: ChunkSize[]): void {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`.padStart(10);
  console.log(`${"file".padEnd(36)}${"size".padStart(10)}${"gzip".padStart(10)}`);
  for (const s of sizes) console.log(`${s.file.padEnd(36)}${kb(s.bytes)}${kb(s.gzipBytes)}`);
}

/** One development build's outcome: the esbuild inputs it read, or null when it failed. */
export interface DevBuildResult {
  /** Absolute paths of the files the bundle was built from. */
  inputs: Set<string>;
  millis: number;
}

/** An incremental development build of the client: each rebuild reuses the previous one's work. */
export interface DevClientBuilder {
  /**
   * Builds again; null when esbuild reported errors (it has printed them), leaving dist as it was.
   * beforeWrite runs once the build has succeeded and before its files replace the last ones.
   */
  rebuild(beforeWrite?: () => Promise<void>): Promise<DevBuildResult | null>;
  dispose(): Promise<void>;
}

/** Options of the development build. */
export interface DevBuildOptions {
  outDir?: string;
  /** The files to build in place of the app's (a test's own, which it may break). */
  entryPoints?: string[];
  /** Path of a script index.html loads too: the dev server's live-reload client. */
  devScript?: string;
  /**
   * A file name in outDir where a failed build leaves its errors (BuildError[], JSON) for the dev
   * server to show in open pages; the next good build removes it.
   */
  errorsFile?: string;
}

/** One error of a failed build, where and what, as esbuild reports it (line 1-based, column 0-based). */
export interface BuildError {
  file: string;
  line: number;
  column: number;
  text: string;
  lineText: string;
}

/**
 * Starts an incremental development build: unminified, with linked source maps, development React,
 * no precompressed copies. outDir is emptied first (a production build's .br and .gz would be stale)
 * and, after each rebuild, files an earlier rebuild wrote and this one did not are deleted, so
 * the server reading outDir finds exactly one build.
 */
export async function devClientBuilder(options: DevBuildOptions = {}): Promise<DevClientBuilder> {
  const outDir = options.outDir ?? DEFAULT_OUT;
  const errorsPath = options.errorsFile ? `${outDir}/${options.errorsFile}` : null;
  await Deno.remove(outDir, { recursive: true }).catch(() => {});
  // Outputs are kept in memory and written only when the whole build succeeded: esbuild writing
  // them itself left dist/assets empty after a rebuild with a syntax error, and the open page
  // unstyled, though the last good build was meant to stay.
  const ctx = await esbuild.context({
    ...clientBuildOptions(outDir, "development"),
    ...(options.entryPoints ? { entryPoints: options.entryPoints } : {}),
    write: false,
  });
  let queue: Promise<unknown> = Promise.resolve();
  async function failed(errors: esbuild.Message[]): Promise<null> {
    if (errorsPath) {
      await Deno.mkdir(outDir, { recursive: true });
      await writeAtomically(errorsPath, JSON.stringify(errors.map(buildError)));
    }
    return null;
  }
  async function rebuild(beforeWrite?: () => Promise<void>): Promise<DevBuildResult | null> {
    const started = performance.now();
    let result: esbuild.BuildResult;
    try {
      result = await ctx.rebuild();
    } catch (err) {
      // esbuild has logged the errors; a failure of its own has none to show.
      const errors = (err as esbuild.BuildFailure)?.errors;
      return await failed(Array.isArray(errors) ? errors : []);
    }
    if (result.errors.length > 0) return await failed(result.errors);
    await beforeWrite?.();
    await Deno.mkdir(`${outDir}/assets`, { recursive: true });
    for (const file of result.outputFiles ?? []) await Deno.writeFile(file.path, file.contents);
    const metafile = result.metafile!;
    await removeStaleOutputs(`${outDir}/assets`, metafile);
    if (errorsPath) await Deno.remove(errorsPath).catch(() => {});
    await afterBuild(outDir, metafile, options.devScript);
    const inputs = new Set(Object.keys(metafile.inputs).map((input) => resolve(input)));
    return { inputs, millis: performance.now() - started };
  }
  return {
    // One rebuild at a time: a save during a build waits for it instead of racing its files.
    rebuild(beforeWrite) {
      const run = () => rebuild(beforeWrite);
      const next = queue.then(run, run);
      queue = next.catch(() => {});
      return next;
    },
    dispose: () => ctx.dispose(),
  };
}

function buildError(message: esbuild.Message): BuildError {
  const at = message.location;
  return {
    file: at?.file ?? "",
    line: at?.line ?? 0,
    column: at?.column ?? 0,
    text: message.text,
    lineText: at?.lineText ?? "",
  };
}

async function removeStaleOutputs(dir: string, metafile: esbuild.Metafile): Promise<void> {
  const current = new Set(
    Object.keys(metafile.outputs).map((o) => o.slice(o.lastIndexOf("/") + 1)),
  );
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && !current.has(entry.name)) {
      await Deno.remove(`${dir}/${entry.name}`).catch(() => {});
    }
  }
}

if (import.meta.main) {
  await buildClient({ report: true });
  await esbuild.stop();
}
