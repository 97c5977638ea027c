/**
 * The admin dashboard's calls (docs/product.md#admin-api). The admin session is an HttpOnly
 * cookie that same-origin fetch sends by itself, so no call carries the password after login.
 * A 401 from any call but the login means the session ended (unless the call `refusesWith401`
 * and the session still answers): the owner is told once, and the adminAuth flag is dropped so
 * the page falls back to the password form.
 */
import type {
  AdminEmailView,
  AdminOrderView,
  AdminSessionView,
  AdminVerifyAnswer,
  ApiKeyView,
  CreatedApiKeyView,
  InventoryView,
  MailHealthView,
  PickListView,
  SalesView,
  ShipChosenView,
  StockCounts,
  StockPlanning,
} from "../../../shared/api_types.ts";
import { toast } from "react-hot-toast";
import { api, ApiError, type ApiOptions } from "../../app/api.ts";
import { useStore } from "../../app/store/store.ts";
import { isReadyToShip } from "../../../shared/status.ts";
import {
  type AdminOrdersQuery,
  type AdminVerifyInput,
  type ApiKeyCreateInput,
  type SalesQuery,
  SHIP_AT_ONCE_MAX,
  type ShipChosenInput,
  type StockUpdateInput,
  stockUpdateSchema,
  type TrackingInput,
} from "../../../shared/schemas.ts";

/** What the dashboard says, once, when the server no longer knows its session. */
export const SESSION_ENDED = "Your admin session has ended. Please log in again.";

/**
 * Which session of this page the calls under way belong to. Logging out moves on to the next
 * before the server is asked, and so does a session found ended: a refusal (401) answering a call
 * of an earlier one was asked for (the owner logged out) or has been told already.
 */
let pageSession = 0;
/** Refusals that meant the session was gone: told here once, by no caller (reportAdminError). */
const sessionRefusals = new WeakSet<ApiError>();

/**
 * Ends the client-side session when the server says it is gone: the first refusal of the current
 * session, while the dashboard is open, tells the owner (one toast, whichever tab or form made the
 * call) and drops the admin flag, which closes it; later ones (a reload a caller starts after its
 * refusal), and any of an earlier session, say nothing more.
 */
function watchSession(err: unknown, callSession: number): never {
  if (err instanceof ApiError && err.status === 401) {
    sessionRefusals.add(err);
    if (callSession === pageSession && useStore.getState().adminAuth) {
      pageSession++;
      toast.error(SESSION_ENDED, { id: "admin-session-ended" });
      useStore.getState().setAdminAuth(false);
    }
  }
  throw err;
}

/** Whether `err` is a refusal of a session that was gone, which `adminApi` has told already. */
export function isSessionRefusal(err: unknown): boolean {
  return err instanceof ApiError && sessionRefusals.has(err);
}

/**
 * This page leaves its session on purpose (logging out, signing this device out): calls still
 * under way are refused once the server has ended it, which the owner asked for. Called before the
 * server is asked, since it ends the session before the page hears back.
 */
export function leaveAdminSession(): void {
  pageSession++;
}

/** Options of an admin call. */
export interface AdminApiOptions extends ApiOptions {
  /**
   * The call is refused with 401 for what it sends (a wrong code, an expired passkey request),
   * with the session still valid: such a refusal is the caller's to explain, not a session's end.
   */
  refusesWith401?: boolean;
}

/**
 * An admin call; a 401 ends the client-side session (the Catalogue tab's calls use it too), but
 * for a call that `refusesWith401` only once the session is found gone too.
 */
export async function adminApi<T>(path: string, options: AdminApiOptions = {}): Promise<T> {
  const callSession = pageSession;
  try {
    return await api<T>(path, options);
  } catch (err) {
    // A refusal of what was sent leaves a session that still answers; an unanswered check is
    // taken as the session still there (the next call will tell).
    const refusedWhatWasSent = options.refusesWith401 && err instanceof ApiError &&
      err.status === 401 && await hasAdminSession().catch(() => true);
    if (refusedWhatWasSent) throw err;
    return watchSession(err, callSession);
  }
}

/**
 * Says that an admin call failed, in a toast with `adminErrorMessage`'s words; a failure without
 * the server's own words for people (the fallback) goes to the console too, for whoever looks into
 * it. Nothing for a refusal of a session that was gone, which `adminApi` has told once already (or
 * which the owner asked for by logging out).
 */
export function reportAdminError(
  err: unknown,
  fallback: string,
  serverStatuses: readonly number[] = [],
): void {
  if (isSessionRefusal(err)) return;
  const message = adminErrorMessage(err, fallback, serverStatuses);
  if (message === fallback) console.error(err);
  toast.error(message);
}

/**
 * Checks a password: the owner's alone, or a staff member's with their email. The server answers
 * with the session cookie, or (`ok: false`) asks for a second factor first.
 */
