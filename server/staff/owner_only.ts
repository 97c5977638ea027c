/**
 * The owner's own actions (staff, everyone's sessions), refused to every other role with a 403
 * that names the role needed: the caller is signed in, so a 401 would only make a script retry
 * its credentials.
 */
import { ROLE_LABELS } from "../../shared/roles.ts";
import type { Actor } from "../audit/actor.ts";
import { Forbidden } from "../errors.ts";

/** Throws Forbidden unless `actor` has the owner role; `what` says what was refused. */
export function requireOwnerRole(actor: Actor, what: string): void {
  if (actor.role !== "owner") {
    throw new Forbidden(`${what} needs the ${ROLE_LABELS.owner} role.`);
  }
}
