/**
 * Who an admin session acts as: the owner, or a staff member with the role their record holds
 * now (so a role change applies on the next request). A session whose member is gone (removed,
 * or never finished joining) acts as nobody.
 */
import type { Actor } from "../audit/actor.ts";
import { OWNER_ACCOUNT } from "../accounts/admin_sessions.ts";
import { getMember, memberActor } from "./staff_accounts.ts";

/** The owner, signed in with the admin password (a session or the bearer password). */
export function ownerActor(from: string, sessionHash?: string): Actor {
  return {
    kind: "owner",
    id: OWNER_ACCOUNT,
    name: "Owner",
    role: "owner",
    from,
    ...(sessionHash ? { sessionHash } : {}),
  };
}

/**
 * The actor of an account ("owner" or a member's id), or null when the member is gone or never
 * finished joining: what a session, a sign-in and a second factor act as.
 */
export async function actorOfAccount(
  kv: Deno.Kv,
  accountId: string,
  from: string,
  sessionHash?: string,
): Promise<Actor | null> {
  if (accountId === OWNER_ACCOUNT) return ownerActor(from, sessionHash);
  const member = (await getMember(kv, accountId)).value;
  if (!member || member.status !== "active") return null;
  return memberActor(member, from, sessionHash);
}
