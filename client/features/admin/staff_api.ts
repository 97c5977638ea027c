/**
 * The Staff and Security tabs' calls: the owner's staff (list, invite, change a role, remove) and
 * every account's sessions (list, end). Through the admin client, so a 401 ends the dashboard.
 */
import type { AdminSessionItemView, StaffMemberView } from "../../../shared/api_types.ts";
import type { Role } from "../../../shared/roles.ts";
import type { StaffInviteInput } from "../../../shared/schemas.ts";
import { adminApi } from "./admin_api.ts";

/** GET /api/admin/staff. */
export function fetchStaff(): Promise<StaffMemberView[]> {
  return adminApi<StaffMemberView[]>("/api/admin/staff");
}

/** POST /api/admin/staff: invites an email (again, for a pending invitation). */
export function inviteStaff(input: StaffInviteInput): Promise<StaffMemberView> {
  return adminApi<StaffMemberView>("/api/admin/staff", { method: "POST", body: input });
}

/** PATCH /api/admin/staff/{id}. */
export function changeStaffRole(id: string, role: Role): Promise<StaffMemberView> {
  return adminApi<StaffMemberView>(`/api/admin/staff/${encodeURIComponent(id)}`, {
    method: "PATCH",
    body: { role },
  });
}

/** DELETE /api/admin/staff/{id}: the member's sessions end at once. */
export async function removeStaff(id: string): Promise<void> {
  await adminApi<{ ok: true }>(`/api/admin/staff/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** GET /api/admin/sessions: mine, or (`all`, the owner) everyone's. */
export function fetchSessions(all: boolean): Promise<AdminSessionItemView[]> {
  return adminApi<AdminSessionItemView[]>("/api/admin/sessions", {
    query: { all: all ? "1" : null },
  });
}

/** DELETE /api/admin/sessions/{id}; answers whether it signed this browser out. */
export async function endSession(id: string): Promise<boolean> {
  const answer = await adminApi<{ ok: true; signedOut: boolean }>(
    `/api/admin/sessions/${encodeURIComponent(id)}`,
    { method: "DELETE" },
  );
  return answer.signedOut;
}
