/**
 * The development loop as a developer meets it: `deno task dev` (server/dev.ts) runs on a copy of
 * the app, a page is open, and files are broken and mended under it. The copy keeps the edits away
 * from the checkout the other tests read.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { browserMissing, launchBrowser } from "./helpers/browser.ts";
import { tempDir } from "../helpers/shop_process.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
/** What the dev loop watches, builds and runs, and the settings and lock it runs them with. */
const COPIED = ["client", "server", "shared", "deno.json", "deno.lock"];
const HOME = "client/features/content/home_page.tsx";
const HEADING = "Feel the switch before you buy the keyboard";
/**
 * How long any one step may take before the test fails rather than hangs: each step waits for its
 * condition, so the bound costs nothing when it passes. A client build plus a server start took
 * over 20 s once with four test files at a time beside other suites (load average 20).
 */
const STEP_MS = 45_000;

async function copyTree(from: string, to: string): Promise<void> {
  const info = await Deno.stat(from);
  if (info.isFile) return await Deno.copyFile(from, to);
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    await copyTree(join(from, entry.name), join(to, entry.name));
  }
}

/** A temporary copy of the app for the dev loop to run; removed when the `await using` ends. */
async function copyOfApp(): Promise<{ path: string } & AsyncDisposable> {
  const copy = await tempDir("dev-loop-app-");
  for (const name of COPIED) await copyTree(join(ROOT, name), join(copy.path, name));
  // The dependencies are read where they are, not copied.
  await Deno.symlink(
    await Deno.realPath(join(ROOT, "node_modules")),
    join(copy.path, "node_modules"),
  );
  return copy;
}

/** `deno task dev` running in `root`: its printed lines and a bounded wait for one of them. */
function startDevLoop(root: string, dataDir: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(root, "server/dev.ts")],
    cwd: root,
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      KV_PATH: join(dataDir, "shop.kv"),
      ADMIN_PASSWORD: "dev-loop-admin-password",
      LOG_REQUESTS: "0",
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output: string[] = [];
  const waiters = new Set<() => void>();
  async function pump(stream: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of stream) {
      buffer += decoder.decode(chunk, { stream: true });
      const lines = buffer.split("\n");
      buffer = lines.pop()!;
      output.push(...lines);
      for (const wake of waiters) wake();
    }
  }
  const pumped = Promise.all([pump(child.stdout), pump(child.stderr)]);
  /** The first line from `from` on (an index into output) that matches `pattern`. */
  function waitFor(pattern: RegExp, from = 0): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`dev loop did not print ${pattern}:\n${output.join("\n")}`));
      }, STEP_MS);
      function check() {
        const line = output.slice(from).find((l) => pattern.test(l));
        if (line === undefined) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(line);
      }
      waiters.add(check);
      check();
    });
  }
  async function stop() {
    try {
      child.kill("SIGTERM");
    } catch { /* gone already */ }
    // dev.ts stops its server (SIGKILL after 3 s) before it exits; a bound all the same.
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await child.status;
    clearTimeout(timer);
    await pumped;
  }
  return { output, waitFor, stop };
}

/** The overlay the dev loop draws over the page, with its text, or null when none shows. */
function overlayText(page: Page): Promise<string | null> {
  return page.evaluate(() =>
    (document.querySelector("[data-dev-overlay]") as HTMLElement | null)?.innerText ?? null
  );
}

async function waitForOverlay(page: Page, pattern: RegExp): Promise<string> {
  await page.locator("[data-dev-overlay]").filter({ hasText: pattern }).waitFor({
    timeout: STEP_MS,
  });
  return (await overlayText(page))!;
}

/** The names and contents of everything the client build left in dist/. */
async function distFiles(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of ["index.html", "preload.json"]) {
    files.set(name, await Deno.readTextFile(join(root, "dist", name)));
  }
  for await (const entry of Deno.readDir(join(root, "dist/assets"))) {
    files.set(entry.name, await Deno.readTextFile(join(root, "dist/assets", entry.name)));
  }
  return files;
}

