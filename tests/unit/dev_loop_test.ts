import { loadConfig } from "../../server/config.ts";
import assert from "node:assert/strict";
import * as esbuild from "esbuild";
import type { Metafile } from "esbuild";
import { clientBuildOptions, devClientBuilder, renderIndexHtml } from "../../client/build.ts";
import { classifyChange, planChanges } from "../../server/dev.ts";
import {
  BUILD_ERRORS_FILE,
  DEV_RELOAD_ENV,
  DEV_RELOAD_EVENTS,
  DEV_RELOAD_SCRIPT,
  devStaticRoutes,
} from "../../server/dev_reload.ts";
import { staticRoutes } from "../../server/ssr/page_server.ts";
import { builtClient, tempDir } from "../helpers/shop_process.ts";
import { createTestApp, PRODUCTION } from "../helpers/test_app.ts";

Deno.test("a changed style or template rebuilds the client only; the app's code, both", () => {
  assert.equal(classifyChange("client/styles/app.css"), "client");
  assert.equal(classifyChange("client/index.html"), "client");
  assert.equal(classifyChange("client/build.ts"), "client");
  // The server renders these components too, so it restarts onto them.
  assert.equal(classifyChange("client/app/money.ts"), "both");
  assert.equal(classifyChange("./client/features/cart/cart_page.tsx"), "both");
  assert.equal(classifyChange("client\\app\\router.tsx"), "both");
});

Deno.test("a changed file under server/ restarts the server only", () => {
  assert.equal(classifyChange("server/routes/cart.ts"), "server");
  assert.equal(classifyChange("server/app.ts"), "server");
});

Deno.test("a shared/ file counts for both, or for the server when the client does not read it", () => {
  assert.equal(classifyChange("shared/pricing.ts"), "both");
  const clientInputs = new Set(["client/main.tsx", "shared/pricing.ts"]);
  assert.equal(classifyChange("shared/pricing.ts", clientInputs), "both");
  assert.equal(classifyChange("shared/html.ts", clientInputs), "server");
});

Deno.test("editor droppings and files outside the watched folders change nothing", () => {
  for (
    const path of [
      "client/app/.money.ts.swp",
      "client/app/money.ts~",
      "server/4913",
      "server/.#app.ts",
      "shared/#pricing.ts#",
      "dist/assets/main.js",
      "README.md",
      "tests/unit/x_test.ts",
    ]
  ) {
    assert.equal(classifyChange(path), null, path);
  }
});

Deno.test("a batch of changes plans the union of what its files need", () => {
  const plan = (paths: string[]) => {
    const { rebuildClient, restartServer } = planChanges(paths);
    return { rebuildClient, restartServer };
  };
  assert.deepEqual(plan([]), { rebuildClient: false, restartServer: false });
  assert.deepEqual(plan(["client/styles/a.css", "client/index.html"]), {
    rebuildClient: true,
    restartServer: false,
  });
  assert.deepEqual(plan(["server/a.ts", "README.md"]), {
    rebuildClient: false,
    restartServer: true,
  });
  assert.deepEqual(plan(["client/a.ts", "server/b.ts"]), {
    rebuildClient: true,
    restartServer: true,
  });
  assert.deepEqual(plan(["shared/pricing.ts"]), {
    rebuildClient: true,
    restartServer: true,
  });
});

Deno.test("a failed client build keeps the running server unless a file only the server reads changed", () => {
  // The running server renders what the last good build shows; restarting it onto components
  // that do not build would render pages the browser's bundle disagrees with.
  assert.equal(planChanges(["client/features/cart/cart_page.tsx"]).restartIfBuildFails, false);
  assert.equal(planChanges(["shared/pricing.ts"]).restartIfBuildFails, false);
  assert.equal(planChanges(["client/app/money.ts", "server/app.ts"]).restartIfBuildFails, true);
  const clientInputs = new Set(["client/main.tsx"]);
  assert.equal(
    planChanges(["client/main.tsx", "shared/html.ts"], clientInputs).restartIfBuildFails,
    true,
  );
});

