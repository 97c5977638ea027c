/**
 * Changes to the shape of stored data, numbered and applied once each, at start before the shop
 * serves (a marker key per migration records it). A migration must be safe to run again after
 * a crash in its middle: each writes with checks and skips what is already in the new shape.
 */
import type { Clock } from "../clock.ts";
import { storedPaymentKind } from "../payments/provider.ts";
import type { InboxEntry } from "../payments/inbox.ts";
import type { Order } from "../orders/order.ts";
import { orderListing } from "../orders/store.ts";
import { keys } from "../kv/keys.ts";
import { countHeldAsReserved } from "../stock/store.ts";
import { commitStockChange } from "../kv/version.ts";
import type { StockKey } from "../../shared/bom.ts";
import { type PromoRecord, promoRecord } from "../promos/store.ts";
import { mailboxOf } from "../email/mailbox.ts";
import type { StockAlert } from "../stock/back_in_stock/store.ts";
import { type AlertAddress, CONFIRM_LINK_MS } from "../stock/back_in_stock/confirmation_rules.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { PRODUCTS } from "../../shared/catalog/products.ts";
import type { PackRecord, ProductRecord, SwitchRecord } from "../catalog/store.ts";
import { deleteUnusedImages } from "../catalog/image_store.ts";
import { editAsAuditEntry, type EditRecord } from "../catalog/history.ts";
import { auditInto } from "../audit/log.ts";

/** A back-in-stock address's record before migration 9. */
interface LegacyAlertAddress {
  confirmedAt: number | null;
  lastSentAt: number | null;
}

/** A back-in-stock sign-up held back before migration 9. */
type LegacySignUp = Omit<StockAlert, "pending"> & { pending: true };

interface Migration {
  id: number;
  name: string;
  run(kv: Deno.Kv, clock: Clock): Promise<void>;
}

