/**
 * The owner's security settings: whether every staff member must have a second factor. Changed
 * with its audit entry in one write.
 */
import type { Clock } from "../clock.ts";
import { keys } from "../kv/keys.ts";
import { CONFLICT, withRetries } from "../kv/kv_util.ts";
import type { Actor } from "../audit/actor.ts";
import { auditEntry, auditInto } from "../audit/log.ts";

/** What the owner has set. */
export interface SecuritySettings {
  requireStaffSecondFactor: boolean;
}

const DEFAULTS: SecuritySettings = { requireStaffSecondFactor: false };

/** The settings in force (the defaults until the owner changes them). */
export async function securitySettings(kv: Deno.Kv): Promise<SecuritySettings> {
  const stored = (await kv.get<SecuritySettings>(keys.securitySettings())).value;
  return { ...DEFAULTS, ...stored };
}

/** Sets the settings; the audit log records what changed (nothing when nothing did). */
export function setSecuritySettings(
  kv: Deno.Kv,
  clock: Clock,
  actor: Actor,
  next: SecuritySettings,
): Promise<SecuritySettings> {
  return withRetries(
    async () => {
      const entry = await kv.get<SecuritySettings>(keys.securitySettings());
      const current = { ...DEFAULTS, ...entry.value };
      if (current.requireStaffSecondFactor === next.requireStaffSecondFactor) return current;
      const op = kv.atomic().check(entry).set(keys.securitySettings(), next);
      auditInto(
        op,
        auditEntry(clock, actor, {
          kind: "security",
          action: "settings.security",
          changes: {
            requireStaffSecondFactor: {
              from: current.requireStaffSecondFactor,
              to: next.requireStaffSecondFactor,
            },
          },
        }),
      );
      return (await op.commit()).ok ? next : CONFLICT;
    },
    "change the security settings",
    "security settings",
  );
}
