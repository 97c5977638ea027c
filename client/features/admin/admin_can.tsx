import { createContext, useContext } from "react";
import type { Capability } from "../../../shared/admin_permissions.ts";

/**
 * What the signed-in role may do, from the session view (the server's own table): the
 * dashboard's tabs and buttons read it so a role sees only what it can use. Empty until the
 * session is known, so nothing the role may not use shows even for a moment.
 */
export const AdminCanContext = createContext<ReadonlySet<Capability>>(new Set());

/** Whether the signed-in role may do `capability`. */
export function useCan(capability: Capability): boolean {
  return useContext(AdminCanContext).has(capability);
}
