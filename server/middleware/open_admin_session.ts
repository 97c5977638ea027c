/**
 * Opens a dashboard session for an account whose sign-in is complete (the password, and a second
 * factor when one is owed): the session records the device and address the Security tab lists,
 * the sign-in's audit entry commits with it, and the cookie is set.
 */
import type { Context } from "hono";
import type { AppDeps } from "../deps.ts";
import { auditEntry } from "../audit/log.ts";
import { Unauthorized } from "../errors.ts";
import { createAdminSession, OWNER_ACCOUNT } from "../accounts/admin_sessions.ts";
import { deviceName } from "../accounts/device_name.ts";
import { markSeen } from "../staff/staff_accounts.ts";
import { actorOfAccount } from "../staff/session_actor.ts";
import { clientKey } from "./client_key.ts";
import { setAdminCookie } from "./admin_auth.ts";

/** Starts `accountId`'s session and sets its cookie; 401 when the member is gone meanwhile. */
export async function openAdminSession(
  c: Context,
  deps: Pick<AppDeps, "kv" | "clock" | "config">,
  accountId: string,
): Promise<void> {
  const { kv, clock, config } = deps;
  const from = clientKey(c);
  const actor = await actorOfAccount(kv, accountId, from);
  if (!actor) throw new Unauthorized("Invalid email or password");
  const entry = auditEntry(clock, actor, {
    kind: "sign_in",
    action: "sign_in",
    target: actor.name,
  });
  const token = await createAdminSession(
    kv,
    clock,
    { accountId, device: deviceName(c.req.header("User-Agent")), address: from },
    entry,
  );
  if (accountId !== OWNER_ACCOUNT) await markSeen(kv, accountId, clock.now());
  setAdminCookie(c, config.production, token);
}
