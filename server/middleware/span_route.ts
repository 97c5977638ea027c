/**
 * Names each request's span by the route that answered it (Deno names it "GET" or "POST" alone),
 * so an operator can find a checkout's or a webhook's traces. A no-op without OpenTelemetry.
 */
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { nameRequestSpan } from "../telemetry.ts";

export function spanRoute(): MiddlewareHandler {
  return async function nameBySpanRoute(c, next) {
    await next();
    // After the chain ran, the route index is the handler's that gave the answer.
    const route = routePath(c);
    if (route) nameRequestSpan(c.req.method, route);
  };
}
