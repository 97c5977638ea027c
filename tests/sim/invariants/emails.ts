/**
 * Emails owed and emails sent. What the history owes is read from what happened: each order's
 * status changes (paid, printing, shipped, delivered, cancelled or refunded), each fall of a
 * component to the owner's low-stock level (replayed write by write from the stock log, with
 * the level the owner had set at that step), each password reset and contact message the shop
 * accepted, each return to stock a confirmed waiting shopper signed up for (and a confirmation
 * per sign-up at most). After every step no email was
 * sent that is not owed (nor twice); once the mail server is back and the queue has run, every
 * email owed was sent exactly once.
 */
import { SHOP_NAME } from "../../../shared/policy.ts";
import type { StockKey } from "../../../shared/bom.ts";
import { addTo, levelAt, type Model } from "../model.ts";
import type { View } from "../view.ts";
import { SHOP_EMAIL, Violation, type World } from "../world.ts";
import type { Email } from "../../../server/email/mailer.ts";
import { refundKey } from "../../../server/orders/refunds.ts";

/** Owed emails: how many of each kind, to whom (a range for back-in-stock emails). */
interface Owed {
  to: string;
  min: number;
  max: number;
}

const SHOP = SHOP_NAME.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What a sent email is, as a key of the owed list, from its subject. */
const KINDS: [RegExp, (m: RegExpMatchArray, e: Email) => string][] = [
  [new RegExp(`^${SHOP}: order (ST\\w+) confirmed$`), (m) => `confirm:${m[1]}`],
  [/^New order (ST\w+): /, (m) => `owner-order:${m[1]}`],
  [new RegExp(`^${SHOP}: we're printing order (ST\\w+)$`), (m) => `printing:${m[1]}`],
  [new RegExp(`^${SHOP}: order (ST\\w+) has shipped$`), (m) => `shipped:${m[1]}`],
  [new RegExp(`^${SHOP}: order (ST\\w+) delivered$`), (m) => `delivered:${m[1]}`],
  [new RegExp(`^${SHOP}: order (ST\\w+) cancelled$`), (m) => `cancelled:${m[1]}`],
  [/^Order (ST\w+) cancelled: /, (m) => `owner-cancelled:${m[1]}`],
  [/^Low stock: (.+) \(\d+ left\)$/, (m) => `low:${m[1]}`],
  [new RegExp(`^${SHOP}: reset your password$`), (_m, e) => `reset:${e.to}`],
  [new RegExp(`^${SHOP}: (.+) is back in stock$`), (m, e) => `back:${e.to}:${m[1]}`],
  [new RegExp(`^${SHOP}: confirm back-in-stock emails$`), (_m, e) => `back-confirm:${e.to}`],
  [/^Contact: /, () => "contact"],
  [/^Emails are not going out$/, () => "mail-failing"],
  [/^Refund for order (ST\w+) needs you$/, (m) => `refund-refused:${m[1]}`],
];

/** The owed-list key of a sent email, or null for an email the simulation cannot name. */
export function kindOf(email: Email): string | null {
  for (const [pattern, key] of KINDS) {
    const m = email.subject.match(pattern);
    if (m) return key(m, email);
  }
  return null;
}

/** Names of stock keys as low-stock emails spell them. */
export type StockNames = Map<StockKey, string>;

