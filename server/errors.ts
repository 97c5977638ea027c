/** Errors that carry an HTTP status and a message meant for the person reading it. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502 | 503,
    message: string,
    /** Extra fields merged into the JSON body, e.g. `insufficientStock`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** 400: the request itself is wrong. */
export class BadRequest extends HttpError {
  constructor(message: string, extra?: Record<string, unknown>) {
    super(400, message, extra);
  }
}

/** 401: credentials are missing or wrong. */
export class Unauthorized extends HttpError {
  constructor(message = "Authentication required") {
    super(401, message);
  }
}

/** 404: the thing asked for does not exist. */
export class NotFound extends HttpError {
  constructor(message: string) {
    super(404, message);
  }
}

/** 409: the request conflicts with the current state (stock, order status). */
export class Conflict extends HttpError {
  constructor(message: string, extra?: Record<string, unknown>) {
    super(409, message, extra);
  }
}

/** 429: too many attempts; the client should wait. */
export class TooManyRequests extends HttpError {
  constructor(message = "Too many attempts. Please wait a minute and try again.") {
    super(429, message);
  }
}
