/** The one fetch wrapper of the client: JSON in, JSON out, `{ error }` bodies become ApiError. */
import { useStore } from "./store/store.ts";

/** An API call that failed, with the server's message when it gave one. */
export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly body: unknown) {
    super(message);
  }
}

/** Options of one call. */
export interface ApiOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  body?: unknown;
  query?: Record<string, string | number | null | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Calls the shop's API and returns the parsed JSON body. */
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
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? "GET",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw new ApiError(0, "Cannot reach the shop. Check your connection and try again.", null);
  }
  const text = await response.text();
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
 * Paths that learn who the shopper is (SPEC.md section 6): cart adds and order creation link the
 * cart or order to the account, and /auth/* needs the session. Nothing else gets the token.
 */
const USER_PATHS = ["/api/cart/add", "/api/orders/create", "/auth/"];

/** `Authorization: Bearer <token>` for a signed-in shopper on USER_PATHS; an explicit header wins. */
function userAuthorization(path: string): Record<string, string> {
  const token = useStore.getState().token;
  return token && USER_PATHS.some((prefix) => path.startsWith(prefix))
    ? { Authorization: `Bearer ${token}` }
    : {};
}

/** The message of any error, for a toast or an inline message. */
export function errorMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.status !== 500 ? err.message : fallback;
}