Deno.test("development builds are unminified with linked source maps; production ones are not", () => {
  const dev = clientBuildOptions("/tmp/out", "development");
  assert.equal(dev.minify, false);
  assert.equal(dev.sourcemap, "linked");
  assert.equal(dev.define?.["process.env.NODE_ENV"], '"development"');
  const prod = clientBuildOptions("/tmp/out");
  assert.equal(prod.minify, true);
  assert.equal(prod.sourcemap, false);
  assert.equal(prod.define?.["process.env.NODE_ENV"], '"production"');
  // The same layout either way, which the server serves as it is.
  for (const key of ["outdir", "entryNames", "chunkNames", "assetNames", "splitting"] as const) {
    assert.deepEqual(dev[key], prod[key], key);
  }
});

const FAKE_METAFILE: Metafile = {
  inputs: {},
  outputs: {
    "dist/assets/main-AAAA.js": {
      bytes: 1,
      inputs: {},
      imports: [{ path: "dist/assets/chunk-BBBB.js", kind: "import-statement" }],
      exports: [],
      entryPoint: "client/main.tsx",
      cssBundle: "dist/assets/main-CCCC.css",
    },
  },
};

Deno.test("index.html loads the reload script only when the dev loop asks for it", () => {
  const template = "<head><!-- ASSETS --></head>";
  const prod = renderIndexHtml(template, FAKE_METAFILE);
  assert.match(prod, /<script type="module" src="\/assets\/main-AAAA\.js"[^>]*><\/script>/);
  assert.match(prod, /href="\/assets\/main-CCCC\.css"/);
  assert.match(prod, /rel="modulepreload" href="\/assets\/chunk-BBBB\.js"/);
  assert.doesNotMatch(prod, /__dev/);
  const dev = renderIndexHtml(template, FAKE_METAFILE, DEV_RELOAD_SCRIPT);
  assert.ok(dev.includes(`<script type="module" src="${DEV_RELOAD_SCRIPT}"></script>`));
  // External, not inline: the CSP allows no inline scripts.
  assert.doesNotMatch(dev, /<script(?![^>]*\bsrc=)[^>]*>/);
});

Deno.test("the production build's index.html has no reload script", async () => {
  const html = await Deno.readTextFile(`${await builtClient()}/index.html`);
  assert.doesNotMatch(html, /__dev/);
});

Deno.test("live reload is on only when the dev loop's variable is set, never in production", () => {
  const base = { ADMIN_PASSWORD: "long-enough-password" };
  assert.equal(loadConfig(base).devReload, false);
  assert.equal(loadConfig({ ...base, [DEV_RELOAD_ENV]: "0" }).devReload, false);
  assert.equal(loadConfig({ ...base, [DEV_RELOAD_ENV]: "1" }).devReload, true);
  const production = { ...base, ...PRODUCTION, [DEV_RELOAD_ENV]: "1" };
  assert.equal(loadConfig(production).devReload, false);
});

Deno.test("an app outside the dev loop serves no reload endpoints", async () => {
  await using shop = await createTestApp();
  for (const path of [DEV_RELOAD_SCRIPT, DEV_RELOAD_EVENTS]) {
    const res = await shop.app.request(path);
    const body = await res.text();
    assert.notEqual(res.headers.get("Content-Type"), "text/event-stream", path);
    assert.ok(!body.includes("EventSource"), path);
  }
});

Deno.test("outside the dev loop a failed build's errors are served nowhere, even when left in dist/", async () => {
  await using dir = await tempDir("prod-static-");
  await writeFakeBuild(dir.path, "main-ONE.js");
  await Deno.writeTextFile(`${dir.path}/${BUILD_ERRORS_FILE}`, JSON.stringify([SYNTAX_ERROR]));
  const app = staticRoutes(dir.path, "/images");
  for (const path of [DEV_RELOAD_SCRIPT, DEV_RELOAD_EVENTS, `/${BUILD_ERRORS_FILE}`, "/"]) {
    const res = await app.request(path);
    const body = await res.text();
    assert.ok(!body.includes(SYNTAX_ERROR.text), path);
    assert.ok(!body.includes(DEV_RELOAD_SCRIPT), path);
  }
});

