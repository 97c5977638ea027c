/**
 * The health check a container or a service manager runs: asks the shop on this machine
 * (127.0.0.1, PORT or 8000) for `path` (default /api/health) and exits 0 on a 2xx answer within
 * 3 seconds, 1 otherwise, with one line saying why. Deno rather than curl, because the official
 * Deno images carry no curl or wget.
 *
 *   deno run --allow-net=127.0.0.1 --allow-env=PORT server/ops/health_probe.ts [path]
 */

/** How long the shop may take to answer before it counts as unhealthy. */
const TIMEOUT_MS = 3000;

async function main(args: string[]): Promise<void> {
  const port = Deno.env.get("PORT") || "8000";
  const path = args[0] ?? "/api/health";
  const url = `http://127.0.0.1:${port}${path.startsWith("/") ? path : `/${path}`}`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    await res.body?.cancel();
    if (res.ok) return;
    console.error(`unhealthy: ${url} answered ${res.status}`);
  } catch (err) {
    console.error(`unhealthy: ${url} did not answer (${(err as Error).message})`);
  }
  Deno.exit(1);
}

if (import.meta.main) await main(Deno.args);
