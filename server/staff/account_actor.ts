import type { Actor } from "../audit/actor.ts";
import { OWNER_ACCOUNT } from "../accounts/admin_sessions.ts";
import { getMember, memberActor } from "./staff_accounts.ts";
import { ownerActor } from "./session_actor.ts";

/**
 * The actor of an account at sign-in, before any session names it (the audit log's "who" for a
 * sign-in or a failed second factor): the owner, or the member by email and current role. A
 * member removed meanwhile is still named by id, so the failed attempt is recorded all the same.
 */
export async function accountActor(kv: Deno.Kv, accountId: string, from: string): Promise<Actor> {
  if (accountId === OWNER_ACCOUNT) return ownerActor(from);
  const member = (await getMember(kv, accountId)).value;
  if (member) return memberActor(member, from);
  return { kind: "staff", id: accountId, name: accountId, role: "staff", from };
}
