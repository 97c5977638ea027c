import type { MiddlewareHandler } from "hono";
import type { Clock, Logger } from "../deps.ts";

/** Logs one structured line per API request: method, path, status, duration and request id. */
export function requestLog(logger: Logger, clock: Clock): MiddlewareHandler {
  return async function log(c, next) {
    const started = clock.now();
    await next();
    logger({
      msg: "request",
      requestId: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: clock.now() - started,
    });
  };
}
