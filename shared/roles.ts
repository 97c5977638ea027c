/**
 * Who may do what in the dashboard. Two roles: the owner (everything) and staff (orders,
 * shipping, print day, packing slips, email resends, inventory counts). The server enforces them
 * on every /api/admin route; the dashboard reads them to show only what a role may use.
 */
export const ROLES = ["owner", "staff"] as const;

/** A dashboard role. */
export type Role = (typeof ROLES)[number];

/** What a role reads as in the dashboard and in a refusal ("needs the owner role"). */
export const ROLE_LABELS: Record<Role, string> = {
  owner: "Owner",
  staff: "Staff",
};
