import type { MiddlewareHandler } from "hono";
import { DomainError } from "../errors.ts";
import { originOf } from "./shop_origin.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses writes another site makes a browser send (CSRF): an unsafe method whose `Origin` is not
 * the shop's own, or whose `Sec-Fetch-Site` says it came from another site, sibling subdomains
 * included (SameSite cookies count those as the same site). Clients that send neither header
 * (scripts, curl) are not browsers acting for someone else. Provider webhooks are exempt: they
 * come from the provider's servers and are verified by their signatures instead.
 */
export function sameOriginWrites(): MiddlewareHandler {
  return async function refuseCrossSite(c, next) {
    if (SAFE_METHODS.has(c.req.method) || c.req.path.startsWith("/api/webhooks/")) {
      return await next();
    }
    const site = c.req.header("Sec-Fetch-Site");
    const origin = c.req.header("Origin");
    if (site === "cross-site" || site === "same-site" || (origin && origin !== originOf(c))) {
      throw new DomainError(
        "forbidden",
        "This request came from another website and was refused. Please use the shop's own pages.",
      );
    }
    await next();
  };
}