/** What esbuild reports for a syntax error, as the dev build keeps it. */
const SYNTAX_ERROR = {
  file: "client/features/content/home_page.tsx",
  line: 72,
  column: 12,
  text: 'Unexpected "<secret>"',
  lineText: '        <h1 id="home-title">Feel {',
};

/** A client build in dist as the build writes it: one entry file, preload.json, index.html. */
async function writeFakeBuild(dist: string, name: string): Promise<void> {
  await Deno.mkdir(`${dist}/assets`, { recursive: true });
  await Deno.writeTextFile(`${dist}/assets/${name}`, `console.log("${name}");`);
  await Deno.writeTextFile(`${dist}/preload.json`, "{}");
  await Deno.writeTextFile(
    `${dist}/index.html`,
    `<title>%TITLE%</title><script type="module" src="/assets/${name}"></script>`,
  );
}

/** What the dev server tells open pages: the build it serves and why the latest one failed. */
interface DevState {
  version: string;
  errors: { file: string; line: number; column: number; text: string; lineText: string }[];
}

/** Reads one Server-Sent Events message's data from a stream, as the state it carries. */
async function nextState(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<DevState> {
  let text = "";
  while (!text.includes("\n\n")) {
    const { value, done } = await reader.read();
    assert.ok(!done, "the event stream ended");
    text += new TextDecoder().decode(value);
  }
  const data = text.split("\n").find((line) => line.startsWith("data: "));
  assert.ok(data, `no data in ${JSON.stringify(text)}`);
  return JSON.parse(data.slice("data: ".length));
}

Deno.test("the dev server serves a rebuilt client without restarting and tells pages", async () => {
  await using dir = await tempDir("dev-static-");
  const dist = dir.path;
  await writeFakeBuild(dist, "main-ONE.js");
  const app = devStaticRoutes(dist, "/images", () => Promise.resolve(undefined), {
    closeOnSignals: false,
    pollMs: 60_000,
  });

  const script = await app.request(DEV_RELOAD_SCRIPT);
  assert.equal(script.status, 200);
  assert.match(script.headers.get("Content-Type") ?? "", /^text\/javascript/);
  const js = await script.text();
  assert.match(js, /new EventSource\("\/__dev\/events"\)/);
  // It parses: a script that does not never reloads a page or shows an error.
  new Function(js);

  const events = await app.request(DEV_RELOAD_EVENTS);
  assert.equal(events.headers.get("Content-Type"), "text/event-stream");
  const reader = events.body!.getReader();
  try {
    const first = await nextState(reader);
    assert.deepEqual(first.errors, []);
    assert.match(await (await app.request("/")).text(), /main-ONE\.js/);

    await writeFakeBuild(dist, "main-TWO.js");
    // The next request notices the new build at once (no waiting for the poll) ...
    assert.match(await (await app.request("/")).text(), /main-TWO\.js/);
    assert.equal(
      await (await app.request("/assets/main-TWO.js")).text(),
      'console.log("main-TWO.js");',
    );
    // ... and open pages hear of it.
    const second = await nextState(reader);
    assert.notEqual(second.version, first.version);
    assert.equal(second.version.split(".")[0], first.version.split(".")[0], "the same process");
  } finally {
    await reader.cancel();
  }
});

Deno.test("a failed build's errors reach open pages and pages opened later; the next good build clears them", async () => {
  await using dir = await tempDir("dev-errors-");
  const dist = dir.path;
  await writeFakeBuild(dist, "main-ONE.js");
  const app = devStaticRoutes(dist, "/images", () => Promise.resolve(undefined), {
    closeOnSignals: false,
    pollMs: 60_000,
  });
  const open = (await app.request(DEV_RELOAD_EVENTS)).body!.getReader();
  let later: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    const first = await nextState(open);
    assert.deepEqual(first.errors, []);

    // The build failed: dist/ keeps its files and gains the errors.
    await Deno.writeTextFile(`${dist}/${BUILD_ERRORS_FILE}`, JSON.stringify([SYNTAX_ERROR]));
    assert.match(await (await app.request("/")).text(), /main-ONE\.js/, "the last good build");
    const failed = await nextState(open);
    assert.equal(failed.version, first.version, "the same build: no reload");
    assert.deepEqual(failed.errors, [SYNTAX_ERROR]);

    // A page opened now hears of them on connecting.
    later = (await app.request(DEV_RELOAD_EVENTS)).body!.getReader();
    assert.deepEqual((await nextState(later)).errors, [SYNTAX_ERROR]);

    // Mended: the errors go, the new build comes.
    await Deno.remove(`${dist}/${BUILD_ERRORS_FILE}`);
    await writeFakeBuild(dist, "main-TWO.js");
    await app.request("/");
    const mended = await nextState(open);
    assert.notEqual(mended.version, first.version);
    assert.deepEqual(mended.errors, []);
  } finally {
    await open.cancel();
    await later?.cancel();
  }
});

