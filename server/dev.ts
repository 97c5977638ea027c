import { watchClient } from "../client/build.ts";

/**
 * Development loop: esbuild rebuilds the client on every change under client/ and shared/, and
 * the server process restarts after each client build (it reads the built files at start) and on
 * every change under server/ and shared/.
 */
let child: Deno.ChildProcess | null = null;
let chain = Promise.resolve();

async function restartServer(): Promise<void> {
  if (child) {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
  }
  child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "server/main.ts"],
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
}

function scheduleRestart(): void {
  chain = chain.then(restartServer, restartServer);
}

await watchClient(scheduleRestart);

// Saving a file fires several events; restart once they settle.
let timer: ReturnType<typeof setTimeout> | undefined;
for await (const event of Deno.watchFs(["server", "shared"])) {
  if (!event.paths.some((p) => /\.(ts|tsx)$/.test(p))) continue;
  clearTimeout(timer);
  timer = setTimeout(scheduleRestart, 200);
}