export async function verifyPassword(password: string, email = ""): Promise<AdminVerifyAnswer> {
  const body: AdminVerifyInput = email.trim() ? { email, password } : { password };
  return await api<AdminVerifyAnswer>("/api/admin/verify", { method: "POST", body });
}

/** Ends the admin session on the server (the cookie is cleared). */
export async function logoutAdmin(): Promise<void> {
  leaveAdminSession();
  await api<{ ok: true }>("/api/admin/logout", { method: "POST" });
}

/** Whether the session cookie is still valid: true, false on 401, throws on other failures. */
export async function hasAdminSession(): Promise<boolean> {
  try {
    await api<{ ok: true }>("/api/admin/session");
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return false;
    throw err;
  }
}

/** The session's facts every admin page shows (whether payments are simulated). */
export function fetchAdminSession(): Promise<AdminSessionView> {
  return adminApi<AdminSessionView>("/api/admin/session");
}

/** What the Orders tab searches for. */
export type OrderFilters = Omit<AdminOrdersQuery, "limit" | "cursor">;

/** A page of orders, newest first, and the cursor of the next when there is one. */
export async function fetchOrders(
  filters: OrderFilters = {},
  cursor: string | null = null,
  limit = 50,
): Promise<{ orders: AdminOrderView[]; nextCursor: string | null }> {
  let nextCursor: string | null = null;
  const query: AdminOrdersQuery = { ...filters, limit, cursor: cursor ?? undefined };
  const orders = await adminApi<AdminOrderView[]>("/api/admin/orders", {
    // Empty fields are left out rather than sent blank.
    query: {
      status: query.status,
      q: query.q || null,
      from: query.from || null,
      to: query.to || null,
      limit,
      cursor: query.cursor,
    },
    onHeaders: (h) => {
      nextCursor = h.get("X-Next-Cursor");
    },
  });
  return { orders, nextCursor };
}

/** The New orders as a CSV file, of the days chosen (every day when none are). */
export function fetchNewOrdersCsv(range: { from?: string; to?: string } = {}): Promise<Blob> {
  return adminApi<Blob>("/api/admin/orders/new/csv", {
    as: "blob",
    headers: { Accept: "text/csv" },
    query: { from: range.from || null, to: range.to || null },
  });
}

/** Sets an order's tracking number (PAYMENT_RECEIVED moves to PROCESSING). */
export function addTrackingNumber(
  orderNumber: string,
  trackingNumber: string,
): Promise<AdminOrderView> {
  return adminApi<AdminOrderView>(`/api/admin/orders/${encodeURIComponent(orderNumber)}/tracking`, {
    method: "POST",
    body: { trackingNumber } satisfies TrackingInput,
  });
}

/**
 * Every order Ship Orders would ship now (shared/status.ts isReadyToShip), oldest first, read
 * through every page of the New orders whatever the dashboard's search shows.
 */
