/**
 * The one fetch wrapper of the client: JSON (or a file's bytes) in, JSON out (or text or a file
 * when asked), and `{ error }` bodies become ApiError.
 */
import { useStore } from "./store/store.ts";

/** An API call that failed, with the server's message when it gave one. */
export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly body: unknown) {
    super(message);
  }
}

/** Options of one call. */
export interface ApiOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON; a Blob (a chosen File) is sent as its raw bytes, typed as the file is. */
  body?: unknown;
  query?: Record<string, string | number | null | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * How to read a successful answer: parsed JSON (the default), text or a file. Failures are
   * read the same way whatever this says, since the server words them as `{ error }` JSON.
   */
  as?: "json" | "text" | "blob";
  /** Sees a successful answer's headers (a page's next cursor, for one). */
  onHeaders?: (headers: Headers) => void;
}

/** Calls the shop's API and returns the parsed JSON body (or text or a Blob, see `as`). */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const url = new URL(path, location.origin);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== null && value !== undefined) url.searchParams.set(key, String(value));
  }
  const headers: Record<string, string> = {
    Accept: "application/json",
    ...userAuthorization(path),
    ...options.headers,
  };
  const raw = options.body instanceof Blob ? options.body : null;
  if (options.body !== undefined) {
    headers["Content-Type"] = raw ? raw.type || "application/octet-stream" : "application/json";
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? "GET",
      headers,
      body: raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw new ApiError(0, "Cannot reach the shop. Check your connection and try again.", null);
  }
  if (response.ok) options.onHeaders?.(response.headers);
  if (response.ok && options.as === "blob") return await response.blob() as T;
  const text = await response.text();
  if (response.ok && options.as === "text") return text as T;
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!response.ok) {
    const message = typeof body === "object" && body !== null && "error" in body
      ? String((body as { error: unknown }).error)
      : `HTTP error status ${response.status}`;
    throw new ApiError(response.status, message, body);
  }
  return body as T;
}

/**
 * Paths that learn who the shopper is (docs/product.md#roles): cart adds and order creation link
 * the cart or order to the account, a back-in-stock sign-up for the account's own address needs
 * no confirmation, and /auth/* needs the session. Nothing else gets the token.
 */
const USER_PATHS = ["/api/cart/add", "/api/orders/create", "/api/stock-alerts", "/auth/"];

/** `Authorization: Bearer <token>` for a signed-in shopper on USER_PATHS; an explicit header wins. */
function userAuthorization(path: string): Record<string, string> {
  const token = useStore.getState().token;
  return token && USER_PATHS.some((prefix) => path.startsWith(prefix))
    ? { Authorization: `Bearer ${token}` }
    : {};
}

/**
 * A request the server refused (4xx): its message is written for the shopper (out of stock, a
 * limit, a bad code). Anything else (offline, 5xx) says nothing the shopper can act on.
 */
export function isRefusal(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status >= 400 && err.status < 500;
}

/** The server's own words for a refused request (4xx), else the fallback. */
export function errorMessage(err: unknown, fallback: string): string {
  return isRefusal(err) ? err.message : fallback;
}
