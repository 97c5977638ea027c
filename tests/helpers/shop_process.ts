import { tmpdir } from "node:os";
import type { BuildResult } from "../../client/build.ts";

/** A shop server running as its own process, as `deno task start` runs it. */
export interface ShopProcess {
  url: string;
  adminPassword: string;
  kvPath: string;
  /** Lines the server printed. */
  output: string[];
  /** Stops the server (SIGTERM); a KV folder startShop made for it is removed. */
  stop(): Promise<void>;
  /** Kills the server with `signal`, keeping its KV file (to restart on it); answers its exit. */
  kill(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
  /** Sends `signal` and returns at once, for tests of what the server does while it stops. */
  signal(signal: Deno.Signal): void;
  /** Resolves with the exit status once the process has exited and its output is read. */
  exited: Promise<Deno.CommandStatus>;
  /** Resolves with the first line printed (already, or later) that matches `pattern`. */
  waitFor(pattern: RegExp): Promise<string>;
}

const ROOT = new URL("../../", import.meta.url);
/** What the client build depends on: its sources, the shared code and the dependency versions. */
const BUILD_INPUTS = ["client/", "shared/", "deno.json", "deno.lock"];
/** How long waitFor waits for a line before failing the test. */
const WAIT_FOR_MS = 15_000;
/** Builds nobody used for this long are removed when a new one is made. */
const STALE_BUILD_MS = 60 * 60 * 1000;

let build: Promise<{ dir: string; result: BuildResult }> | null = null;

/**
 * The client built once per test run, not once per test file: Deno runs each test file in its
 * own isolate, so a module-level cache alone would rebuild (about 2 s) in every file. Builds live
 * in the OS temp folder under a hash of their inputs and are reused while that hash holds; a lock
 * file makes test files running in parallel wait for the one that builds.
 */
export function builtClientResult(): Promise<{ dir: string; result: BuildResult }> {
  build ??= cachedBuild();
  return build;
}

/** The folder of the client build this test run shares. */
export async function builtClient(): Promise<string> {
  return (await builtClientResult()).dir;
}

async function cachedBuild(): Promise<{ dir: string; result: BuildResult }> {
  // One folder per checkout (its path is hashed), so two clones never share or prune builds.
  const checkout = (await sha256(new TextEncoder().encode(ROOT.pathname))).slice(0, 16);
  const home = `${tmpdir()}/shop-test-build-${Deno.uid() ?? "user"}/${checkout}`;
  const dir = `${home}/${await inputsHash()}`;
  const cached = await readBuild(dir);
  if (cached) return cached;
  await Deno.mkdir(home, { recursive: true });
  using lock = await Deno.open(`${home}/lock`, { create: true, write: true });
  // An flock: released by the system even if the process holding it dies.
  await lock.lock(true);
  try {
    // Another test file may have built it while this one waited.
    const built = await readBuild(dir);
    if (built) return built;
    const staging = await Deno.makeTempDir({ dir: home, prefix: "staging-" });
    const { buildClient } = await import("../../client/build.ts");
    const result = await buildClient({ outDir: `${staging}/dist` });
    await (await import("esbuild")).stop();
    await Deno.writeTextFile(`${staging}/result.json`, JSON.stringify(result));
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await Deno.rename(staging, dir);
    await removeStaleBuilds(home, dir);
    return { dir: `${dir}/dist`, result };
  } finally {
    await lock.unlock();
  }
}

/** A finished build in `dir` (result.json is written last), marked as used now; else null. */
async function readBuild(dir: string): Promise<{ dir: string; result: BuildResult } | null> {
  let result: BuildResult;
  try {
    result = JSON.parse(await Deno.readTextFile(`${dir}/result.json`));
  } catch {
    return null;
  }
  const now = new Date();
  await Deno.utime(dir, now, now).catch(() => {});
  return { dir: `${dir}/dist`, result };
}

/** Removes other builds and abandoned staging folders of this checkout unused for an hour. */
async function removeStaleBuilds(home: string, keep: string): Promise<void> {
  for await (const entry of Deno.readDir(home)) {
    const path = `${home}/${entry.name}`;
    if (!entry.isDirectory || path === keep) continue;
    const used = (await Deno.stat(path)).mtime?.getTime() ?? 0;
    if (Date.now() - used > STALE_BUILD_MS) await Deno.remove(path, { recursive: true });
  }
}

/** A hash of every file the client build reads from this checkout, by path and content. */
async function inputsHash(): Promise<string> {
  const parts: string[] = [];
  async function walk(path: string): Promise<void> {
    const info = await Deno.stat(new URL(path, ROOT));
    if (info.isFile) {
      const bytes = await Deno.readFile(new URL(path, ROOT));
      parts.push(`${path}\0${await sha256(bytes)}`);
      return;
    }
    const names: string[] = [];
    for await (const entry of Deno.readDir(new URL(path, ROOT))) names.push(entry.name);
    for (const name of names.sort()) await walk(`${path}${path.endsWith("/") ? "" : "/"}${name}`);
  }
  for (const input of BUILD_INPUTS) await walk(input);
  return (await sha256(new TextEncoder().encode(parts.join("\n")))).slice(0, 32);
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A temporary folder removed with its contents when the `await using` holding it ends. */
export async function tempDir(prefix: string): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** Options of a shop process. */
export interface ShopOptions {
  env?: Record<string, string>;
  /** Reuse a KV file (for restart tests; the caller removes it); default is a fresh one. */
  kvPath?: string;
}

/**
 * Starts server/main.ts on port 0 with a fresh KV file and waits until it listens. The fresh KV
 * file's folder is removed by `stop()` (not by `kill()`, whose KV a restart may reuse).
 */
export async function startShop(options: ShopOptions = {}): Promise<ShopProcess> {
  const distDir = await builtClient();
  const kvDir = options.kvPath ? null : await Deno.makeTempDir({ prefix: "shop-kv-" });
  const kvPath = options.kvPath ?? `${kvDir}/shop.kv`;
  const removeKv = () => kvDir ? Deno.remove(kvDir, { recursive: true }).catch(() => {}) : null;
  const adminPassword = "e2e-admin-password-1";
  const child = new Deno.Command(Deno.execPath(), {
    // node_modules as the test run already set it up (the test process runs in "auto" mode, which
    // installs every package of the lock file first): checking it again at each of the suite's
    // ~70 shop starts cost about half of a start's CPU (0.9 s of a core -> 0.4 s).
    args: [
      "run",
      "-A",
      "--node-modules-dir=manual",
      new URL("../../server/main.ts", import.meta.url).pathname,
    ],
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      KV_PATH: kvPath,
      DIST_DIR: distDir,
      ADMIN_PASSWORD: adminPassword,
      ...options.env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();

  const output: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  function waitFor(pattern: RegExp): Promise<string> {
    const seen = output.find((line) => pattern.test(line));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      // A bound, not a wait for time to pass: a shop that never prints the line fails the test
      // rather than hanging it.
      const timer = setTimeout(
        () => fail(`did not print ${pattern} within ${WAIT_FOR_MS / 1000} s`),
        WAIT_FOR_MS,
      );
      function fail(why: string) {
        waiters.splice(waiters.findIndex((w) => w.pattern === pattern), 1);
        reject(new Error(`The shop ${why}:\n${output.join("\n")}`));
      }
      waiters.push({
        pattern,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      finished.then(() => {
        if (!waiters.some((w) => w.pattern === pattern)) return;
        clearTimeout(timer);
        fail(`exited without printing ${pattern}`);
      });
    });
  }
  let resolveUrl: (url: string) => void;
  const urlPromise = new Promise<string>((resolve) => (resolveUrl = resolve));
  async function pump(stream: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of stream) {
      buffer += decoder.decode(chunk, { stream: true });
      let index;
      while ((index = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 1);
        output.push(line);
        for (const waiter of waiters.filter((w) => w.pattern.test(line))) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
        const match = line.match(/listening on (http:\/\/\S+?)\/?$/);
        if (match) resolveUrl(match[1]);
      }
    }
  }
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  const exited = child.status.then((s) => s);
  const finished = exited.then(async (s) => {
    await pumps;
    return s;
  });

  function signal(signal: Deno.Signal) {
    try {
      child.kill(signal);
    } catch { /* already exited */ }
  }
  async function kill(name: Deno.Signal = "SIGTERM") {
    signal(name);
    return await finished;
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const url = await Promise.race([
      urlPromise,
      exited.then((s) => {
        throw new Error(`Shop exited with ${s.code} before listening:\n${output.join("\n")}`);
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Shop did not start:\n${output.join("\n")}`)),
          30_000,
        );
      }),
    ]);
    return {
      url,
      adminPassword,
      kvPath,
      output,
      stop: async () => {
        await kill("SIGTERM");
        await removeKv();
      },
      kill,
      signal,
      exited: finished,
      waitFor,
    };
  } catch (err) {
    await kill("SIGKILL");
    await removeKv();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