export async function fetchOrdersToShip(): Promise<AdminOrderView[]> {
  const found: AdminOrderView[] = [];
  let cursor: string | null = null;
  do {
    const page = await fetchOrders({ status: "new" }, cursor, 200);
    found.push(...page.orders.filter(isReadyToShip));
    cursor = page.nextCursor;
  } while (cursor);
  return found.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * What a ship answered, for the owner: how many shipped, and each order not shipped with why
 * (shipped meanwhile by another tab, cancelled) so none is missed; null when all shipped.
 */
export function shipResultText(
  result: ShipChosenView,
): { shipped: string; notShipped: string | null } {
  return {
    shipped: shippedMessage(result.shippedCount),
    notShipped: result.skipped.length === 0
      ? null
      : `Not shipped: ${result.skipped.map((s) => `${s.orderNumber} (${s.reason})`).join(", ")}`,
  };
}

/**
 * Ships the chosen orders; answers how many shipped and why the others did not. The dialog lists
 * every ready order, more than one request may name, so they go in parts, one after another.
 */
export async function shipChosenOrders(orderNumbers: string[]): Promise<ShipChosenView> {
  const result: ShipChosenView = { shippedCount: 0, skipped: [] };
  // Once each, as the server counts one request's list: a number in two parts would come back
  // from the second as "not shipped" although the first shipped it.
  const unique = [...new Set(orderNumbers)];
  for (let start = 0; start < unique.length; start += SHIP_AT_ONCE_MAX) {
    const part = await adminApi<ShipChosenView>("/api/admin/orders/ship-processed", {
      method: "POST",
      body: {
        orderNumbers: unique.slice(start, start + SHIP_AT_ONCE_MAX),
      } satisfies ShipChosenInput,
    });
    result.shippedCount += part.shippedCount;
    result.skipped.push(...part.skipped);
  }
  return result;
}

/** "1 order marked as shipped", "3 orders marked as shipped". */
export function shippedMessage(count: number): string {
  return `${count} ${count === 1 ? "order" : "orders"} marked as shipped`;
}

/** Sales of the UTC days `from` to `to`. */
export function fetchSales(query: SalesQuery): Promise<SalesView> {
  return adminApi<SalesView>("/api/admin/sales", { query });
}

/** The parts of every paid, unshipped order. */
export function fetchPickList(): Promise<PickListView> {
  return adminApi<PickListView>("/api/admin/pick-list");
}

/** The newest emails, optionally to one address. */
export function fetchEmails(to = "", limit = 100): Promise<AdminEmailView[]> {
  return adminApi<AdminEmailView[]>("/api/admin/emails", { query: { to: to || null, limit } });
}

/** Whether mail goes out, and how many emails wait or gave up. */
export function fetchMailHealth(): Promise<MailHealthView> {
  return adminApi<MailHealthView>("/api/admin/emails/health");
}

/** Queues a fresh copy of an email; answers the new one. */
export function resendEmail(id: string): Promise<AdminEmailView> {
  return adminApi<AdminEmailView>(`/api/admin/emails/${encodeURIComponent(id)}/resend`, {
    method: "POST",
  });
}

/**
 * Marks a shipped order delivered. The spec sends the admin password as a bearer header here;
 * the client no longer has it after login, and the session cookie is enough for the server. The
 * JSON content type is kept (an empty JSON object as the body).
 */
export function markDelivered(orderNumber: string): Promise<AdminOrderView> {
  return adminApi<AdminOrderView>(
    `/api/admin/orders/${encodeURIComponent(orderNumber)}/delivered`,
    {
      method: "POST",
      body: {},
    },
  );
}

/** Cancels an order before shipment; a paid one is refunded in full. */
export function cancelOrder(orderNumber: string): Promise<AdminOrderView> {
  return adminApi<AdminOrderView>(`/api/admin/orders/${encodeURIComponent(orderNumber)}/cancel`, {
    method: "POST",
  });
}

/** Stock and use of every switch and component. */
export function fetchInventory(): Promise<InventoryView> {
  return adminApi<InventoryView>("/api/admin/inventory");
}

/**
 * Sets the shelf count of a switch (by id) or a component (by name); answers the updated record.
 * A count the server's schema refuses (blank, negative, fractional) is refused here with the
 * server's own message, without a request.
 */
export function updateStock(
  target: { kind: "switch"; id: number } | { kind: "component"; name: string },
  change: { stock?: number | null; lowStockAt?: number | null },
): Promise<StockCounts & StockPlanning> {
  const checked = stockUpdateSchema.safeParse(change);
  if (!checked.success) {
    return Promise.reject(new ApiError(400, checked.error.issues[0].message, null));
  }
  const path = target.kind === "switch"
    ? `/api/admin/inventory/switches/${target.id}`
    : `/api/admin/inventory/components/${encodeURIComponent(target.name)}`;
  const body: StockUpdateInput = checked.data;
  return adminApi<StockCounts & StockPlanning>(path, { method: "PUT", body });
}

/** GET /api/test/ping: the server's answer as text. */
export function testPing(): Promise<string> {
  return adminApi<string>("/api/test/ping", { as: "text", headers: { Accept: "text/plain" } });
}

/** GET /api/test/test_email: queues a sample order confirmation; the server's answer as text. */
export function testEmail(): Promise<string> {
  return adminApi<string>("/api/test/test_email", {
    as: "text",
    headers: { Accept: "text/plain" },
  });
}

/**
 * The message for a failed admin call: the server's own words for the statuses listed (its
 * validation and conflict messages are written for people), a note when the session ended, and
 * the given fallback otherwise.
 */
export function adminErrorMessage(
  err: unknown,
  fallback: string,
  serverStatuses: readonly number[] = [],
): string {
  if (!(err instanceof ApiError)) return fallback;
  // A 401 the caller lists is a refusal of what it sent (a wrong code), not the session's end.
  if (err.status === 401 && !serverStatuses.includes(401)) return SESSION_ENDED;
  // A role's refusal names the role needed ("Only the owner can edit prices."): said as it is.
  if (err.status === 403) return err.message;
  return serverStatuses.includes(err.status) ? err.message : fallback;
}

/** Scripts' API keys, newest first (never the keys themselves). */
export function fetchApiKeys(): Promise<ApiKeyView[]> {
  return adminApi<ApiKeyView[]>("/api/admin/api-keys");
}

/** Makes an API key; the answer holds the key, which is never shown again. */
export function createApiKey(input: ApiKeyCreateInput): Promise<CreatedApiKeyView> {
  return adminApi<CreatedApiKeyView>("/api/admin/api-keys", { method: "POST", body: input });
}

/** Revokes an API key: its scripts get 401 from their next request. */
export async function revokeApiKey(id: string): Promise<void> {
  await adminApi<{ ok: true }>(`/api/admin/api-keys/${encodeURIComponent(id)}`, {
    method: "DELETE",
  });
}
