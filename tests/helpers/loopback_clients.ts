/**
 * A test app served on 127.0.0.1 (port 0) and reached from distinct loopback addresses, so each
 * simulated client is a real connection from its own address, as the limits see clients.
 */
import type { TestApp } from "./test_app.ts";

/** A served app and a way to send from `127.0.0.N`. */
export interface LoopbackShop extends AsyncDisposable {
  origin: string;
  /** Sends from 127.0.0.`n`: JSON bodies as JSON; answers status and parsed JSON (or text). */
  send(
    n: number,
    path: string,
    init?: { method?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{
    status: number;
    headers: Headers;
    text: string;
    // deno-lint-ignore no-explicit-any
    json: any;
  }>;
}

/** Serves `t.app` on loopback until disposed. */
export function serveOnLoopback(t: Pick<TestApp, "app">): LoopbackShop {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req, info) => t.app.fetch(req, info),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const clients = new Map<number, Deno.HttpClient>();
  function clientOf(n: number): Deno.HttpClient {
    if (n < 2 || n > 254) throw new Error(`127.0.0.${n} is not a client address`);
    let client = clients.get(n);
    if (!client) {
      client = Deno.createHttpClient({ localAddress: `127.0.0.${n}` });
      clients.set(n, client);
    }
    return client;
  }
  return {
    origin,
    async send(n, path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.body !== undefined) headers["Content-Type"] ??= "application/json";
      // The client option is Deno's own; the DOM lib's RequestInit does not name it.
      const request: RequestInit & { client: Deno.HttpClient } = {
        method: init.method ?? "GET",
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        client: clientOf(n),
      };
      const res = await fetch(`${origin}${path}`, request);
      const text = await res.text();
      let json: unknown = undefined;
      try {
        json = JSON.parse(text);
      } catch { /* not JSON */ }
      return { status: res.status, headers: res.headers, text, json };
    },
    async [Symbol.asyncDispose]() {
      for (const client of clients.values()) client.close();
      await server.shutdown();
    },
  };
}
