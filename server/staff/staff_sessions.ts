/**
 * The Security tab's sessions: every account lists and ends its own; the owner role lists and
 * ends everyone's. A session is named to the browser by a random id, never by its token or the
 * token's hash (either would let whoever reads the list sign in as its holder).
 */
import type { AdminSessionItemView } from "../../shared/api_types.ts";
import type { AppDeps } from "../deps.ts";
import type { Actor } from "../audit/actor.ts";
import { auditEntry, auditInto } from "../audit/log.ts";
import { NotFound } from "../errors.ts";
import { keys } from "../kv/keys.ts";
import { listValues } from "../kv/kv_util.ts";
import {
  deleteAdminSession,
  endAdminSessionInto,
  findAdminSession,
  listAdminSessions,
  type ListedAdminSession,
  OWNER_ACCOUNT,
} from "../accounts/admin_sessions.ts";
import { requireOwnerRole } from "./owner_only.ts";
import { actorOfAccount } from "./session_actor.ts";
import type { StaffMember } from "./staff_accounts.ts";

/** Whether `actor` may see and end `session`: their own, or anyone's with the owner role. */
export function maySeeSession(
  actor: Actor,
  session: Pick<ListedAdminSession, "accountId">,
): boolean {
  return session.accountId === actor.id || actor.role === "owner";
}

/** The actor's sessions, or (`all`, owner role only) every account's, oldest first. */
export async function listSessionsFor(
  deps: Pick<AppDeps, "kv" | "clock">,
  actor: Actor,
  all: boolean,
): Promise<AdminSessionItemView[]> {
  const { kv, clock } = deps;
  if (all) requireOwnerRole(actor, "Seeing everyone's sessions");
  const names = await accountNames(kv);
  const sessions = await listAdminSessions(kv, clock, all ? undefined : actor.id);
  // A removed member's sessions are refused already; their records may outlive them briefly.
  return sessions.filter((s) => names.has(s.accountId)).map((s) => ({
    id: s.sessionId,
    accountId: s.accountId,
    name: names.get(s.accountId)!,
    device: s.device,
    address: s.address,
    createdAt: new Date(s.createdAt).toISOString(),
    lastSeenAt: new Date(s.lastSeenAt).toISOString(),
    current: s.tokenHash === actor.sessionHash,
  }));
}

/**
 * Ends one session the actor may end (else 404, as for one that does not exist: a member learns
 * nothing of others' ids); answers whether it was the actor's own current session.
 */
export async function endSessionFor(
  deps: Pick<AppDeps, "kv" | "clock">,
  actor: Actor,
  sessionId: string,
): Promise<{ wasCurrent: boolean }> {
  const { kv, clock } = deps;
  const session =
    (await listAdminSessions(kv, clock, actor.role === "owner" ? undefined : actor.id))
      .find((s) => s.sessionId === sessionId && maySeeSession(actor, s));
  if (!session) throw new NotFound("There is no such session; it may have ended already.");
  const names = await accountNames(kv);
  const op = endAdminSessionInto(kv.atomic(), session);
  auditInto(
    op,
    auditEntry(clock, actor, {
      kind: "sessions",
      action: "session.ended",
      target: names.get(session.accountId) ?? session.accountId,
    }),
  );
  await op.commit();
  return { wasCurrent: session.tokenHash === actor.sessionHash };
}

/**
 * Signs a browser out: ends its session and records who signed out, in one write. A token with no
 * live session (already ended, lapsed, forged) is only deleted, and records nothing.
 */
export async function signOut(
  deps: Pick<AppDeps, "kv" | "clock">,
  token: string,
  from: string,
): Promise<void> {
  const { kv, clock } = deps;
  const session = await findAdminSession(kv, clock, token);
  if (!session) return await deleteAdminSession(kv, token);
  const actor = await actorOfAccount(kv, session.accountId, from, session.tokenHash);
  const op = endAdminSessionInto(kv.atomic(), session);
  if (actor) {
    auditInto(
      op,
      auditEntry(clock, actor, { kind: "sessions", action: "sign_out", target: actor.name }),
    );
  }
  await op.commit();
}

/** Every account's name by id: the owner and each member's email. */
async function accountNames(kv: Deno.Kv): Promise<Map<string, string>> {
  const members = await listValues<StaffMember>(kv, keys.staffMembers());
  return new Map([[OWNER_ACCOUNT, "Owner"], ...members.map((m) => [m.id, m.email] as const)]);
}

/**
 * Sessions the first factor's own write ends: two deletes each, so with the factor's record and
 * entries the write stays far under KV's 1000 mutations however many sessions a password thief
 * opened (the password alone opens any number); the rest end just after
 * (endOtherSessionsAfter).
 */
const ENDED_WITH_FACTOR = 200;
/** Sessions ended per write after the factor's. */
const ENDED_PER_WRITE = 200;

/** The account's live sessions but the one making the request. */
async function otherSessions(
  deps: Pick<AppDeps, "kv" | "clock">,
  actor: Actor,
): Promise<ListedAdminSession[]> {
  return (await listAdminSessions(deps.kv, deps.clock, actor.id))
    .filter((s) => s.tokenHash !== actor.sessionHash);
}

/**
 * Ends, in `op`, every session of `actor`'s account but the one making the request (up to
 * ENDED_WITH_FACTOR; endOtherSessionsAfter ends any more), with one audit entry counting them
 * all: when an account gets its first second factor, no session opened with the password alone
 * may outlive it (a stolen password's session would otherwise keep going).
 */
export async function endOtherSessionsInto(
  deps: Pick<AppDeps, "kv" | "clock">,
  actor: Actor,
  op: Deno.AtomicOperation,
): Promise<void> {
  const others = await otherSessions(deps, actor);
  if (others.length === 0) return;
  for (const session of others.slice(0, ENDED_WITH_FACTOR)) endAdminSessionInto(op, session);
  auditInto(
    op,
    auditEntry(deps.clock, actor, {
      kind: "sessions",
      action: "sessions.ended_by_first_factor",
      target: actor.name,
      changes: { sessions: { from: others.length + 1, to: 1 } },
    }),
  );
}

/**
 * Ends, in writes of their own, the account's other sessions its first factor's write had no
 * room for (a password thief's hundreds), and any opened with the password while it committed.
 */
export async function endOtherSessionsAfter(
  deps: Pick<AppDeps, "kv" | "clock">,
  actor: Actor,
): Promise<void> {
  const others = await otherSessions(deps, actor);
  for (let i = 0; i < others.length; i += ENDED_PER_WRITE) {
    const op = deps.kv.atomic();
    for (const session of others.slice(i, i + ENDED_PER_WRITE)) endAdminSessionInto(op, session);
    await op.commit();
  }
}
