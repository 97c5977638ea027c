import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevClientBuilder, devClientBuilder } from "../client/build.ts";
import { DEV_RELOAD_ENV, DEV_RELOAD_SCRIPT } from "./dev_reload.ts";

/**
 * Development loop (`deno task dev`). One watcher over client/, server/ and shared/ sorts each
 * batch of saved files:
 * - client files (and shared/ files the client bundle reads) rebuild the client incrementally
 *   (unminified, source maps); the running server serves the new files and tells open pages to
 *   reload (server/dev_reload.ts). Styles and the page template leave the server running; the
 *   app's code restarts it too, since it renders the same components (server/ssr/).
 * - server files (and every shared/ file: the server may import it) restart the server process;
 *   pages reload once it is back.
 * The server runs as `deno task start` would with no settings: local KV file, seeded catalogue,
 * demo payments, unless the environment says otherwise.
 */

/** What a changed file needs: a client rebuild, a server restart, or both. */
export type ChangeKind = "client" | "server" | "both";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WATCHED = ["client", "server", "shared"];
/** Editors' backup, swap and probe files, which are no source. */
const EDITOR_FILE = /(~|\.swp|\.swx|\.swo|\.tmp|\.bak|\.orig)$|(^|\/)(\.#|#)[^/]*$|(^|\/)4913$/;

/**
 * Which part of the shop a changed file belongs to, from its path relative to the repository
 * (forward slashes). clientInputs, the files the last client build read, tells apart the shared/
 * files the client uses; without it every shared/ file counts for both. Null: no part.
 */
export function classifyChange(
  path: string,
  clientInputs?: ReadonlySet<string>,
): ChangeKind | null {
  const file = path.replaceAll("\\", "/").replace(/^\.\//, "");
  if (EDITOR_FILE.test(file)) return null;
  if (file.startsWith("client/")) {
    // The server renders the app's components too (server/ssr/), so their code is the server's
    // as well; styles, the page template and the build script are the bundle's alone.
    return /^client\/(app|features)\/.*\.tsx?$|^client\/main\.tsx$/.test(file) ? "both" : "client";
  }
  if (file.startsWith("server/")) return "server";
  if (file.startsWith("shared/")) {
    return clientInputs && !clientInputs.has(file) ? "server" : "both";
  }
  return null;
}

/** What one batch of changed files needs done. */
export interface ChangePlan {
  rebuildClient: boolean;
  restartServer: boolean;
}

/** The work a batch of changed files (paths relative to the repository) calls for. */
export function planChanges(
  paths: Iterable<string>,
  clientInputs?: ReadonlySet<string>,
): ChangePlan {
  const plan = { rebuildClient: false, restartServer: false };
  for (const path of paths) {
    const kind = classifyChange(path, clientInputs);
    if (kind === "client" || kind === "both") plan.rebuildClient = true;
    if (kind === "server" || kind === "both") plan.restartServer = true;
  }
  return plan;
}

function log(message: string): void {
  console.log(`[dev] ${message}`);
}

/** Runs server/main.ts as a child process, restarting it on demand. */
class ServerProcess {
  #child: Deno.ChildProcess | null = null;

  start(): void {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(ROOT, "server/main.ts")],
      env: { [DEV_RELOAD_ENV]: "1" },
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    this.#child = child;
    child.status.then((status) => {
      if (this.#child === child) {
        this.#child = null;
        log(`the server stopped (exit code ${status.code}); it starts again on the next change`);
      }
    });
  }

  /** SIGTERM, for the server's graceful shutdown; SIGKILL if that takes over 3 seconds. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    this.#child = null;
    try {
      child.kill("SIGTERM");
    } catch { /* gone already */ }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone already */ }
    }, 3000);
    await child.status;
    clearTimeout(timer);
  }
}

async function rebuildClient(builder: DevClientBuilder): Promise<Set<string> | null> {
  const result = await builder.rebuild();
  if (!result) {
    log("the client build failed (errors above); the last good build stays in dist/");
    return null;
  }
  log(`client built in ${Math.round(result.millis)} ms`);
  return new Set([...result.inputs].map((input) => relative(ROOT, input).replaceAll("\\", "/")));
}

async function main(): Promise<void> {
  const builder = await devClientBuilder({ devScript: DEV_RELOAD_SCRIPT });
  let clientInputs = await rebuildClient(builder) ?? undefined;
  const server = new ServerProcess();
  server.start();

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    try {
      Deno.addSignalListener(signal, async () => {
        await server.stop();
        await builder.dispose();
        Deno.exit(0);
      });
    } catch { /* a platform without this signal */ }
  }

  async function apply(paths: string[]): Promise<void> {
    const plan = planChanges(paths, clientInputs);
    if (!plan.rebuildClient && !plan.restartServer) return;
    const what = plan.rebuildClient && plan.restartServer
      ? "rebuilding the client and restarting the server"
      : plan.rebuildClient
      ? "rebuilding the client"
      : "restarting the server";
    log(`${paths.join(", ")} changed: ${what}`);
    // Both: the server is down while the client builds, so pages reload once, onto both.
    if (plan.restartServer) await server.stop();
    if (plan.rebuildClient) clientInputs = await rebuildClient(builder) ?? clientInputs;
    if (plan.restartServer) server.start();
  }

  // Saving a file fires several events; act once they settle, one batch at a time.
  let pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let work = Promise.resolve();
  const watcher = Deno.watchFs(WATCHED.map((dir) => join(ROOT, dir)));
  log(`watching ${WATCHED.join("/, ")}/`);
  for await (const event of watcher) {
    if (event.kind === "access" || event.kind === "other") continue;
    for (const path of event.paths) pending.add(relative(ROOT, path).replaceAll("\\", "/"));
    clearTimeout(timer);
    timer = setTimeout(() => {
      const batch = [...pending];
      pending = new Set();
      work = work.then(() => apply(batch)).catch((err) => log(`error: ${err}`));
    }, 100);
  }
}

if (import.meta.main) await main();
