import type { Context } from "hono";
import { getConnInfo } from "hono/deno";

/**
 * Who is calling, for rate limits: the connection's remote address. Forwarded headers are not
 * trusted (anyone can send them); behind a proxy the proxy's address is what limits apply to.
 */
export function clientKey(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    // app.request() in tests has no connection.
    return "local";
  }
}
