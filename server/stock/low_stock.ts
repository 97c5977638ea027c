/**
 * Low-stock emails to the owner. A stock write that takes a component's available units to its
 * level or below records an alert in the same atomic write (server/db/stock.ts); here each alert
 * becomes one email, queued and the alert deleted in one write, so a retried job sends nothing
 * twice.
 */
import type { AppDeps } from "../deps.ts";
import { keys } from "../kv/keys.ts";
import type { LowStockAlert, LowStockJob } from "../db/stock.ts";
import { stockKeyNames } from "../db/stock_names.ts";
import { queueEmailInto } from "../email/outbox.ts";
import { lowStockEmail } from "../email/templates.ts";

type Deps = Pick<AppDeps, "kv" | "clock" | "config">;

/** Emails one recorded alert (nothing when it was emailed already). */
export async function sendLowStockAlert(
  deps: Deps,
  alert: Deno.KvEntry<LowStockAlert>,
): Promise<void> {
  const { key } = alert.value;
  const name = (await stockKeyNames(deps.kv, [key])).get(key) ?? key;
  const origin = deps.config.publicUrl ?? "";
  const op = deps.kv.atomic().check(alert).delete(alert.key);
  queueEmailInto(
    op,
    lowStockEmail(name, alert.value, origin, deps.config.shopEmail),
    deps.clock.now(),
    // Named by the alert's own key (component, time, id): unique for good, a backup and restore
    // included, where versionstamps start again and would meet those of alerts sent before.
    `low-stock:${alert.key.slice(1).join(":")}`,
  );
  await op.commit();
}

/** Emails the alert a queue job names. */
export async function sendLowStockJob(deps: Deps, job: LowStockJob): Promise<void> {
  const entry = await deps.kv.get<LowStockAlert>(keys.lowStockAlert(job.key, job.at, job.id));
  if (entry.value) await sendLowStockAlert(deps, entry as Deno.KvEntry<LowStockAlert>);
}

/** Emails every recorded alert: at start (after a crash) and in tests. */
export async function sendLowStockAlerts(deps: Deps): Promise<number> {
  let sent = 0;
  for await (const entry of deps.kv.list<LowStockAlert>({ prefix: keys.lowStockAlerts() })) {
    await sendLowStockAlert(deps, entry);
    sent++;
  }
  return sent;
}
