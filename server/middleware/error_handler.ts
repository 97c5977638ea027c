import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { HttpError } from "../errors.ts";
import type { Logger } from "../deps.ts";

/**
 * Maps every thrown error to a JSON `{ error }` body. Known errors keep their status and message;
 * anything else is logged with the request id and answered 500 without internals.
 */
export function createErrorHandler(logger: Logger) {
  return function onError(err: Error, c: Context): Response {
    if (err instanceof HttpError) {
      return c.json({ error: err.message, ...err.extra }, err.status);
    }
    if (err instanceof HTTPException) {
      const status = err.status as ContentfulStatusCode;
      const message = status === 400 && /JSON/i.test(err.message)
        ? "The request body is not valid JSON"
        : err.message || "The request could not be processed";
      return c.json({ error: message }, status);
    }
    const requestId = c.get("requestId") as string | undefined;
    logger({
      msg: "unhandled error",
      level: "error",
      requestId,
      path: c.req.path,
      error: err?.stack ?? String(err),
    });
    return c.json(
      { error: "Something went wrong on our side. Please try again.", requestId },
      500,
    );
  };
}
