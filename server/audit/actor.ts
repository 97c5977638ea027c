import type { Role } from "../../shared/roles.ts";

/**
 * Who is acting in an admin request: the owner, a staff member, or an API key (a script), with
 * the role that decides what it may do. Set once per request by the admin check
 * (middleware/admin_auth.ts) and carried into every write the audit log records.
 */
export interface Actor {
  kind: "owner" | "staff" | "key";
  /** "owner", a staff member's id, or an API key's id. */
  id: string;
  /** What the audit log and the dashboard call it: "Owner", a member's email, a key's name. */
  name: string;
  role: Role;
  /** The client's address as the shop counts it (middleware/client_key.ts). */
  from: string;
  /** The hash of the session's token, for a cookie session (to end it, to list it as current). */
  sessionHash?: string;
}
