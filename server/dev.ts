import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevClientBuilder, devClientBuilder } from "../client/build.ts";
import { BUILD_ERRORS_FILE, DEV_RELOAD_ENV, DEV_RELOAD_SCRIPT } from "./dev_reload.ts";

/**
 * Development loop (`deno task dev`). One watcher over client/, server/ and shared/ sorts each
 * batch of saved files:
 * - client files (and shared/ files the client bundle reads) rebuild the client incrementally
 *   (unminified, source maps); the running server serves the new files and tells open pages to
 *   reload (server/dev_reload.ts). Styles and the page template leave the server running; the
 *   app's code restarts it too, since it renders the same components (server/ssr/): it is stopped
 *   once the build has succeeded, before the new files are written, and started after, so pages
 *   reload onto a server and a bundle of the same code. A build that fails writes only its errors
 *   (open pages show them) and keeps the running server, which renders the last good build.
 * - server files (and shared/ files the client does not read) restart the server process; pages
 *   reload once it is back. A server that fails to start is started again on the next save.
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
  /**
   * A file only the server reads changed, so the server restarts even when the client build
   * fails; otherwise a failed build keeps the running server.
   */
  restartIfBuildFails: boolean;
}

/** The work a batch of changed files (paths relative to the repository) calls for. */
export function planChanges(
  paths: Iterable<string>,
  clientInputs?: ReadonlySet<string>,
): ChangePlan {
  const plan = { rebuildClient: false, restartServer: false, restartIfBuildFails: false };
  for (const path of paths) {
    const kind = classifyChange(path, clientInputs);
    if (kind === "client" || kind === "both") plan.rebuildClient = true;
    if (kind === "server" || kind === "both") plan.restartServer = true;
    if (kind === "server") plan.restartIfBuildFails = true;
  }
  return plan;
}

function log(message: string): void {
  console.log(`[dev] ${message}`);
}

/**
 * The port every server this loop starts listens on. PORT=0 (any free port) is settled once
 * here: a restarted server on another port would leave the open pages unable to reconnect.
 */
function settlePort(env: Record<string, string>): Record<string, string> {
  if (env.PORT !== "0") return {};
  try {
    const listener = Deno.listen({ hostname: env.HOST || "127.0.0.1", port: 0 });
    const { port } = listener.addr as Deno.NetAddr;
    listener.close();
    return { PORT: String(port) };
  } catch {
    return {}; // a HOST it cannot listen on: the server says so in its one line
  }
}

/** Runs server/main.ts as a child process, restarting it on demand. */
class ServerProcess {
  #child: Deno.ChildProcess | null = null;
  #env: Record<string, string>;

  constructor(env: Record<string, string>) {
    // The dev loop's client is a development build, and its pages render with React's development
    // build to match (server/ssr/react_build.ts), whatever NODE_ENV the loop itself was started with
    // (a test process that has run a shop's page server carries NODE_ENV=production).
    this.#env = { [DEV_RELOAD_ENV]: "1", ...env, NODE_ENV: "development" };
  }

  get running(): boolean {
    return this.#child !== null;
  }

  start(): void {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(ROOT, "server/main.ts")],
      env: this.#env,
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    this.#child = child;
    child.status.then((status) => {
      if (this.#child === child) {
        this.#child = null;
        // Deno has printed why above (a module that does not load names its file and line).
        log(
          `the server stopped (exit code ${status.code}, the error is above); ` +
            "it starts again on the next save",
        );
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

async function rebuildClient(
  builder: DevClientBuilder,
  beforeWrite?: () => Promise<void>,
): Promise<Set<string> | null> {
  const result = await builder.rebuild(beforeWrite);
  if (!result) {
    log(
      "the client build failed (errors above, and over open pages); " +
        "the last good build stays in dist/",
    );
    return null;
  }
  log(`client built in ${Math.round(result.millis)} ms`);
  return new Set([...result.inputs].map((input) => relative(ROOT, input).replaceAll("\\", "/")));
}

async function main(): Promise<void> {
  const builder = await devClientBuilder({
    devScript: DEV_RELOAD_SCRIPT,
    errorsFile: BUILD_ERRORS_FILE,
  });
  let clientInputs = await rebuildClient(builder) ?? undefined;
  const server = new ServerProcess(settlePort(Deno.env.toObject()));
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
      ? "rebuilding the client, then restarting the server"
      : plan.rebuildClient
      ? "rebuilding the client"
      : "restarting the server";
    log(`${paths.join(", ")} changed: ${what}`);
    let restart = plan.restartServer;
    if (plan.rebuildClient) {
      // Both: the running server is stopped only once the build has succeeded, before its files
      // are written, so no page reloads onto the new bundle rendered by the old server's code
      // (a hydration mismatch), and pages reload once, onto both. A failed build keeps it.
      const built = await rebuildClient(builder, restart ? () => server.stop() : undefined);
      if (built) clientInputs = built;
      else {
        restart = plan.restartIfBuildFails;
        if (plan.restartServer && !restart) log("the server keeps running the last good code");
      }
    }
    if (restart) await server.stop();
    // A server that stopped (a file that did not load) is tried again on every save.
    if (restart || !server.running) server.start();
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
