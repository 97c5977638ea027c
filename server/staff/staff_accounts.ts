/**
 * Staff accounts: one record per member, found by id or by email (lower case, as shoppers' are).
 * The owner is not a record: its password is ADMIN_PASSWORD and its id "owner". A member's role
 * is read from the record on every request (session_actor.ts), so a change applies at once, and
 * removal deletes the record, which refuses every session of the member on its next request.
 */
import type { Role } from "../../shared/roles.ts";
import type { StaffMemberView } from "../../shared/api_types.ts";
import type { AppDeps } from "../deps.ts";
import type { Actor } from "../audit/actor.ts";
import { auditEntry, auditInto } from "../audit/log.ts";
import { Conflict, NotFound } from "../errors.ts";
import { keys } from "../kv/keys.ts";
import { dropFactorsInto } from "./second_factors.ts";
import { getManyBatched, listValues } from "../kv/kv_util.ts";
import type { PasswordHash } from "../accounts/users.ts";
import { endAllAdminSessions, listAdminSessions } from "../accounts/admin_sessions.ts";

/** A staff member. */
export interface StaffMember {
  id: string;
  email: string;
  role: Role;
  /** Invited: the link is out, no password yet; active: the invitation was accepted. */
  status: "invited" | "active";
  /** Set when the invitation is accepted (through the shop's password hashing). */
  password?: PasswordHash;
  createdAt: number;
  /** The name of who invited them last. */
  invitedBy: string;
  joinedAt?: number;
  /** The hash of the live invitation's token: a new invitation replaces it, killing the old. */
  inviteHash?: string;
}

const NOT_FOUND = "There is no staff member with this id.";

/** A member by id. */
export async function getMember(
  kv: Deno.Kv,
  id: string,
): Promise<Deno.KvEntryMaybe<StaffMember>> {
  return await kv.get<StaffMember>(keys.staffMember(id));
}

/** The member of an email (lower case), or null. */
export async function memberByEmail(
  kv: Deno.Kv,
  email: string,
): Promise<Deno.KvEntry<StaffMember> | null> {
  const id = (await kv.get<string>(keys.staffByEmail(email))).value;
  if (!id) return null;
  const entry = await getMember(kv, id);
  return entry.value ? entry as Deno.KvEntry<StaffMember> : null;
}

/** The actor a member is in an admin request from `from`. */
export function memberActor(member: StaffMember, from: string, sessionHash?: string): Actor {
  return {
    kind: "staff",
    id: member.id,
    name: member.email,
    role: member.role,
    from,
    ...(sessionHash ? { sessionHash } : {}),
  };
}

/** What the Staff tab shows of a member; `lastSeenAt` is in milliseconds, or null. */
export function memberView(member: StaffMember, lastSeenAt: number | null): StaffMemberView {
  return {
    id: member.id,
    email: member.email,
    role: member.role,
    status: member.status,
    createdAt: new Date(member.createdAt).toISOString(),
    lastSeenAt: lastSeenAt === null ? null : new Date(lastSeenAt).toISOString(),
    invitedBy: member.invitedBy,
  };
}

/**
 * Every member, oldest first, with when each was last seen: the latest of their last sign-in and
 * their live sessions' last use.
 */
export async function listMembers(
  deps: Pick<AppDeps, "kv" | "clock">,
): Promise<StaffMemberView[]> {
  const { kv, clock } = deps;
  const members = (await listValues<StaffMember>(kv, keys.staffMembers()))
    .sort((a, b) => a.createdAt - b.createdAt);
  const signedIn = await getManyBatched<number>(kv, members.map((m) => keys.staffLastSeen(m.id)));
  const seen = new Map<string, number>();
  for (const s of await listAdminSessions(kv, clock)) {
    seen.set(s.accountId, Math.max(seen.get(s.accountId) ?? 0, s.lastSeenAt));
  }
  return members.map((m, i) => {
    const last = Math.max(signedIn[i].value ?? 0, seen.get(m.id) ?? 0);
    return memberView(m, last || null);
  });
}

/** Remembers that a member signed in now (their sessions say when they were seen since). */
export async function markSeen(kv: Deno.Kv, id: string, at: number): Promise<void> {
  await kv.set(keys.staffLastSeen(id), at);
}

/** Gives a member another role, effective on their next request. */
export async function changeRole(
  deps: Pick<AppDeps, "kv" | "clock">,
  actor: Actor,
  id: string,
  role: Role,
): Promise<StaffMemberView> {
  const { kv, clock } = deps;
  const entry = await getMember(kv, id);
  if (!entry.value) throw new NotFound(NOT_FOUND);
  const member = entry.value;
  const next: StaffMember = { ...member, role };
  if (member.role !== role) {
    const op = kv.atomic().check(entry).set(keys.staffMember(id), next);
    auditInto(
      op,
      auditEntry(clock, actor, {
        kind: "staff",
        action: "staff.role_changed",
        target: member.email,
        changes: { role: { from: member.role, to: role } },
      }),
    );
    if (!(await op.commit()).ok) {
      throw new Conflict("This member changed meanwhile. Reload the list and try again.");
    }
  }
  return memberView(next, (await kv.get<number>(keys.staffLastSeen(id))).value);
}

/**
 * Removes a member. Deleting the record (with its email, its live invitation and the audit
 * entry, in one write) refuses all their sessions from the next request on; the sessions' own
 * records are then deleted.
 */
export async function removeMember(
  deps: Pick<AppDeps, "kv" | "clock">,
  actor: Actor,
  id: string,
): Promise<void> {
  const { kv, clock } = deps;
  const entry = await getMember(kv, id);
  if (!entry.value) throw new NotFound(NOT_FOUND);
  const member = entry.value;
  const op = kv.atomic().check(entry)
    .delete(keys.staffMember(id))
    .delete(keys.staffByEmail(member.email))
    .delete(keys.staffLastSeen(id));
  if (member.inviteHash) op.delete(keys.staffInvite(member.inviteHash));
  await dropFactorsInto(kv, id, op);
  auditInto(
    op,
    auditEntry(clock, actor, { kind: "staff", action: "staff.removed", target: member.email }),
  );
  if (!(await op.commit()).ok) {
    throw new Conflict("This member changed meanwhile. Reload the list and try again.");
  }
  await endAllAdminSessions(kv, id);
}
