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
 * Works out the shop's own origin once per request. A Host that is not a plain `name[:port]` is
 * refused first, in every mode: Deno builds the request's URL from it, so a space would make that
 * URL unparseable (a 500 wherever it is read) and a slash or an `@` would move the path or hide a
 * user name in it. With PUBLIC_URL (required in production) the origin is PUBLIC_URL, whatever Host
 * a request names. Without it (development), the request's origin is used only when its Host is a
 * name AND the port this server listens on; any other Host is refused, so a forged Host can never
 * reach a link in an email, the sitemap or a payment return URL (and a DNS-rebinding page cannot
 * talk to a development server).
 */
export function shopOrigin(config: Config, listenPort?: number): MiddlewareHandler {
  const fixed = config.publicUrl ? new URL(config.publicUrl).origin : null;
  const names = fixed ? new Set<string>() : listenNames(config.host);
  // main.ts binds first and builds the app with the port it got; only an app never served on a
  // port of its own (tests calling it directly) has none, and answers to any port of its names.
  const port = listenPort === undefined ? null : String(listenPort);
  return async function withShopOrigin(c, next) {
    const authority = c.req.header("host") ?? authorityOf(c.req.url);
    if (!isPlainAuthority(authority)) {
      throw new InvalidInput(
        `The Host header ${
          JSON.stringify(authority.slice(0, 100))
        } is not a host name with an optional port.`,
      );
    }
    if (fixed) {
      c.set("shopOrigin", fixed);
      return await next();
    }
    const url = new URL(c.req.url);
    const hostname = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    const urlPort = url.port || (url.protocol === "https:" ? "443" : "80");
    if (!names.has(hostname) || (port !== null && urlPort !== port)) {
      throw new InvalidInput(
        `This server does not answer to the host ${
          JSON.stringify(url.host.slice(0, 100))
        }. Use localhost or the address and port it listens on, or set PUBLIC_URL.`,
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

/** A host name, an IPv4 address or a bracketed IPv6 address, then an optional port. */
const PLAIN_AUTHORITY = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/** True when `authority` is `host[:port]` and nothing else, with a port a server can have. */
function isPlainAuthority(authority: string): boolean {
  const match = PLAIN_AUTHORITY.exec(authority);
  if (!match || (match[1] !== undefined && Number(match[1]) > 65535)) return false;
  return URL.canParse(`http://${authority}/`);
}

/** The `host[:port]` of a URL string, read without parsing it (it may not parse). */
function authorityOf(url: string): string {
  const start = url.indexOf("//") + 2;
  const end = url.slice(start).search(/[/?#]/);
  return end < 0 ? url.slice(start) : url.slice(start, start + end);
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
