/**
 * The app served on a real socket (127.0.0.1, a free port), and callers at distinct loopback
 * addresses (127.0.0.0/8 is all loopback on Linux), so limits see real connection addresses as
 * they do in production. Each address gets one HTTP client, closed when the server is.
 */
import type { Hono } from "hono";

/** A request from one loopback address. */
export interface LoopbackRequest {
  /** The caller's own address, e.g. "127.0.0.5". */
  from: string;
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** What a test reads of an answer. */
export interface LoopbackAnswer {
  status: number;
  headers: Headers;
  /** The body as text (for failure messages and pages). */
  text: string;
  // deno-lint-ignore no-explicit-any
  json: any;
}

/** Serves `app` on 127.0.0.1 at a free port until disposed. */
export function serveOnLoopback(app: Hono) {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => app.fetch(req, info),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const clients = new Map<string, Deno.HttpClient>();

  function clientAt(address: string): Deno.HttpClient {
    let client = clients.get(address);
    if (!client) {
      client = Deno.createHttpClient({ localAddress: address });
      clients.set(address, client);
    }
    return client;
  }

  /** Sends a request from `init.from`; objects are sent as JSON. */
  async function request(path: string, init: LoopbackRequest): Promise<LoopbackAnswer> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers["Content-Type"] ??= "application/json";
    // Typed apart from the call: the DOM lib's fetch overload has no `client` for a literal to name.
    const request: RequestInit & { client?: Deno.HttpClient } = {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      client: clientAt(init.from),
    };
    const res = await fetch(`${origin}${path}`, request);
    const text = await res.text();
    let json: unknown = undefined;
    try {
      json = JSON.parse(text);
    } catch { /* not JSON */ }
    return { status: res.status, headers: res.headers, text, json };
  }

  return {
    origin,
    request,
    async [Symbol.asyncDispose]() {
      for (const client of clients.values()) client.close();
      await server.shutdown();
    },
  };
}

/** Loopback address number `n` (1-based) of block `block`: 127.0.block.n. */
export function loopback(block: number, n: number): string {
  return `127.0.${block}.${n}`;
}

/** How many answers had each status, e.g. { 401: 5, 429: 45 }. */
export function tally(answers: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}