Deno.test("when the first dev build fails, pages load the reload script, show the errors and reload once it builds", async () => {
  await using dir = await tempDir("dev-unbuilt-");
  const dist = dir.path;
  await Deno.writeTextFile(`${dist}/${BUILD_ERRORS_FILE}`, JSON.stringify([SYNTAX_ERROR]));
  const app = devStaticRoutes(dist, "/images", () => Promise.resolve(undefined), {
    closeOnSignals: false,
    pollMs: 60_000,
  });
  const page = await app.request("/cart");
  assert.equal(page.status, 503);
  assert.match(page.headers.get("Content-Type") ?? "", /^text\/html/);
  const html = await page.text();
  assert.ok(html.includes(`<script type="module" src="${DEV_RELOAD_SCRIPT}"></script>`));
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline script (the CSP)");
  assert.ok(
    !html.includes(SYNTAX_ERROR.text),
    "the errors come by the event stream, escaped there",
  );
  // An asset is not a page: it stays a plain 404.
  assert.equal((await app.request("/assets/main-ONE.js")).status, 404);

  const reader = (await app.request(DEV_RELOAD_EVENTS)).body!.getReader();
  try {
    const first = await nextState(reader);
    assert.deepEqual(first.errors, [SYNTAX_ERROR]);
    await Deno.remove(`${dist}/${BUILD_ERRORS_FILE}`);
    await writeFakeBuild(dist, "main-ONE.js");
    assert.match(await (await app.request("/")).text(), /main-ONE\.js/);
    const built = await nextState(reader);
    assert.notEqual(built.version, first.version, "open pages reload onto the build");
    assert.deepEqual(built.errors, []);
  } finally {
    await reader.cancel();
  }
});

Deno.test("what the dev server sends of a build's errors is bounded and only their fields", async () => {
  await using dir = await tempDir("dev-errors-");
  await writeFakeBuild(dir.path, "main-ONE.js");
  const many = Array.from({ length: 50 }, (_, i) => ({
    ...SYNTAX_ERROR,
    line: i + 1,
    text: "x".repeat(10_000),
    extra: "not sent",
  }));
  await Deno.writeTextFile(`${dir.path}/${BUILD_ERRORS_FILE}`, JSON.stringify(many));
  const app = devStaticRoutes(dir.path, "/images", () => Promise.resolve(undefined), {
    closeOnSignals: false,
    pollMs: 60_000,
  });
  const reader = (await app.request(DEV_RELOAD_EVENTS)).body!.getReader();
  try {
    const { errors } = await nextState(reader);
    assert.ok(errors.length > 0 && errors.length <= 10, `${errors.length} errors`);
    assert.ok(errors.every((e) => e.text.length <= 2000));
    assert.deepEqual(Object.keys(errors[0]).sort(), ["column", "file", "line", "lineText", "text"]);
  } finally {
    await reader.cancel();
  }
});

