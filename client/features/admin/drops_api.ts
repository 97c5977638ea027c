/**
 * The owner's drop calls (shared/drops.ts) and the restock list (shared/restock.ts), through the
 * admin client, so a 401 ends the session here too.
 */
import type { DropAdminView, DropListRow, DropScheduleBody } from "../../../shared/drops.ts";
import type { RestockRow } from "../../../shared/restock.ts";
import { adminApi } from "./admin_api.ts";

/** Every drop, newest first. */
export function fetchDrops(): Promise<DropListRow[]> {
  return adminApi<DropListRow[]>("/api/admin/drops");
}

/** One drop's live view and report. */
export function fetchDrop(id: string): Promise<DropAdminView> {
  return adminApi<DropAdminView>(`/api/admin/drops/${encodeURIComponent(id)}`);
}

/** Schedules a drop; answers its id. */
export function scheduleDrop(body: DropScheduleBody): Promise<{ id: string }> {
  return adminApi<{ id: string }>("/api/admin/drops", { method: "POST", body });
}

/** Calls a drop off: the target sells as usual again. */
export function cancelDrop(id: string): Promise<unknown> {
  return adminApi<unknown>(`/api/admin/drops/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** What to print or buy next, most wanted first. */
export async function fetchRestock(): Promise<RestockRow[]> {
  return (await adminApi<{ rows: RestockRow[] }>("/api/admin/restock")).rows;
}
