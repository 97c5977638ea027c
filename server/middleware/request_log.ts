import type { MiddlewareHandler } from "hono";
import type { Logger } from "../log.ts";
import type { Clock } from "../clock.ts";

/**
 * Logs one structured line per request (pages, assets and images as well as the API): method,
 * path, status, duration and request id. A page's own API reads are requests of their own, logged
 * under the page's id.
 * `enabled` is config.logRequests (LOG_REQUESTS=0 turns the lines off).
 */
export function requestLog(logger: Logger, clock: Clock, enabled: boolean): MiddlewareHandler {
  return async function log(c, next) {
    // Off under load tests: a line per request to a piped stdout costs more than the request.
    if (!enabled) return await next();
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