const MIGRATIONS: Migration[] = [
  {
    id: 1,
    name: "stock-reserved",
    // Stock records were { stock, used } with held units taken out of `stock`. Now `stock` is the
    // shelf (held units included) and `reserved` counts the held ones: put every held unit back
    // on the shelf and count it as reserved.
    async run(kv, clock) {
      const held = new Map<StockKey, number>();
      for await (const { value: order } of kv.list<Order>({ prefix: keys.orders() })) {
        if (order.reservation?.state !== "held") continue;
        for (const [key, n] of order.reservation.items) held.set(key, (held.get(key) ?? 0) + n);
      }
      await countHeldAsReserved(kv, held, clock.now());
    },
  },
  {
    id: 2,
    name: "promo-limits",
    // Promo codes were { code, percentOff, active }. They now carry an amount off, dates, use
    // limits and a minimum subtotal (null: none), and when they were made and last changed.
    async run(kv, clock) {
      for await (const listed of kv.list<Partial<PromoRecord>>({ prefix: keys.promos() })) {
        for (let entry = listed; entry.value && !("maxUses" in entry.value);) {
          const old = entry.value;
          const next = promoRecord({
            code: String(entry.key[1]),
            percentOff: old.percentOff ?? null,
            active: old.active ?? false,
          }, clock.now());
          if ((await kv.atomic().check(entry).set(entry.key, next).commit()).ok) break;
          entry = await kv.get<Partial<PromoRecord>>(entry.key) as typeof entry;
        }
      }
    },
  },
  {
    id: 3,
    name: "catalogue-owned",
    // The catalogue became the owner's: switches carry `retired`, products `onSale` and their
    // bill of materials as data, and each pack has a record of its own (title, description, its
    // ten switches), which the pack pages read instead of the compiled catalogue. What the store
    // holds wins over the code: a pack's switches are the ones its product sells.
    async run(kv, clock) {
      await upgradeEach<SwitchRecord>(
        kv,
        clock,
        keys.switches(),
        (old) => typeof old.retired === "boolean" ? null : { ...old, retired: false },
      );
      await upgradeEach<ProductRecord>(kv, clock, keys.products(), (old) => {
        if (typeof old.onSale === "boolean" && old.bom) return null;
        const bom = old.bom ?? PRODUCTS.find((p) => p.id === old.id)?.bom;
        return bom ? { ...old, bom, onSale: old.onSale ?? true } : null;
      });
      for (const [position, pack] of PACKS.entries()) {
        const plain = (await kv.get<ProductRecord>(keys.product(pack.id))).value;
        if (!plain) continue; // a store seeded before products existed gets today's seed
        const record: PackRecord = {
          ...pack,
          title: plain.name,
          switchIds: plain.bom?.kind === "pack" ? [...plain.bom.switchIds] : pack.switchIds,
          onSale: plain.onSale,
          position,
          updatedAt: clock.now(),
        };
        const absent = kv.atomic().check({ key: keys.pack(pack.id), versionstamp: null })
          .set(keys.pack(pack.id), record);
        // A failed check means a record exists already, which is the new shape.
        await commitStockChange(kv, absent, clock.now());
      }
    },
  },
  {
    id: 4,
    name: "orders-by-time",
    // The admin's list pages over an index of orders by creation time. Each entry is written
    // against the order it was read from, so an order changed meanwhile (which writes its own
    // entry) is left as that write made it.
    async run(kv) {
      for await (const entry of kv.list<Order>({ prefix: keys.orders() })) {
        const indexKey = keys.orderByTime(entry.value.createdAt, entry.value.orderNumber);
        await kv.atomic().check(entry).set(indexKey, orderListing(entry.value)).commit();
      }
    },
  },
  {
    id: 5,
    name: "promo-mailboxes",
    // Per-email promo uses were counted per address as typed (lower case); now per mailbox
    // (mailboxOf: +tags and Gmail's dots ignored). Uses counted under other spellings of one
    // mailbox are added to its count, and checkouts holding a use under one move to the mailbox's
    // holds with their orders' record of it, so paying gives back or counts the right one. Each
    // move is one checked write, read again when another writer got there first.
    async run(kv) {
      for await (const listed of kv.list<Deno.KvU64>({ prefix: ["promo_email_uses"] })) {
        const [, code, email] = listed.key as [string, string, string];
        const mailbox = mailboxOf(email);
        if (mailbox === email) continue;
        for (let entry: Deno.KvEntryMaybe<Deno.KvU64> = listed; entry.value;) {
          const n = entry.value instanceof Deno.KvU64 ? entry.value.value : 0n;
          const moved = await kv.atomic().check(entry).delete(entry.key)
            .sum(keys.promoEmailUses(code, mailbox), n).commit();
          if (moved.ok) break;
          entry = await kv.get<Deno.KvU64>(entry.key);
        }
      }
      for await (const listed of kv.list<string[]>({ prefix: ["promo_email_holds"] })) {
        const [, code, email] = listed.key as [string, string, string];
        const mailbox = mailboxOf(email);
        if (mailbox === email) continue;
        for (;;) {
          const [entry, target] = await kv.getMany<[string[], string[]]>([
            listed.key,
            keys.promoEmailHolds(code, mailbox),
          ]);
          if (!entry.value) break;
          const orders = await Promise.all(entry.value.map((n) => kv.get<Order>(keys.order(n))));
          const op = kv.atomic().check(entry, target).delete(entry.key)
            .set(target.key, [...new Set([...(target.value ?? []), ...entry.value])]);
          for (const order of orders) {
            const hold = order.value?.promoHold;
            if (hold?.email !== email) continue;
            op.check(order).set(order.key, {
              ...order.value,
              promoHold: { ...hold, email: mailbox },
            });
          }
          if ((await op.commit()).ok) break;
        }
      }
    },
  },
  {
    id: 6,
    name: "payment-kinds",
    // Payments were of kind "checkout_session" or "payment_intent" (the first provider's object
    // names); the shop now names them "hosted" and "embedded". Orders and the events waiting in
    // the inbox carry a kind; stop jobs already queued are read through the same rule when they
    // run (server/orders/stops.ts), since a queued message cannot be rewritten.
    async run(kv, clock) {
      await upgradeEach<Order>(kv, clock, keys.orders(), (order) => {
        const kind = order.payment && storedPaymentKind(order.payment.kind);
        return kind && kind !== order.payment!.kind
          ? { ...order, payment: { ...order.payment!, kind } }
          : null;
      });
      await upgradeEach<InboxEntry>(kv, clock, keys.paymentInboxAll(), (entry) => {
        const paymentKind = storedPaymentKind(entry.event.paymentKind);
        return paymentKind !== entry.event.paymentKind
          ? { ...entry, event: { ...entry.event, paymentKind } }
          : null;
      });
    },
  },
  {
    id: 7,
    name: "unused-images",
    // Replaced and removed uploads were kept, chunks and all, though nothing showed them (180 MB
    // after 172 uploads). Now the write that stops the last record showing an image deletes it;
    // this deletes those kept before.
    async run(kv) {
      await deleteUnusedImages(kv);
    },
  },
  {
    id: 8,
    name: "stock-alert-spellings",
    // Back-in-stock sign-ups now wait for their address to confirm. Those made before stay in
    // force: a shopper asked for them, and re-asking would mail every address unprompted. But a
    // mailbox signed up under more than one spelling (+tags, Gmail's dots) is what flooding a
    // stranger looked like, and no shopper needs it: those sign-ups wait for a confirmation that
    // is never sent, so they mail nobody, and the next check drops them once a week old (unless
    // that spelling signs up again and confirms).
    async run(kv) {
      const spellings = new Map<string, Set<string>>();
      for await (const { value } of kv.list<StockAlert>({ prefix: keys.stockAlerts() })) {
        const mailbox = mailboxOf(value.email);
        spellings.set(mailbox, (spellings.get(mailbox) ?? new Set()).add(value.email));
      }
      const many = new Set([...spellings].filter(([, s]) => s.size > 1).map(([m]) => m));
      for await (const listed of kv.list<StockAlert>({ prefix: keys.stockAlerts() })) {
        if (!many.has(mailboxOf(listed.value.email))) continue;
        for (let entry: Deno.KvEntryMaybe<StockAlert> = listed; entry.value;) {
          if (entry.value.pending !== undefined) break;
          // Waiting in the first round of its address: its next confirmation puts it in force.
          const held = { ...entry.value, pending: 0 };
          if ((await kv.atomic().check(entry).set(entry.key, held).commit()).ok) break;
          entry = await kv.get<StockAlert>(entry.key);
        }
      }
    },
  },
  {
    id: 9,
    name: "stock-alert-rounds",
    // A confirmed address used to put in force every later sign-up of it, whoever made it. Now a
    // pending sign-up waits in a round of its address that only a confirmation closes, and the
    // address's record says no more that it "confirmed". Old pending sign-ups (`pending: true`)
    // of a confirmed address were in force already: they are made so for good; the others wait
    // in round 0. Old records keep their last send (the hourly cap) and learn their live link;
    // the confirmation they held is dropped. Sign-ups a stranger already added to a confirmed
    // address stay: nothing tells them from the owner's (each alert can be unsubscribed).
    async run(kv) {
      const records = new Map<string, Deno.KvEntry<LegacyAlertAddress>>();
      for await (
        const entry of kv.list<LegacyAlertAddress>({ prefix: keys.stockAlertAddresses() })
      ) {
        records.set(entry.key[1] as string, entry);
      }
      for await (
        const listed of kv.list<StockAlert | LegacySignUp>({ prefix: keys.stockAlerts() })
      ) {
        for (let entry: Deno.KvEntryMaybe<StockAlert | LegacySignUp> = listed; entry.value;) {
          if (entry.value.pending !== true) break;
          const { pending: _, ...rest } = entry.value;
          const confirmed = records.get(entry.value.email)?.value.confirmedAt != null;
          const next: StockAlert = confirmed ? rest : { ...rest, pending: 0 };
          if ((await kv.atomic().check(entry).set(entry.key, next).commit()).ok) break;
          entry = await kv.get<StockAlert | LegacySignUp>(entry.key);
        }
      }
      const links = new Map<string, { token: string; expiresAt: number }>();
      for await (
        const { key, value } of kv.list<{ email: string; expiresAt: number }>({
          prefix: keys.stockAlertConfirms(),
        })
      ) {
        const known = links.get(value.email);
        if (!known || known.expiresAt < value.expiresAt) {
          links.set(value.email, { token: key[1] as string, expiresAt: value.expiresAt });
        }
      }
      for (const [email, entry] of records) {
        if ("round" in entry.value) continue;
        const next: AlertAddress = {
          round: 0,
          link: links.get(email) ?? null,
          lastSentAt: entry.value.lastSentAt ?? null,
        };
        await kv.atomic().check(entry).set(entry.key, next, { expireIn: CONFIRM_LINK_MS }).commit();
      }
    },
  },
  {
    id: 10,
    name: "catalogue-history-audited",
    // The catalogue's history became a view of the audit log. Each edit recorded before is moved
    // into the log, in one write with its deletion (checked, so a crash or a second run moves it
    // once): the owner made them all, as the one account the dashboard had, from an address no
    // edit kept.
    async run(kv) {
      await moveEditsToAudit(kv);
    },
  },
];

