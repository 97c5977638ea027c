/**
 * The Catalogue tab's calls: switches, packs, items, promo codes, the notice and the history
 * (docs/product.md#admin-api). Each goes through the admin client, so a 401 ends the session
 * there too. Edits send back the record's `version`; a stale one is refused with 409.
 */
import type {
  AdminItemView,
  AdminNoticeView,
  AdminPackView,
  AdminPromoView,
  AdminSwitchView,
  CatalogEditView,
} from "../../../shared/api_types.ts";
import type {
  ItemUpdateInput,
  NoticeInput,
  PackUpdateInput,
  PromoCreateInput,
  PromoUpdateInput,
  SwitchCreateInput,
  SwitchUpdateInput,
} from "../../../shared/schemas.ts";
import { ApiError } from "../../app/api.ts";
import { adminApi } from "./admin_api.ts";

/** Whether a failed edit was made on an out-of-date record (someone changed it meanwhile). */
export function isConflict(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 409;
}

/** The field a 400's first issue names (`{ issues: [{ path: "switchIds.3" }] }`), if any. */
export function issueField(err: unknown): string | undefined {
  if (!(err instanceof ApiError) || err.status !== 400) return undefined;
  const issues = (err.body as { issues?: { path?: unknown }[] } | null)?.issues;
  const path = issues?.[0]?.path;
  return typeof path === "string" && path !== "" ? path.split(".")[0] : undefined;
}

/** Every switch, retired ones included. */
export function fetchCatalogSwitches(): Promise<AdminSwitchView[]> {
  return adminApi<AdminSwitchView[]>("/api/admin/catalog/switches");
}

/** Adds a switch; answers the record with its new id. */
export function createSwitch(body: SwitchCreateInput): Promise<AdminSwitchView> {
  return adminApi<AdminSwitchView>("/api/admin/catalog/switches", { method: "POST", body });
}

/** Edits a switch (the fields sent and the version it was read at). */
export function updateSwitch(id: number, body: SwitchUpdateInput): Promise<AdminSwitchView> {
  return adminApi<AdminSwitchView>(`/api/admin/catalog/switches/${id}`, { method: "PATCH", body });
}

/** The six packs, on sale or not, as the owner edits them. */
export function fetchCatalogPacks(): Promise<AdminPackView[]> {
  return adminApi<AdminPackView[]>("/api/admin/catalog/packs");
}

/** Edits a pack by its id without keycaps. */
export function updatePack(id: number, body: PackUpdateInput): Promise<AdminPackView> {
  return adminApi<AdminPackView>(`/api/admin/catalog/packs/${id}`, { method: "PATCH", body });
}

/** The two items (layout tester and cube case), on sale or not. */
export function fetchCatalogItems(): Promise<AdminItemView[]> {
  return adminApi<AdminItemView[]>("/api/admin/catalog/items");
}

/** Edits an item. */
export function updateItem(id: number, body: ItemUpdateInput): Promise<AdminItemView> {
  return adminApi<AdminItemView>(`/api/admin/catalog/items/${id}`, { method: "PATCH", body });
}

/** Every promo code with its uses. */
export function fetchPromos(): Promise<AdminPromoView[]> {
  return adminApi<AdminPromoView[]>("/api/admin/promos");
}

/** Creates a promo code. */
export function createPromo(body: PromoCreateInput): Promise<AdminPromoView> {
  return adminApi<AdminPromoView>("/api/admin/promos", { method: "POST", body });
}

/** Edits a promo code (the fields sent and the version it was read at). */
export function updatePromo(code: string, body: PromoUpdateInput): Promise<AdminPromoView> {
  return adminApi<AdminPromoView>(`/api/admin/promos/${encodeURIComponent(code)}`, {
    method: "PATCH",
    body,
  });
}

/** The site notice (the red banner) with its version. */
export function fetchNotice(): Promise<AdminNoticeView> {
  return adminApi<AdminNoticeView>("/api/admin/notice");
}

/** Saves the site notice. */
export function saveNotice(body: NoticeInput): Promise<AdminNoticeView> {
  return adminApi<AdminNoticeView>("/api/admin/notice", { method: "PUT", body });
}

/** Every catalogue, promo and notice edit, newest first. */
export function fetchHistory(): Promise<CatalogEditView[]> {
  return adminApi<CatalogEditView[]>("/api/admin/catalog/history");
}
