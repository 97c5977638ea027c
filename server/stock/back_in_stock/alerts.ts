/**
 * "Email me when it's back" (docs/decisions.md#back-in-stock-alerts). A shopper signs up for an
 * out-of-stock switch, pack or item; when it can be bought again each waiting shopper gets one
 * email, and another only after it sold out and came back. Stock writes that free units or sell
 * something out queue a check (server/stock/store.ts); the check compares every sign-up with the
 * stock and emails in the same atomic write that marks the sign-up told. Only sign-ups whose
 * address confirmed after they were made (or a signed-in shopper's own) are emailed: anyone can
 * type anyone's address, and an address that confirmed once must not be signed up for more.
 */
import { bomOf, type StockKey, switchKey, unitsAvailable } from "../../../shared/bom.ts";
import { InvalidInput, NotFound } from "../../errors.ts";
import { randomId } from "../../crypto.ts";
import { keys } from "../../kv/keys.ts";
import { productSnapshot, switchSnapshot } from "../../catalog/store.ts";
import { listStock, stockSnapshot } from "../store.ts";
import { availableOf } from "../record.ts";
import {
  type AddressReads,
  dropIfUnconfirmed,
  inForceOf,
  mayEmail,
  type SignUpStored,
  type StockAlert,
  storeSignUp,
} from "./store.ts";
import { type MailDeps, queueEmailInto } from "../../email/outbox.ts";
import { backInStockEmail, confirmationEmail } from "./email.ts";

/** The store, the time, and the shop's addresses its emails carry. */
type Deps = Pick<MailDeps, "kv" | "clock" | "config">;

/** What a sign-up waits for. */
export type AlertTarget = { switchId: number } | { productId: number };

/** The unsubscribe page of a sign-up (served by server/routes/stock_alerts.ts). */
export function unsubscribeUrl(origin: string, token: string): string {
  return `${origin}/stock-alerts/unsubscribe?token=${token}`;
}

/** The confirmation page of an address (served by server/routes/stock_alerts.ts). */
export function confirmUrl(origin: string, token: string): string {
  return `${origin}/stock-alerts/confirm?token=${token}`;
}

interface Described {
  name: string;
  path: string;
  /** Can be bought now. */
  available: boolean;
  /** Retired or off sale: nobody is told about it. */
  gone: boolean;
}

/**
 * What a subject is and whether it can be bought now, given the free units of every component
 * (`stock`): the stock version's snapshot for a sign-up, a fresh read for the emails.
 */
async function describe(
  kv: Deno.Kv,
  subject: string,
  stock: ReadonlyMap<StockKey, number>,
): Promise<Described | null> {
  const [kind, raw] = subject.split(":");
  const id = Number(raw);
  const [switches, products] = await Promise.all([switchSnapshot(kv), productSnapshot(kv)]);
  if (kind === "switch") {
    const s = switches.get(id);
    if (!s) return null;
    return {
      name: `${s.brand} ${s.name} switch`,
      path: "/testers/custom",
      available: (stock.get(switchKey(id)) ?? 0) > 0,
      gone: s.retired,
    };
  }
  const p = products.get(id);
  if (!p) return null;
  return {
    name: p.name,
    path: p.path ?? "/shop",
    available: unitsAvailable(bomOf(p.bom), (k) => stock.get(k) ?? 0) > 0,
    gone: !p.onSale,
  };
}

/**
 * Signs `email` up for `target`; the same sign-up twice is one. `own`: the signed-in shopper's own
 * address, in force at once; any other waits for its address to confirm again, even if it did
 * before (a confirmation is emailed when the rules allow). The caller answers the same whatever
 * was sent.
 */
export async function signUp(
  deps: Deps,
  email: string,
  target: AlertTarget,
  origin: string,
  own: boolean,
): Promise<SignUpStored> {
  const subject = "switchId" in target
    ? `switch:${target.switchId}`
    : `product:${target.productId}`;
  const described = await describe(deps.kv, subject, await stockSnapshot(deps.kv));
  if (!described) {
    throw new NotFound("switchId" in target ? "No such switch" : "No such product");
  }
  if (described.gone) {
    throw new InvalidInput(`${described.name} is no longer sold, so it will not be back in stock.`);
  }
  const shopOrigin = deps.config.publicUrl ?? origin;
  const now = deps.clock.now();
  const alert: StockAlert = {
    subject,
    email,
    token: randomId(24),
    origin: shopOrigin,
    createdAt: now,
    notified: false,
  };
  return await storeSignUp(deps.kv, alert, {
    own,
    now,
    confirmation: (token) =>
      confirmationEmail(email, described.name, confirmUrl(shopOrigin, token)),
  });
}

/**
 * Compares every sign-up with the stock: one email to each shopper whose item can be bought again
 * and who was not told since it last sold out; a sold-out item makes its sign-ups ready to be told
 * again. Answers how many emails were queued.
 */
export async function sendStockAlerts(deps: Deps): Promise<number> {
  const { kv, clock } = deps;
  const described = new Map<string, Described | null>();
  // Read fresh, not from this process's view of the stock version: a view another process's
  // sale has not reached yet would say "back" and "sold out" in turns with that process, and
  // each "back" is an email.
  let stock: Map<StockKey, number> | null = null;
  let sent = 0;
  const reads: AddressReads = new Map();
  for await (const entry of kv.list<StockAlert>({ prefix: keys.stockAlerts() })) {
    const alert = entry.value;
    if (!await mayEmail(kv, alert, reads)) {
      // Not confirmed a link's life after it was made, and no live link left that could: nobody
      // asked for it, so it is kept no longer.
      await dropIfUnconfirmed(kv, entry, reads, clock.now());
      continue;
    }
    if (!described.has(alert.subject)) {
      stock ??= new Map([...await listStock(kv)].map(([k, r]) => [k, availableOf(r)]));
      described.set(alert.subject, await describe(kv, alert.subject, stock));
    }
    const item = described.get(alert.subject);
    // Nothing is told while a switch is retired or a product off sale, but a sell-out meanwhile
    // is still recorded, so a return of what ran out is told once it is back in the shop; hiding
    // a listing that never ran out tells nobody again.
    const available = !!item && !item.gone && item.available;
    if (!item || (item.gone && item.available) || item.available === alert.notified) {
      // Confirmed while pending: in force for good, so it no longer needs its address's record
      // (which expires a week after the confirmation).
      if (alert.pending !== undefined) {
        await kv.atomic().check(entry).set(entry.key, inForceOf(alert)).commit();
      }
      continue;
    }
    const emails = (alert.emails ?? 0) + (available ? 1 : 0);
    const op = kv.atomic().check(entry).set(entry.key, {
      ...inForceOf(alert),
      notified: item.available,
      emails,
    });
    if (available) {
      const email = backInStockEmail(
        alert.email,
        item.name,
        `${alert.origin}${item.path}`,
        unsubscribeUrl(alert.origin, alert.token),
      );
      // Named by the sign-up and how many emails it had: unique for good, a backup and restore
      // included (versionstamps start again in a restored store).
      queueEmailInto(op, email, clock.now(), `back-in-stock:${alert.token}:${emails}`);
    }
    if ((await op.commit()).ok && available) sent++;
  }
  return sent;
}