/** Every email the history owes so far. */
export function owedEmails(model: Model, view: View, world: World, names: StockNames) {
  const owed = new Map<string, Owed>();
  const owe = (key: string, to: string, n = 1) => {
    const o = owed.get(key) ?? { to, min: 0, max: 0 };
    o.min += n;
    o.max += n;
    owed.set(key, o);
  };
  for (const order of view.orders.values()) {
    const n = order.orderNumber;
    const reached = new Set(order.history.map((h) => h.status));
    const to = order.email;
    if (reached.has("PAYMENT_RECEIVED")) {
      owe(`owner-order:${n}`, SHOP_EMAIL);
      if (to) owe(`confirm:${n}`, to);
    }
    if (to && reached.has("PROCESSING")) owe(`printing:${n}`, to);
    if (to && reached.has("SHIPPED")) owe(`shipped:${n}`, to);
    if (to && reached.has("DELIVERED")) owe(`delivered:${n}`, to);
    // A cancellation that gives money back, by anyone or by the shop itself, is told to both.
    if (order.status === "CANCELLED" && order.refund) {
      owe(`owner-cancelled:${n}`, SHOP_EMAIL);
      if (to) owe(`cancelled:${n}`, to);
    }
  }
  const replay = replayOf(model, world);
  for (const [key, falls] of replay.falls) {
    owe(`low:${names.get(key) ?? key}`, SHOP_EMAIL, falls);
  }
  for (const [to, n] of model.resetsOwed) owe(`reset:${to}`, to, n);
  if (model.contactsOwed > 0) owe("contact", SHOP_EMAIL, model.contactsOwed);
  for (const [key, range] of backInStock(model, view, replay)) owed.set(key, range);
  // At most one per sign-up while unconfirmed, and none owed for sure: the shop holds back
  // repeats (one an hour per address, three a day per mailbox).
  for (const [to, n] of model.alertConfirmations) {
    owed.set(`back-confirm:${to}`, { to, min: 0, max: n });
  }
  const outages = longOutages(world);
  if (outages > 0) owe("mail-failing", SHOP_EMAIL, outages);
  for (const orderNumber of longRefusals(world)) owe(`refund-refused:${orderNumber}`, SHOP_EMAIL);
  return owed;
}

/**
 * Refunds the provider kept refusing: from its own log of refund calls, a refund is owed one
 * email to the owner when a call still fails an hour after its first refused one (before any
 * accepted call).
 */
function longRefusals(world: World): string[] {
  const first = new Map<string, number>();
  const done = new Set<string>();
  const owed = new Set<string>();
  for (const attempt of world.providerLog.attempts) {
    if (attempt.call !== "refund" || !attempt.key) continue;
    const orderNumber = attempt.key.slice(refundKey("").length);
    if (done.has(orderNumber)) continue;
    if (attempt.ok) {
      done.add(orderNumber);
      continue;
    }
    const since = first.get(orderNumber) ?? attempt.at;
    first.set(orderNumber, since);
    if (attempt.at - since >= 60 * 60_000) owed.add(orderNumber);
  }
  return [...owed];
}

/**
 * Outages of the mail server the owner must hear of: from the server's own log of attempts, an
 * outage runs from a failed attempt to the next accepted one, and is owed one email when an
 * attempt still fails half an hour after it began.
 */
function longOutages(world: World): number {
  let since: number | null = null;
  let told = false;
  let owed = 0;
  for (const attempt of world.mailer.attempts) {
    if (attempt.ok) {
      since = null;
      told = false;
    } else if (since === null) since = attempt.at;
    else if (!told && attempt.at - since >= 30 * 60_000) {
      told = true;
      owed++;
    }
  }
  return owed;
}

/**
 * The stock log replayed write by write in commit order, once per write (each check takes the
 * writes since the last one): falls of each component to the owner's level, and each
 * component's available units after every write.
 */
class StockReplay {
  #seen = 0;
  readonly #told = new Set<StockKey>();
  /** One email owed per fall: available at or below the level, after being above (or untold). */
  readonly falls = new Map<StockKey, number>();
  /** Available units after each write, with the step of the write. */
  readonly byKey = new Map<StockKey, { step: number; available: number }[]>();

