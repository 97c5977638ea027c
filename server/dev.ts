import { watchClient } from "../client/build.ts";

/**
 * Development loop: esbuild rebuilds the client on change, and the server restarts after every
 * client build (it reads the built files at start) and, through --watch, on every server change.
 */
let child: Deno.ChildProcess | null = null;

async function restartServer(): Promise<void> {
  if (child) {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
  }
  child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--watch=server/,shared/", "server/main.ts"],
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
}

let pending = Promise.resolve();
await watchClient(() => {
  pending = pending.then(restartServer);
});
console.log("Watching client/, server/ and shared/ for changes");
