import { Hono } from "hono";
import type { AppDeps } from "../deps.ts";
import { checkReadiness } from "../ops/readiness.ts";

/**
 * Liveness (`GET /api/health`): the process answers. Touches no storage, so a slow or lost store
 * never makes an orchestrator restart a process that would not help; also the benchmark's
 * framework ceiling.
 */
export function healthRoutes(deps: AppDeps): Hono {
  const started = deps.clock.now();
  return new Hono().get(
    "/",
    (c) => c.json({ ok: true, uptimeSeconds: Math.round((deps.clock.now() - started) / 1000) }),
  );
}

/**
 * Readiness (`GET /api/ready`): 200 when the store, the job runner and the built client all
 * answer, else 503 with each check and a sentence; a load balancer sends no shopper here until it
 * is 200.
 */
export function readyRoutes(deps: AppDeps): Hono {
  return new Hono().get("/", async (c) => {
    const readiness = await checkReadiness(deps);
    return c.json(readiness, readiness.ready ? 200 : 503);
  });
}
