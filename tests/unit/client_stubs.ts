/**
 * Stand-ins for what client modules expect of a browser (a page origin and fetch), for unit tests
 * run by Deno without one. Each stub is undone by the function it returns.
 */

/** One request the client made, as the stubbed fetch saw it. */
export interface SeenRequest {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

/** Gives `location` a page origin (Deno has none without --location). */
export function stubLocation(origin = "http://shop.test"): () => void {
  const before = Object.getOwnPropertyDescriptor(globalThis, "location");
  Object.defineProperty(globalThis, "location", {
    value: new URL(`${origin}/`),
    configurable: true,
    writable: true,
  });
  return () => {
    if (before) Object.defineProperty(globalThis, "location", before);
    else delete (globalThis as { location?: unknown }).location;
  };
}

/**
 * Replaces fetch with `answer`, recording every request; `answer` returns the Response (or
 * throws, as fetch does offline).
 */
export function stubFetch(
  answer: (request: SeenRequest) => Response | Promise<Response>,
): { requests: SeenRequest[]; restore: () => void } {
  const original = globalThis.fetch;
  const requests: SeenRequest[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const text = typeof init?.body === "string" ? init.body : null;
    const seen: SeenRequest = {
      url: String(input instanceof Request ? input.url : input),
      method: init?.method ?? "GET",
      headers: new Headers(init?.headers),
      body: text === null ? null : JSON.parse(text),
    };
    requests.push(seen);
    return await answer(seen);
  };
  return { requests, restore: () => (globalThis.fetch = original) };
}

/** A JSON response. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}
