/**
 * Low-stock emails to the owner. A stock write that takes a component's available units to its
 * level or below records an alert in the same atomic write (server/db/stock.ts); here each alert
 * becomes one email, queued and the alert deleted in one write, so a retried job sends nothing
 * twice.
 */
import { escapeHtml } from "../../shared/html.ts";
import type { Email } from "../email/mailer.ts";
import { keys } from "../kv/keys.ts";
import type { LowStockAlert, LowStockJob } from "./store.ts";
import { stockKeyNames } from "./names.ts";
import { type MailDeps, queueEmailInto } from "../email/outbox.ts";

/** The store, the time, and the shop's addresses its emails carry. */
type Deps = Pick<MailDeps, "kv" | "clock" | "config">;

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

function paragraphs(lines: string[]): string {
  return lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("\n");
}

/** The owner's note that a component runs low (once per fall, see server/stock/low_stock.ts). */
function lowStockEmail(
  name: string,
  alert: { available: number; lowStockAt: number },
  origin: string,
  shopEmail: string,
): Email {
  const lines = [
    alert.available === 0
      ? `${name} is out of stock: no units are left to sell.`
      : `${name} is running low: ${alert.available} ${
        alert.available === 1 ? "unit is" : "units are"
      } left to sell (your low-stock level is ${alert.lowStockAt}).`,
    "You will not be told again until it is restocked above that level.",
  ];
  return {
    to: shopEmail,
    subject: `Low stock: ${name} (${alert.available} left)`,
    text: [...lines, "", `Update the inventory: ${origin}/admin`].join("\n"),
    html: [
      paragraphs(lines),
      `<p><a href="${escapeHtml(`${origin}/admin`)}">Update the inventory</a></p>`,
    ]
      .join("\n"),
  };
}
