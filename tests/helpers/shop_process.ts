import { buildClient, type BuildResult } from "../../client/build.ts";

/** A shop server running as its own process, as `deno task start` runs it. */
export interface ShopProcess {
  url: string;
  adminPassword: string;
  kvPath: string;
  /** Lines the server printed. */
  output: string[];
  stop(): Promise<void>;
  kill(signal?: Deno.Signal): Promise<void>;
}

let build: Promise<{ dir: string; result: BuildResult }> | null = null;

/** Builds the client once per test process into a temporary folder. */
export function builtClientResult(): Promise<{ dir: string; result: BuildResult }> {
  build ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "shop-dist-" });
    return { dir, result: await buildClient({ outDir: dir }) };
  })();
  return build;
}

/** The folder of a client build made once per test process. */
export async function builtClient(): Promise<string> {
  return (await builtClientResult()).dir;
}

/** Options of a shop process. */
export interface ShopOptions {
  env?: Record<string, string>;
  /** Reuse a KV file (for restart tests); default is a fresh one. */
  kvPath?: string;
}

/** Starts server/main.ts on port 0 with a fresh KV file and waits until it listens. */
export async function startShop(options: ShopOptions = {}): Promise<ShopProcess> {
  const distDir = await builtClient();
  const kvPath = options.kvPath ?? `${await Deno.makeTempDir({ prefix: "shop-kv-" })}/shop.kv`;
  const adminPassword = "e2e-admin-password-1";
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../server/main.ts", import.meta.url).pathname],
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
        const match = line.match(/listening on (http:\/\/\S+?)\/?$/);
        if (match) resolveUrl(match[1]);
      }
    }
  }
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  const exited = child.status.then((s) => s);
  const url = await Promise.race([
    urlPromise,
    exited.then((s) => {
      throw new Error(`Shop exited with ${s.code} before listening:\n${output.join("\n")}`);
    }),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`Shop did not start:\n${output.join("\n")}`)), 30_000)
    ),
  ]);

  let stopped = false;
  async function kill(signal: Deno.Signal = "SIGTERM") {
    if (stopped) return;
    stopped = true;
    try {
      child.kill(signal);
    } catch { /* already exited */ }
    await exited;
    await pumps;
  }
  return { url, adminPassword, kvPath, output, stop: () => kill("SIGTERM"), kill };
}
