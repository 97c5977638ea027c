/** Back-in-stock sign-ups in KV, by what they wait for and by their unsubscribe token. */
import { keys } from "../../kv/keys.ts";

/** One shopper waiting for one switch or product. */
export interface StockAlert {
  /** "switch:12" or "product:384". */
  subject: string;
  email: string;
  /** The unsubscribe link's secret. */
  token: string;
  /** The shop's address the sign-up came from, for the links in its email. */
  origin: string;
  createdAt: number;
  /** Emailed since it last became available: no second email until it sells out and returns. */
  notified: boolean;
  /** Emails sent to it so far (absent: none, or sent before this was counted). */
  emails?: number;
}

/** Stores a sign-up unless the same email already waits for the same thing; answers the stored one. */
export async function addStockAlert(kv: Deno.Kv, alert: StockAlert): Promise<StockAlert> {
  const key = keys.stockAlert(alert.subject, alert.email);
  for (;;) {
    const existing = await kv.get<StockAlert>(key);
    if (existing.value) return existing.value;
    const done = await kv.atomic().check(existing)
      .set(key, alert)
      .set(keys.stockAlertToken(alert.token), { subject: alert.subject, email: alert.email })
      .commit();
    if (done.ok) return alert;
  }
}

/** Removes the sign-up of an unsubscribe token; answers what it was for, or null. */
export async function removeStockAlert(
  kv: Deno.Kv,
  token: string,
): Promise<{ subject: string; email: string } | null> {
  const ref = await kv.get<{ subject: string; email: string }>(keys.stockAlertToken(token));
  if (!ref.value) return null;
  await kv.atomic()
    .delete(keys.stockAlert(ref.value.subject, ref.value.email))
    .delete(ref.key)
    .commit();
  return ref.value;
}

/** How many shoppers wait for each subject. */
export async function countStockAlerts(kv: Deno.Kv): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for await (const { value } of kv.list<StockAlert>({ prefix: keys.stockAlerts() })) {
    counts.set(value.subject, (counts.get(value.subject) ?? 0) + 1);
  }
  return counts;
}
