import { Hono } from "hono";
import type { AppDeps } from "../deps.ts";

/** Liveness for load balancers and the benchmark's framework ceiling: no storage touched. */
export function healthRoutes(deps: AppDeps): Hono {
  const started = deps.clock.now();
  return new Hono().get(
    "/",
    (c) => c.json({ ok: true, uptimeSeconds: Math.round((deps.clock.now() - started) / 1000) }),
  );
}