/** Where an edit recorded before the audit log was made from: no edit kept it. */
export const UNKNOWN_ADDRESS = "unknown";

/** Moves every edit of the old catalogue history into the audit log, as the owner's. */
export async function moveEditsToAudit(kv: Deno.Kv): Promise<void> {
  const owner = { kind: "owner" as const, id: "owner", name: "Owner" };
  for await (const entry of kv.list<EditRecord>({ prefix: keys.edits() })) {
    const op = kv.atomic().check(entry).delete(entry.key);
    auditInto(op, editAsAuditEntry(entry.value, owner, UNKNOWN_ADDRESS));
    // A failed check: another run moved it already.
    await op.commit();
  }
}

/**
 * Rewrites each record under `prefix` that `upgrade` changes (null: already in the new shape),
 * each checked against what was read and read again when another writer got there first.
 */
async function upgradeEach<T>(
  kv: Deno.Kv,
  clock: Clock,
  prefix: Deno.KvKey,
  upgrade: (old: T) => T | null,
): Promise<void> {
  for await (const listed of kv.list<T>({ prefix })) {
    for (let entry: Deno.KvEntryMaybe<T> = listed; entry.value !== null;) {
      const next = upgrade(entry.value);
      if (next === null) break;
      const op = kv.atomic().check(entry).set(entry.key, next);
      if (await commitStockChange(kv, op, clock.now())) break;
      entry = await kv.get<T>(entry.key);
    }
  }
}

