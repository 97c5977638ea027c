import type { Context, MiddlewareHandler } from "hono";
import { getConnInfo } from "hono/deno";
import { canonicalIp, type IpRanges } from "../net/ip_ranges.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** Who is calling, for per-client limits (see clientAddress). */
    clientAddress: string;
  }
}

/**
 * Works out the client once per request (DESIGN.md §8 "Clients"): the connection's address, or,
 * only for connections from one of `trusted` (our own reverse proxies), the right-most
 * X-Forwarded-For address that is not itself a trusted proxy. Anyone else's forwarded headers are
 * ignored, since anyone can send them.
 */
export function clientAddress(trusted: IpRanges): MiddlewareHandler {
  return async function withClientAddress(c, next) {
    // Headers.get joins repeated X-Forwarded-For headers with ", ", so every hop is in one list.
    c.set(
      "clientAddress",
      resolveClient(connectionAddress(c), c.req.header("X-Forwarded-For"), trusted),
    );
    await next();
  };
}

/** Who is calling, for rate limits: what clientAddress worked out, or the connection's address. */
export function clientKey(c: Context): string {
  return c.get("clientAddress") ?? connectionAddress(c);
}

/**
 * The client of a connection from `connection` that sent `forwarded` as X-Forwarded-For. Each
 * proxy appends the address it was connected from, so reading from the right, every entry up to
 * the first untrusted one was written by a hop we trust; entries further left are whatever the
 * client sent and worth nothing.
 */
export function resolveClient(
  connection: string,
  forwarded: string | undefined,
  trusted: IpRanges,
): string {
  if (forwarded === undefined || !trusted.contains(connection)) return connection;
  const hops = forwarded.split(",");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = canonicalIp(hops[i].trim());
    // The entry right of the last trusted hop was written by our own proxy: if it is not an
    // address, the proxy is misbehaving (or passing a client's text through), and a string an
    // attacker may have chosen must never become a rate-limit key. The proxy's address is safe.
    if (hop === null) return connection;
    if (!trusted.contains(hop)) return hop;
  }
  // Every hop is one of ours (say a health check from the proxy itself).
  return connection;
}

/** The connection's remote address, one spelling per address (IPv4-mapped IPv6 as IPv4). */
function connectionAddress(c: Context): string {
  let address: string;
  try {
    address = getConnInfo(c).remote.address ?? "unknown";
  } catch {
    // app.request() in tests has no connection.
    return "local";
  }
  return canonicalIp(address) ?? address;
}