  update(model: Model, world: World): this {
    const fresh = world.stockLog.slice(this.#seen)
      .sort((a, b) => a.epoch - b.epoch || (a.versionstamp < b.versionstamp ? -1 : 1));
    this.#seen = world.stockLog.length;
    for (const write of fresh) {
      const available = Math.max(0, write.record.stock - write.record.reserved);
      const history = this.byKey.get(write.key) ?? [];
      history.push({ step: write.step, available });
      this.byKey.set(write.key, history);
      const low = available <= levelAt(model, write.key, write.step);
      if (low && !this.#told.has(write.key)) {
        this.#told.add(write.key);
        addTo(this.falls, write.key, 1);
      } else if (!low) this.#told.delete(write.key);
    }
    return this;
  }
}

const replays = new WeakMap<World, StockReplay>();

/** The world's stock log replayed up to now. */
function replayOf(model: Model, world: World): StockReplay {
  let replay = replays.get(world);
  if (!replay) replays.set(world, replay = new StockReplay());
  return replay.update(model, world);
}

/**
 * Back-in-stock emails: a shopper who signed up for a sold-out switch, from an address that
 * confirmed after the sign-up, gets at most one email per return to stock since the sign-up, and
 * at least one when it is back once the world has healed; a sign-up never confirmed gets none.
 */
function backInStock(model: Model, view: View, replay: StockReplay): Map<string, Owed> {
  const owed = new Map<string, Owed>();
  // Signing up again for the same switch is the same sign-up: the first one counts.
  const first = new Map<string, Model["alerts"][number]>();
  for (const alert of model.alerts) {
    const k = `${alert.email.toLowerCase()} ${alert.switchId}`;
    if (!first.has(k)) first.set(k, alert);
  }
  for (const alert of first.values()) {
    // A sign-up its address never confirmed (a confirmation before it does not count) is owed
    // nothing, whoever made it.
    const confirmedAt = model.alertConfirmed.get(alert.email);
    if (confirmedAt === undefined || confirmedAt < alert.step) continue;
    const key: StockKey = `switch:${alert.switchId}`;
    let returns = 0;
    let was = 0;
    for (const w of replay.byKey.get(key) ?? []) {
      if (w.step < alert.step) continue;
      if (was === 0 && w.available > 0) returns++;
      was = w.available;
    }
    const record = view.stock.get(key);
    const availableNow = record ? Math.max(0, record.stock - record.reserved) : 0;
    const k = `back:${alert.email}:${alert.name} switch`;
    owed.set(k, { to: alert.email, min: availableNow > 0 && returns > 0 ? 1 : 0, max: returns });
  }
  return owed;
}

/** Sent emails by owed-list key, checking each went to the right address. */
function sentEmails(world: World, owed: Map<string, Owed>): Map<string, number> {
  const sent = new Map<string, number>();
  for (const email of world.mailer.sent) {
    const key = kindOf(email);
    if (!key) throw new Violation(`an email nobody owes was sent: "${email.subject}"`);
    const o = owed.get(key);
    if (o && o.to.toLowerCase() !== email.to.toLowerCase()) {
      throw new Violation(`"${email.subject}" went to ${email.to}, not ${o.to}`);
    }
    addTo(sent, key, 1);
  }
  return sent;
}

/** No email sent that is not owed, nor more often than owed (after every step). */
export function checkEmailsSoFar(model: Model, view: View, world: World, names: StockNames) {
  const owed = owedEmails(model, view, world, names);
  for (const [key, n] of sentEmails(world, owed)) {
    const max = owed.get(key)?.max ?? 0;
    if (n > max) {
      throw new Violation(
        max === 0
          ? `an email nobody owes was sent: ${key}`
          : `${key} was emailed ${n} times, owed ${max}`,
      );
    }
  }
}

/** Every email owed was sent exactly once (the world healed, the queue ran). */
export function checkEmailsSettled(model: Model, view: View, world: World, names: StockNames) {
  const owed = owedEmails(model, view, world, names);
  const sent = sentEmails(world, owed);
  for (const [key, o] of owed) {
    const n = sent.get(key) ?? 0;
    if (n < o.min || n > o.max) {
      throw new Violation(
        `${key} was emailed ${n} times, owed ${o.min === o.max ? o.min : `${o.min} to ${o.max}`}`,
      );
    }
  }
  for (const [key, n] of sent) {
    if (!owed.has(key)) throw new Violation(`${key} was emailed ${n} times, owed none`);
  }
}

const COMPONENT_NAMES: [StockKey, string][] = [
  ["SMALL_BOX", "Small tester box"],
  ["LARGE_BOX", "Large tester box"],
  ["TRANSPARENT_KEYCAP", "Transparent keycaps"],
  ["RANDOM_KEYCAP", "Random keycaps"],
  ["CUBE_BODY", "Fidget cube body"],
];

const namesByWorld = new WeakMap<World, StockNames>();

/**
 * Names of the stock keys as low-stock emails spell them: read once per history, and again for a
 * switch the owner added since.
 */
export async function stockNames(model: Model, world: World): Promise<StockNames> {
  let names = namesByWorld.get(world);
  const needed = replayOf(model, world).falls.keys();
  if (!names || [...needed].some((k) => !names!.has(k))) {
    names = new Map(COMPONENT_NAMES);
    for await (
      const e of world.store.list<{ id: number; brand: string; name: string }>({
        prefix: ["catalog", "switch"],
      })
    ) {
      names.set(`switch:${e.value.id}`, `${e.value.brand} ${e.value.name}`);
    }
    namesByWorld.set(world, names);
  }
  return names;
}
