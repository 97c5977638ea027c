import type { Context, MiddlewareHandler } from "hono";
import { getConnInfo } from "hono/deno";
import { canonicalIp, type IpRanges } from "../net/ip_ranges.ts";
import { clientBlock, clientNetwork } from "../net/client_network.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** The caller's own address (see clientAddress), for logs. */
    clientAddress: string;
    /** Who is calling, for per-client limits: the address's network (see clientNetwork). */
    clientKey: string;
    /** The block the caller's network is in, for limits on a whole network (see clientBlock). */
    clientBlock: string;
  }
}

/** IPv6 networks as one client when no middleware said otherwise (the configuration's default). */
const DEFAULT_IPV6_PREFIX = 64;

/**
 * Works out the client once per request: the connection's address, or, only for connections
 * from one of `trusted` (our own reverse proxies), the right-most X-Forwarded-For address that is
 * not itself a trusted proxy. Anyone else's forwarded headers are ignored, since anyone can send
 * them. Every limit then counts the address's network (IPv6 by its `ipv6Prefix`), worked out here
 * once so that no limit can forget it.
 */
export function clientAddress(
  trusted: IpRanges,
  ipv6Prefix = DEFAULT_IPV6_PREFIX,
): MiddlewareHandler {
  return async function withClientAddress(c, next) {
    // Headers.get joins repeated X-Forwarded-For headers with ", ", so every hop is in one list.
    const address = resolveClient(connectionAddress(c), c.req.header("X-Forwarded-For"), trusted);
    c.set("clientAddress", address);
    c.set("clientKey", clientNetwork(address, ipv6Prefix));
    c.set("clientBlock", clientBlock(address, ipv6Prefix));
    await next();
  };
}

/** Who is calling, for rate limits: the network clientAddress worked out. */
export function clientKey(c: Context): string {
  return c.get("clientKey") ?? clientNetwork(connectionAddress(c), DEFAULT_IPV6_PREFIX);
}

/** The block of networks the caller is in, for limits on what a whole network may try. */
export function clientBlockOf(c: Context): string {
  return c.get("clientBlock") ?? clientBlock(connectionAddress(c), DEFAULT_IPV6_PREFIX);
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
