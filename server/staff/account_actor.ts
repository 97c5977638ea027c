import type { Actor } from "../audit/actor.ts";
import { actorOfAccount } from "./session_actor.ts";

/**
 * The actor of an account at sign-in, before any session names it (the audit log's "who" for a
 * sign-in or a failed second factor). A member removed meanwhile is still named by id, so the
 * failed attempt is recorded all the same.
 */
export async function accountActor(kv: Deno.Kv, accountId: string, from: string): Promise<Actor> {
  return await actorOfAccount(kv, accountId, from) ??
    { kind: "staff", id: accountId, name: accountId, role: "staff", from };
}
