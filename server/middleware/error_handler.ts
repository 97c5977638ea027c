import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DomainError, type ErrorKind, LimitReached, Unavailable } from "../errors.ts";
import type { Logger } from "../log.ts";
import { count } from "../telemetry.ts";

/** The one place where the domain's kinds of failure become HTTP statuses. */
const STATUS_OF: Record<ErrorKind, ContentfulStatusCode> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  declined: 402,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_type: 415,
  limited: 429,
  unavailable: 503,
};

/**
 * Maps every thrown error to a JSON `{ error }` body. Domain errors keep their message and get
 * the status of their kind; anything else is logged with the request id and answered 500
 * without internals.
 */
export function createErrorHandler(logger: Logger) {
  return function onError(err: Error, c: Context): Response {
    if (err instanceof DomainError) {
      if (err instanceof LimitReached) {
        count("limitRefusals", { "shop.limit.bucket": err.bucket ?? "unnamed" });
      }
      if ((err instanceof LimitReached || err instanceof Unavailable) && err.retryAfterSeconds) {
        c.header("Retry-After", String(Math.max(1, Math.ceil(err.retryAfterSeconds))));
      }
      return c.json({ error: err.message, ...err.extra }, STATUS_OF[err.kind]);
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