/** What `migrate` did. */
export interface MigrationRun {
  /** The ids of the migrations it ran. */
  applied: number[];
  /**
   * The store held nothing (a new shop's first start): its markers were all written at once, and
   * the seed may write without reading each key first (`setMissing`).
   */
  newStore: boolean;
}

/** Applies every migration not applied yet, in order. */
export async function migrate(kv: Deno.Kv, clock: Clock): Promise<MigrationRun> {
  if (await markedDoneIfEmpty(kv, clock)) return { applied: [], newStore: true };
  const applied: number[] = [];
  for (const migration of MIGRATIONS) {
    const marker = markerOf(migration);
    if ((await kv.get(marker)).versionstamp) continue;
    await migration.run(kv, clock);
    await kv.set(marker, { at: clock.now() });
    applied.push(migration.id);
  }
  return { applied, newStore: false };
}

function markerOf(migration: Migration): Deno.KvKey {
  return keys.migration(`${migration.id}-${migration.name}`);
}

/**
 * A store with nothing in it has nothing to migrate (only older code wrote older shapes): its
 * migrations are all marked done in one write, where running them one by one cost two round trips
 * each (a new shop's first start; every test's fresh store). False when the store holds anything,
 * or another process marked them first.
 */
async function markedDoneIfEmpty(kv: Deno.Kv, clock: Clock): Promise<boolean> {
  for await (const _ of kv.list({ prefix: [] }, { limit: 1 })) return false;
  // One check and one set per migration: an atomic write takes 100 checks, ten times today's count.
  const op = kv.atomic();
  for (const migration of MIGRATIONS) {
    const marker = markerOf(migration);
    op.check({ key: marker, versionstamp: null }).set(marker, { at: clock.now() });
  }
  return (await op.commit()).ok;
}