Deno.test({
  name: "a development build writes readable JavaScript, source maps and the reload script tag",
  // esbuild's service process outlives the test until esbuild.stop().
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using dir = await tempDir("dev-build-");
    const outDir = `${dir.path}/dist`;
    const builder = await devClientBuilder({ outDir, devScript: DEV_RELOAD_SCRIPT });
    try {
      const first = await builder.rebuild();
      assert.ok(first, "the dev build succeeds");
      assert.ok([...first.inputs].some((input) => input.endsWith("/client/main.tsx")));

      const html = await Deno.readTextFile(`${outDir}/index.html`);
      assert.ok(html.includes(`<script type="module" src="${DEV_RELOAD_SCRIPT}"></script>`));
      const main = html.match(/src="\/assets\/(main-[^"]+\.js)"/)?.[1];
      assert.ok(main, "index.html names the entry file");
      const js = await Deno.readTextFile(`${outDir}/assets/${main}`);
      assert.ok(js.includes(`//# sourceMappingURL=${main}.map`));
      const map = JSON.parse(await Deno.readTextFile(`${outDir}/assets/${main}.map`));
      assert.ok(map.sources.some((s: string) => s.endsWith("client/main.tsx")));
      // Unminified: many short, indented lines rather than a few very long ones.
      const lines = js.split("\n");
      assert.ok(lines.length > 100, `${lines.length} lines`);
      assert.ok(lines.some((line) => line.startsWith("  ")), "indented code");
      const assets = [...Deno.readDirSync(`${outDir}/assets`)].map((e) => e.name);
      assert.ok(!assets.some((name) => /\.(br|gz)$/.test(name)), "no precompressed copies");

      // A rebuild leaves exactly one build behind.
      assert.ok(await builder.rebuild());
      const again = [...Deno.readDirSync(`${outDir}/assets`)].map((e) => e.name).sort();
      assert.deepEqual(again, assets.sort());
    } finally {
      await builder.dispose();
      await esbuild.stop();
    }
  },
});

Deno.test({
  name:
    "a client build that fails leaves the last good build in dist/, and the next good one replaces it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using dir = await tempDir("dev-broken-");
    const outDir = `${dir.path}/dist`;
    // An app of its own, laid out as the real one (the build finds its entries by these names).
    const entry = `${dir.path}/client/main.tsx`;
    const styles = `${dir.path}/client/styles/admin.css`;
    await Deno.mkdir(`${dir.path}/client/styles`, { recursive: true });
    await Deno.writeTextFile(entry, `export const greeting = "hello";\n`);
    await Deno.writeTextFile(styles, `body { color: black; }\n`);
    const builder = await devClientBuilder({
      outDir,
      entryPoints: [entry, styles],
      errorsFile: BUILD_ERRORS_FILE,
    });
    const files = () => [...Deno.readDirSync(`${outDir}/assets`)].map((e) => e.name).sort();
    const errors = `${outDir}/${BUILD_ERRORS_FILE}`;
    try {
      assert.ok(await builder.rebuild(), "the first build succeeds");
      const good = files();
      assert.ok(good.some((name) => name.startsWith("main-")), good.join());
      const page = await Deno.readTextFile(`${outDir}/index.html`);
      await assert.rejects(Deno.stat(errors), Deno.errors.NotFound);

      await Deno.writeTextFile(entry, `export const greeting = "hello";\nexport const = ;\n`);
      assert.equal(await builder.rebuild(), null, "a syntax error fails the build");
      assert.deepEqual(files(), good, "the last good build's files stay");
      assert.equal(await Deno.readTextFile(`${outDir}/index.html`), page);
      // What failed, where, as esbuild reports it, for the open pages to show.
      const [error, ...more] = JSON.parse(await Deno.readTextFile(errors));
      assert.equal(more.length, 0);
      assert.ok(error.file.endsWith("client/main.tsx"), error.file);
      assert.equal(error.line, 2);
      assert.equal(error.column, 13);
      assert.match(error.text, /Expected identifier but found "="/);
      assert.equal(error.lineText, "export const = ;");

      await Deno.writeTextFile(entry, `export const greeting = "hello again";\n`);
      assert.ok(await builder.rebuild(), "fixed, it builds again");
      assert.notDeepEqual(files(), good, "the new build replaces the old one");
      await assert.rejects(Deno.stat(errors), Deno.errors.NotFound, "and the errors are gone");
    } finally {
      await builder.dispose();
      await esbuild.stop();
    }
  },
});
