/**
 * "Require a second factor for all staff": a staff member without one, while the owner requires
 * it, may sign in, but the session opens only what setting one up needs (the factor routes and
 * the session view); everything else is refused with 403 until a factor is added. Judged on
 * every request from the account's factors, not stored in the session, so the restriction starts
 * the moment the owner turns it on and ends the moment the member adds a factor.
 */
import { Forbidden } from "../errors.ts";
import type { Actor } from "../audit/actor.ts";
import { accountHasSecondFactor } from "./second_factors.ts";
import { securitySettings } from "./security_settings.ts";

/** The message of a refused request from a session that must set up a factor first. */
export const ENROL_FIRST =
  "Set up a second factor first: the owner requires one for every staff account.";

/** Whether `accountId` must set up a second factor before anything else. */
export async function mustEnrol(kv: Deno.Kv, accountId: string): Promise<boolean> {
  if (accountId === "owner") return false;
  if (!(await securitySettings(kv)).requireStaffSecondFactor) return false;
  return !(await accountHasSecondFactor(kv, accountId));
}

/** Admin paths (under /api/admin) a session that must enrol may still use. */
export function enrolmentPath(path: string): boolean {
  return /^\/api\/admin\/(factors(\/.*)?|session|logout)$/.test(path);
}

/** Refuses `actor`'s request to `path` while the account must set up a second factor. */
export async function refuseUntilEnrolled(
  kv: Deno.Kv,
  actor: Actor,
  path: string,
): Promise<void> {
  if (actor.kind !== "staff" || enrolmentPath(path)) return;
  if (await mustEnrol(kv, actor.id)) throw new Forbidden(ENROL_FIRST);
}
