/**
 * Inviting a helper: the owner names an email and a role; the helper gets a link (as a password
 * reset link: its token stored only as a hash, valid once, for a day) where they choose their
 * password. Inviting an email again before it is accepted sends a new link and kills the old one.
 */
import type { Role } from "../../shared/roles.ts";
import type { StaffMemberView } from "../../shared/api_types.ts";
import type { AppDeps } from "../deps.ts";
import type { Actor } from "../audit/actor.ts";
import { auditEntry, auditInto } from "../audit/log.ts";
import { Conflict, InvalidInput } from "../errors.ts";
import { newToken, randomId, sha256Hex } from "../crypto.ts";
import { keys } from "../kv/keys.ts";
import { hitRateLimit, type RateLimit } from "../kv/rate_limit.ts";
import { queueEmailInto } from "../email/outbox.ts";
import { newPasswordHash } from "../accounts/users.ts";
import {
  getMember,
  memberActor,
  memberByEmail,
  memberView,
  type StaffMember,
} from "./staff_accounts.ts";
import { staffInviteEmail } from "./invite_email.ts";

/** How long an invitation link works. */
export const INVITE_LINK_MS = 24 * 60 * 60_000;

/**
 * Per client: 10 invitation acceptances per 10 minutes, counted before the token is looked up, so
 * nobody can try tokens (or make the shop hash passwords) faster than that.
 */
export const INVITE_CLIENT_LIMIT: RateLimit = {
  bucket: "staff-invite",
  max: 10,
  windowMs: 10 * 60_000,
};

/** What an invitation's token stands for (stored under the token's hash). */
interface InviteRecord {
  memberId: string;
  expiresAt: number;
}

const BAD_LINK =
  "This invitation link has expired or was already used. Ask the shop's owner for a new one.";

/**
 * Why the Emails tab does not resend an invitation: its link opens an account to whoever holds
 * it; the owner invites the email again instead, which sends a fresh link and kills this one.
 */
const NO_RESEND =
  "Invitations are not resent: invite the email again from the Staff tab, which sends a new link.";

/** Invites `email` as `role`, or sends a pending invitation anew; 409 for a member already. */
export async function inviteStaff(
  deps: Pick<AppDeps, "kv" | "clock" | "config">,
  actor: Actor,
  input: { email: string; role: Role },
  origin: string,
): Promise<StaffMemberView> {
  const { kv, clock } = deps;
  const { email, role } = input;
  const existing = await memberByEmail(kv, email);
  if (existing?.value.status === "active") {
    throw new Conflict(`${email} is already a member of the staff.`);
  }
  const token = newToken();
  const inviteHash = await sha256Hex(token);
  const now = clock.now();
  const member: StaffMember = {
    id: existing?.value.id ?? randomId(12),
    email,
    role,
    status: "invited",
    createdAt: existing?.value.createdAt ?? now,
    invitedBy: actor.name,
    inviteHash,
  };
  const op = kv.atomic();
  if (existing) {
    op.check(existing);
    if (existing.value.inviteHash) op.delete(keys.staffInvite(existing.value.inviteHash));
  } else {
    op.check({ key: keys.staffByEmail(email), versionstamp: null })
      .set(keys.staffByEmail(email), member.id);
  }
  const record: InviteRecord = { memberId: member.id, expiresAt: now + INVITE_LINK_MS };
  op.set(keys.staffMember(member.id), member)
    .set(keys.staffInvite(inviteHash), record, { expireIn: INVITE_LINK_MS });
  const link = `${deps.config.publicUrl ?? origin}/admin?token=${token}`;
  queueEmailInto(op, staffInviteEmail(email, link, role), now, null, { noResend: NO_RESEND });
  auditInto(
    op,
    auditEntry(clock, actor, {
      kind: "staff",
      action: "staff.invited",
      target: email,
      changes: { role: { from: existing?.value.role ?? null, to: role } },
    }),
  );
  if (!(await op.commit()).ok) {
    throw new Conflict(`${email} was invited or changed meanwhile. Reload the list and try again.`);
  }
  return memberView(member, null);
}

/**
 * Sets the invited member's password through the link's token, which is spent in the same write;
 * answers the member. Counted per client before the token is looked up.
 */
export async function acceptInvitation(
  deps: Pick<AppDeps, "kv" | "clock" | "passwordIterations">,
  input: { token: string; password: string },
  client: string,
): Promise<StaffMember> {
  const { kv, clock } = deps;
  await hitRateLimit(
    kv,
    clock,
    INVITE_CLIENT_LIMIT,
    client,
    "Too many invitation attempts. Please wait a few minutes and try again.",
  );
  const inviteHash = await sha256Hex(input.token);
  const invite = await kv.get<InviteRecord>(keys.staffInvite(inviteHash));
  if (!invite.value || invite.value.expiresAt <= clock.now()) throw new InvalidInput(BAD_LINK);
  const entry = await getMember(kv, invite.value.memberId);
  const member = entry.value;
  if (!member || member.status !== "invited" || member.inviteHash !== inviteHash) {
    throw new InvalidInput(BAD_LINK);
  }
  const now = clock.now();
  const joined: StaffMember = {
    ...member,
    status: "active",
    password: await newPasswordHash(input.password, deps.passwordIterations),
    joinedAt: now,
  };
  delete joined.inviteHash;
  const op = kv.atomic().check(invite).check(entry)
    .delete(keys.staffInvite(inviteHash))
    .set(keys.staffMember(member.id), joined);
  auditInto(
    op,
    auditEntry(clock, memberActor(joined, client), {
      kind: "staff",
      action: "staff.joined",
      target: member.email,
    }),
  );
  if (!(await op.commit()).ok) throw new InvalidInput(BAD_LINK);
  return joined;
}
