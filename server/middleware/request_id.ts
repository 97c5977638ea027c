import type { MiddlewareHandler } from "hono";
import { requestId } from "hono/request-id";

/**
 * Gives every request an id (the caller's X-Request-Id when it is a sane one, else a new UUID) and
 * every answer the X-Request-Id header naming it, so a shopper's report matches its log line.
 * Hono's own middleware sets the header only on answers built through the context: answers made
 * elsewhere (the kept catalogue, the page server, the dev server's rebuilt client) came back
 * without it.
 */
export function requestIdOnEveryAnswer(): MiddlewareHandler {
  const assign = requestId();
  return async function withId(c, next) {
    await assign(c, next);
    const id = c.get("requestId");
    if (id && !c.res.headers.has("X-Request-Id")) c.header("X-Request-Id", id);
  };
}
