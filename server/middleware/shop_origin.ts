import type { Context, MiddlewareHandler } from "hono";
import type { Config } from "../deps.ts";
import { InvalidInput } from "../errors.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** The shop's own origin, for absolute links and the cross-site check. */
    shopOrigin: string;
  }
}

/**
 * Works out the shop's own origin once per request. With PUBLIC_URL (required in production)
 * that is PUBLIC_URL, whatever Host a request names. Without it (development), the request's
 * origin is used only when its Host is a name this server listens on; any other Host is refused,
 * so a forged Host can never reach a link in an email, the sitemap or a payment return URL (and a
 * DNS-rebinding page cannot talk to a development server).
 */
export function shopOrigin(config: Config): MiddlewareHandler {
  const fixed = config.publicUrl ? new URL(config.publicUrl).origin : null;
  const names = fixed ? new Set<string>() : listenNames(config.host);
  return async function withShopOrigin(c, next) {
    if (fixed) {
      c.set("shopOrigin", fixed);
      return await next();
    }
    const url = new URL(c.req.url);
    const hostname = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    if (!names.has(hostname)) {
      throw new InvalidInput(
        `This server does not answer to the host ${
          JSON.stringify(url.host.slice(0, 100))
        }. Use localhost or the address it listens on, or set PUBLIC_URL.`,
      );
    }
    c.set("shopOrigin", url.origin);
    await next();
  };
}

/** The shop's own origin (see shopOrigin). */
export function originOf(c: Context): string {
  return c.get("shopOrigin") ?? new URL(c.req.url).origin;
}

const LOOPBACK = ["localhost", "127.0.0.1", "::1"];
const WILDCARD = ["0.0.0.0", "::"];

/** The host names a server listening on `host` answers to. */
function listenNames(host: string): Set<string> {
  const names = new Set([...LOOPBACK, host.toLowerCase()]);
  if (WILDCARD.includes(host)) {
    // Listening everywhere: this machine's own addresses, as other devices on the network use.
    try {
      for (const i of Deno.networkInterfaces()) names.add(i.address.toLowerCase());
    } catch { /* without --allow-sys: loopback only */ }
  }
  return names;
}
