import type { MiddlewareHandler } from "hono";
import { InvalidInput, Unavailable } from "../errors.ts";
import { guardedBody } from "../http/guarded_body.ts";
import type { ShutdownGate } from "../http/shutdown_gate.ts";

/** What a client is told while the shop stops: a restart is seconds, so come back soon. */
export const RESTARTING = "The shop is restarting; try again in a moment.";
export const RESTART_RETRY_SECONDS = 5;
/** A body that broke off with the shop running: the client's connection was lost mid-upload. */
export const CUT_OFF = "The request body was cut off before its end. Please send it again.";

/**
 * The requests' side of a graceful stop: once `gate` says the shop is stopping, a request is
 * answered 503 with Retry-After before anything of it is read or written; a request with a body
 * is counted by the gate until its answer, so the stop waits for an upload under way; and a body
 * that breaks off is answered 503 (the stop cut it) or 400 (the client's connection did), never
 * a 500. Without a gate (an app that is never stopped, as in tests) only the last applies.
 */
export function whileStopping(gate: ShutdownGate | undefined): MiddlewareHandler {
  return async function turnAwayWhileStopping(c, next) {
    if (gate?.stopping()) throw new Unavailable(RESTARTING, RESTART_RETRY_SECONDS);
    const body = c.req.raw.body;
    if (!body) return await next();
    c.req.raw = new Request(c.req.raw, {
      body: guardedBody(
        body,
        () =>
          gate?.stopping()
            ? new Unavailable(RESTARTING, RESTART_RETRY_SECONDS)
            : new InvalidInput(CUT_OFF),
      ),
    });
    if (!gate) return await next();
    await gate.track(next());
  };
}
