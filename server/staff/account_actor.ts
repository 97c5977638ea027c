import type { Actor } from "../audit/actor.ts";

/**
 * The actor of an account at sign-in, before any session names it (the audit log's "who" for a
 * sign-in or a failed second factor). A staff member is named by id here; with staff accounts
 * their email and role come from the staff store.
 */
export function accountActor(accountId: string, from: string): Actor {
  if (accountId === "owner") {
    return { kind: "owner", id: "owner", name: "Owner", role: "owner", from };
  }
  return { kind: "staff", id: accountId, name: accountId, role: "staff", from };
}