Deno.test({
  name:
    "deno task dev: a broken client file shows its error over the open page and keeps the last good build; the fix reloads the page, which hydrates cleanly",
  ignore: browserMissing,
  // Playwright's Chromium and its pipes are closed in the finally block below.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using copy = await copyOfApp();
    await using data = await tempDir("dev-loop-data-");
    const home = join(copy.path, HOME);
    const source = await Deno.readTextFile(home);
    assert.ok(source.includes(HEADING));

    const dev = startDevLoop(copy.path, data.path);
    const browser = await launchBrowser();
    try {
      const url = (await dev.waitFor(/listening on http:\/\/\S+/)).match(/http:\/\/[^/\s]+/)![0];
      const hydrationErrors: string[] = [];
      const watch = (page: Page) => {
        page.on("console", (msg) => {
          if (/hydrat/i.test(msg.text())) hydrationErrors.push(msg.text().slice(0, 400));
        });
        page.on("pageerror", (err) => hydrationErrors.push(`exception: ${err.message}`));
      };
      const context = await browser.newContext();
      const page = await context.newPage();
      watch(page);
      await page.goto(`${url}/`);
      await page.locator("html[data-hydrated]").waitFor({ timeout: STEP_MS });
      assert.equal(await page.locator("h1").innerText(), HEADING);
      assert.deepEqual(hydrationErrors, [], "the first load hydrates cleanly");
      const goodBuild = await distFiles(copy.path);

      // Broken: a syntax error on the heading's line.
      const lines = source.split("\n");
      const row = lines.findIndex((line) => line.includes(HEADING));
      lines[row] = lines[row].replace(HEADING, `${HEADING} {`);
      await Deno.writeTextFile(home, lines.join("\n"));
      const shown = await waitForOverlay(page, /client build failed/i);
      // Where and what, as esbuild reports it.
      assert.match(shown, new RegExp(`${HOME.replaceAll(".", "\\.")}:${row + 1}:\\d+`));
      assert.match(shown, /ERROR: Expected identifier but found "\/"/);
      assert.ok(shown.includes(`${HEADING} {</h1>`), "the line itself");
      assert.deepEqual(await distFiles(copy.path), goodBuild, "dist/ keeps the last good build");
      assert.equal(await page.locator("h1").innerText(), HEADING, "the page is still the app");

      // A page opened while the build is broken shows the error too.
      const later = await context.newPage();
      watch(later);
      await later.goto(`${url}/`);
      assert.match(await waitForOverlay(later, /client build failed/i), /Expected identifier/);
      await later.locator("html[data-hydrated]").waitFor({ timeout: STEP_MS });
      await later.close();

      // Mended, with a new heading: the page reloads onto it and the overlay is gone.
      await Deno.writeTextFile(home, source.replace(HEADING, "Feel every switch first"));
      await page.waitForFunction(
        () => document.querySelector("h1")?.textContent === "Feel every switch first",
        undefined,
        { timeout: STEP_MS },
      );
      await page.locator("html[data-hydrated]").waitFor({ timeout: STEP_MS });
      assert.equal(await overlayText(page), null, "the overlay is gone");
      assert.deepEqual(hydrationErrors, [], "the reloaded page hydrates cleanly");
    } finally {
      await browser.close().catch(() => {});
      await dev.stop();
    }
  },
});

Deno.test({
  name:
    "deno task dev: a server file that fails to load is named in the terminal, the page says the server is not answering, and the next save starts it again",
  ignore: browserMissing,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using copy = await copyOfApp();
    await using data = await tempDir("dev-loop-data-");
    const broken = join(copy.path, "server/log.ts");
    const source = await Deno.readTextFile(broken);

    const dev = startDevLoop(copy.path, data.path);
    const browser = await launchBrowser();
    try {
      const url = (await dev.waitFor(/listening on http:\/\/\S+/)).match(/http:\/\/[^/\s]+/)![0];
      const page = await browser.newPage();
      await page.goto(`${url}/`);
      await page.locator("html[data-hydrated]").waitFor({ timeout: STEP_MS });

      const before = dev.output.length;
      await Deno.writeTextFile(broken, `${source}\nexport const = ;\n`);
      // Deno's own error names the file, line and column that did not load.
      await dev.waitFor(/server\/log\.ts:\d+:\d+/, before);
      await dev.waitFor(/\[dev\] the server stopped/, before);
      await waitForOverlay(page, /server is not answering/i);

      // The next save starts it again, and the page reloads onto it.
      const again = dev.output.length;
      await Deno.writeTextFile(broken, source);
      await dev.waitFor(/listening on http/, again);
      await page.waitForFunction(() => !document.querySelector("[data-dev-overlay]"), undefined, {
        timeout: STEP_MS,
      });
      await page.locator("html[data-hydrated]").waitFor({ timeout: STEP_MS });
    } finally {
      await browser.close().catch(() => {});
      await dev.stop();
    }
  },
});
