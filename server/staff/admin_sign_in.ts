/**
 * The dashboard's sign-in by password: the owner with ADMIN_PASSWORD alone, a staff member with
 * their email and password. Each attempt is counted before it is compared (login_limits.ts); a
 * wrong email, a wrong password and an invitation not yet accepted read the same and cost the
 * same hashing; a failure is recorded in the audit log with the email tried (never the password).
 */
import type { AppDeps } from "../deps.ts";
import type { Actor } from "../audit/actor.ts";
import { auditEntry, auditInto } from "../audit/log.ts";
import { Unauthorized } from "../errors.ts";
import { secretsEqual } from "../crypto.ts";
import {
  beginAdminAttempt,
  beginStaffAttempt,
  type Caller,
  compareWithin,
  type PasswordAttempt,
} from "../accounts/login_limits.ts";
import { passwordMatches } from "../accounts/users.ts";
import { OWNER_ACCOUNT } from "../accounts/admin_sessions.ts";
import { memberByEmail } from "./staff_accounts.ts";

/** What a wrong staff sign-in reads, whichever part was wrong. */
export const WRONG_STAFF_SIGN_IN = "Invalid email or password";

/** A right password: whose account, and the attempt (to remember the device by). */
export interface PasswordSignIn {
  accountId: string;
  attempt: PasswordAttempt;
}

/** Checks a password (with an email: a member's); throws Unauthorized when wrong. */
export async function checkAdminPassword(
  deps: Pick<AppDeps, "kv" | "clock" | "config" | "passwordIterations">,
  caller: Caller,
  input: { email?: string; password: string },
): Promise<PasswordSignIn> {
  const { kv, clock, config } = deps;
  if (input.email === undefined) {
    const attempt = await beginAdminAttempt(kv, clock, caller);
    if (!(await secretsEqual(input.password, config.adminPassword))) {
      await recordFailure(deps, { kind: "owner", id: OWNER_ACCOUNT, name: "Owner" }, caller);
      throw new Unauthorized("Invalid password");
    }
    await attempt.succeeded();
    return { accountId: OWNER_ACCOUNT, attempt };
  }
  const email = input.email;
  const attempt = await beginStaffAttempt(kv, clock, email, caller);
  const entry = await memberByEmail(kv, email);
  const member = entry?.value.status === "active" ? entry.value : null;
  const right = await compareWithin(
    attempt,
    () => passwordMatches(input.password, member?.password ?? null, deps.passwordIterations),
  );
  if (!right || !member) {
    await recordFailure(deps, { kind: "staff", id: entry?.value.id ?? "", name: email }, caller);
    throw new Unauthorized(WRONG_STAFF_SIGN_IN);
  }
  await attempt.succeeded();
  return { accountId: member.id, attempt };
}

/** Writes a failed sign-in's audit entry: whose account was tried, from where. */
async function recordFailure(
  deps: Pick<AppDeps, "kv" | "clock">,
  who: Pick<Actor, "kind" | "id" | "name">,
  caller: Caller,
): Promise<void> {
  const actor: Actor = {
    ...who,
    role: who.kind === "owner" ? "owner" : "staff",
    from: caller.client,
  };
  const entry = auditEntry(deps.clock, actor, {
    kind: "sign_in",
    action: "sign_in.failed",
    target: who.name,
  });
  await auditInto(deps.kv.atomic(), entry).commit();
}
