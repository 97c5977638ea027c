import type { Context, Hono } from "hono";
import { refusal } from "../../shared/page_data_wire.ts";
import type { ApiGet } from "./page_server.ts";

/**
 * How rendered pages read the shop's API: in-process through `app` itself, as the request's own
 * client (same address, so the same limits), under the page's request id (so the log ties each
 * read to the page view it served). Exactly the answers the browser would otherwise fetch after
 * loading. A refusal (4xx) comes back as a Refusal for the page to show; anything else that
 * fails as undefined, which the browser then asks for again.
 */
export function apiReader(app: Hono): ApiGet {
  return async (path: string, c: Context) => {
    // Under `deno task dev` the page server runs as an app of its own, whose context has no id:
    // the request then carries it (server/dev_reload.ts); never the text "undefined".
    const id: string | undefined = c.get("requestId") ?? c.req.header("X-Request-Id");
    const headers = new Headers({ Accept: "application/json" });
    if (id) headers.set("X-Request-Id", id);
    const forwarded = c.req.header("X-Forwarded-For");
    if (forwarded) headers.set("X-Forwarded-For", forwarded);
    const res = await app.fetch(new Request(new URL(path, c.req.url), { headers }), c.env);
    if (res.ok) return await res.json();
    if (res.status >= 400 && res.status < 500) {
      const body = await res.json().catch(() => null);
      const error = typeof body?.error === "string"
        ? body.error
        : `HTTP error status ${res.status}`;
      return refusal(res.status, error);
    }
    await res.body?.cancel();
    return undefined;
  };
}
