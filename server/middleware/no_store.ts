import type { MiddlewareHandler } from "hono";

/**
 * `Cache-Control: no-store` on every API answer that does not choose its own caching: orders,
 * carts, accounts, tokens, admin and payment answers carry personal data, and a shared or browser
 * cache must not keep them. The public catalogue sets its own (`no-cache` with an ETag).
 */
export function noStoreByDefault(): MiddlewareHandler {
  return async function noStore(c, next) {
    await next();
    if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
  };
}
