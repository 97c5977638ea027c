/**
 * Domain errors: what went wrong, in a sentence for the person reading it, and which kind of
 * failure it is. The domain never speaks HTTP; the one error handler
 * (`middleware/error_handler.ts`) maps each kind to a status.
 */
export type ErrorKind =
  | "invalid"
  | "unauthorized"
  | "forbidden"
  | "declined"
  | "not_found"
  | "conflict"
  | "too_large"
  | "unsupported_type"
  | "limited"
  | "unavailable";

/** A failure the shop expects and explains; `extra` fields join the JSON body. */
export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Extra fields for the answer, e.g. `insufficientStock`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The input itself is wrong. */
export class InvalidInput extends DomainError {
  constructor(message: string, extra?: Record<string, unknown>) {
    super("invalid", message, extra);
  }
}

/** Credentials are missing or wrong. */
export class Unauthorized extends DomainError {
  constructor(message = "Authentication required") {
    super("unauthorized", message);
  }
}

/**
 * The caller is known but its role may not do this (a staff member editing prices, an API key of
 * the staff role listing staff): 403, never 401, so a script does not retry its credentials.
 */
export class Forbidden extends DomainError {
  constructor(message: string) {
    super("forbidden", message);
  }
}

/** A payment was refused (a declined or invalid card). */
export class PaymentDeclined extends DomainError {
  constructor(message: string) {
    super("declined", message);
  }
}

/** The thing asked for does not exist. */
export class NotFound extends DomainError {
  constructor(message: string) {
    super("not_found", message);
  }
}

/** The request conflicts with the current state (stock, order status). */
export class Conflict extends DomainError {
  constructor(message: string, extra?: Record<string, unknown>) {
    super("conflict", message, extra);
  }
}

/**
 * A per-client limit was reached; the client should wait (`retryAfterSeconds`, sent as
 * Retry-After) or finish what it started. `bucket` names the limit, for the refusals counter.
 */
export class LimitReached extends DomainError {
  constructor(
    message = "Too many attempts. Please wait a minute and try again.",
    readonly retryAfterSeconds?: number,
    readonly bucket?: string,
  ) {
    super("limited", message);
  }
}

/**
 * Something the shop depends on (storage under contention, the payment service, the password
 * hashing capacity) failed or is full; `retryAfterSeconds` says when to try again.
 */
export class Unavailable extends DomainError {
  constructor(message: string, readonly retryAfterSeconds?: number) {
    super("unavailable", message);
  }
}

/** A configuration problem that should stop the server with one readable line. */
export class ConfigError extends Error {}
