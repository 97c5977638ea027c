/**
 * What follows a right password: a session, or the second step when the account has a second
 * factor (a challenge bound to the account, sign_in_challenges.ts). A staff member without one,
 * while the owner requires them, gets a session that can only set one up (enrolment_gate.ts).
 */
import type { AppDeps } from "../deps.ts";
import { factorsOf, hasSecondFactor, methodsOf } from "./second_factors.ts";
import { openChallenge } from "./sign_in_challenges.ts";
import { mustEnrol } from "./enrolment_gate.ts";

/** The next step of a sign-in whose password was right. */
export type AfterPassword =
  | { next: "session"; mustEnrol?: true }
  | { next: "second_factor"; challenge: string; methods: string[] };

/** Decides the step after a right password for `accountId` ("owner" or a staff id). */
export async function afterPassword(
  deps: Pick<AppDeps, "kv" | "clock">,
  accountId: string,
): Promise<AfterPassword> {
  const factors = await factorsOf(deps.kv, accountId);
  if (hasSecondFactor(factors)) {
    return {
      next: "second_factor",
      challenge: await openChallenge(deps.kv, deps.clock, accountId),
      methods: methodsOf(factors),
    };
  }
  if (await mustEnrol(deps.kv, accountId)) return { next: "session", mustEnrol: true };
  return { next: "session" };
}
