/**
 * Pages render with the React build of the client they serve: production for the shop, the
 * development build only in the dev loop. Each case runs in a process of its own, since React
 * chooses its build once per process, from the environment every thread shares.
 */
import assert from "node:assert/strict";
import { builtClient } from "../helpers/shop_process.ts";

const ROOT = new URL("../../", import.meta.url);

/**
 * Runs `body` in a fresh Deno process (with the repo's import map), after which the process loads
 * React and prints which build it got: React's `act`, its test helper, is in its development build
 * only (either way round being false fails a case below, so a React that changes it is noticed).
 */
async function buildAfter(body: string, env: Record<string, string> = {}): Promise<string> {
  const code = `${body}
    const React = await import("react");
    console.log("react:" + (typeof React.act === "function" ? "development" : "production"));
    Deno.exit(0);`;
  // This process's environment without NODE_ENV, which a page server started by another test in
  // this process may have set.
  const { NODE_ENV: _, ...inherited } = Deno.env.toObject();
  const { code: status, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", "--node-modules-dir=manual", code],
    cwd: ROOT,
    env: { ...inherited, ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(stdout);
  assert.equal(status, 0, new TextDecoder().decode(stderr));
  return out.match(/react:(\w+)/)?.[1] ?? out;
}

const reactBuild = new URL("server/ssr/react_build.ts", ROOT).href;
const pageServer = new URL("server/ssr/page_server.ts", ROOT).href;
const devReload = new URL("server/dev_reload.ts", ROOT).href;

Deno.test("React left to itself under Deno loads its development build (what the fix is for)", async () => {
  assert.equal(await buildAfter(""), "development");
});

Deno.test("chooseReactBuild sets the build React loads, and an operator's NODE_ENV wins", async () => {
  const choose = (build: string) =>
    `const { chooseReactBuild } = await import("${reactBuild}"); chooseReactBuild("${build}");`;
  assert.equal(await buildAfter(choose("production")), "production");
  assert.equal(await buildAfter(choose("development")), "development");
  assert.equal(
    await buildAfter(choose("production"), { NODE_ENV: "development" }),
    "development",
  );
});

Deno.test("the shop's page server renders with production React, the dev loop's with development", async () => {
  const dist = await builtClient();
  const shop = `const { staticRoutes } = await import("${pageServer}");
    staticRoutes(${JSON.stringify(dist)}, "/images");`;
  assert.equal(await buildAfter(shop), "production");
  const dev = `const { devStaticRoutes } = await import("${devReload}");
    devStaticRoutes(${JSON.stringify(dist)}, "/images", () => Promise.resolve(undefined), {
      closeOnSignals: false,
    });`;
  assert.equal(await buildAfter(dev), "development");
});
