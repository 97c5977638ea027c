/**
 * What the store holds after a step, read straight from it (not through any shop process): the
 * records every invariant reads, in one pass.
 */
import { keys } from "../../server/kv/keys.ts";
import type { StockRecord } from "../../server/stock/record.ts";
import type { Order } from "../../server/orders/order.ts";
import type { DemoPayment } from "../../server/payments/demo/provider.ts";
import type { InboxEntry } from "../../server/payments/inbox.ts";
import type { OutboxEntry } from "../../server/email/outbox.ts";
import type { CartRecord } from "../../server/cart/store.ts";
import type { PromoRecord } from "../../server/promos/store.ts";
import type { ProductRecord } from "../../server/catalog/store.ts";
import type { AuditEntry } from "../../server/audit/log.ts";
import type { StockKey } from "../../shared/bom.ts";
import type { DropLedger, DropRecord, TicketRecord } from "../../server/drops/record.ts";
import type { Model } from "./model.ts";

/** The store as the invariants read it. */
export interface View {
  stock: Map<StockKey, StockRecord>;
  orders: Map<string, Order>;
  payments: DemoPayment[];
  inbox: InboxEntry[];
  outbox: OutboxEntry[];
  carts: Map<string, CartRecord | null>;
  promos: Map<string, PromoRecord>;
  /** Paid uses per code, and per code and (stored) email. */
  promoUses: Map<string, number>;
  promoHolds: Map<string, string[]>;
  promoEmailUses: Map<string, number>;
  promoEmailHolds: Map<string, string[]>;
  products: Map<number, ProductRecord>;
  /** The audit log, oldest first. */
  audit: AuditEntry[];
  /** Drops, their ledgers, and the units each person key holds or bought, by drop. */
  drops: Map<string, DropRecord>;
  dropLedgers: Map<string, DropLedger>;
  dropPersons: Map<string, Map<string, number>>;
  /** The places in each drop's line, by drop and ticket. */
  dropTickets: Map<string, Map<string, TicketRecord>>;
}

/** Where the view is read from: the world's store and its log of stock writes. */
export interface ViewSource {
  readonly store: Deno.Kv;
  /** Counts the stores restores have replaced. */
  readonly epoch: number;
  /** Every stock record every committed write set, in the order the commits answered. */
  readonly stockLog: readonly { key: StockKey }[];
  /** Every key every committed write wrote, in the order the commits answered. */
  readonly writeLog: readonly Deno.KvKey[];
  /** The stock as the last view read it, and how much of the log it had seen. */
  stockRead?: StockRead;
  /** The last listing of each prefix, and how much of the write log it had seen. */
  listed?: Listed;
}

/** Each prefix's entries as last listed (by the prefix's JSON), and where that was. */
export interface Listed {
  store: Deno.Kv;
  epoch: number;
  logged: number;
  entries: Map<string, Deno.KvEntry<unknown>[]>;
}

/** The stock records a view read, and the store and log position they were read at. */
export interface StockRead {
  store: Deno.Kv;
  epoch: number;
  logged: number;
  stock: Map<StockKey, StockRecord>;
}

/** Whether a reading made at `last` still stands for the store now, the log `logged` long. */
function stillStands(
  last: { store: Deno.Kv; epoch: number; logged: number } | undefined,
  source: ViewSource,
  logged: number,
): boolean {
  return last !== undefined && last.store === source.store && last.epoch === source.epoch &&
    last.logged <= logged;
}

/**
 * Lists `prefix` again only where a commit wrote under it since the last view: the others are as
 * they were (every write of the shop passes the instances' KV, which logs its keys, and the
 * world's own writes log theirs; a restore is a new epoch, listed whole). Listing the view's
 * sixteen prefixes after every step was most of what is left of its cost.
 */
function lister(source: ViewSource) {
  const { store, epoch } = source;
  const logged = source.writeLog.length;
  const last = source.listed;
  const valid = stillStands(last, source, logged);
  const written = valid ? source.writeLog.slice(last!.logged) : [];
  const entries = new Map<string, Deno.KvEntry<unknown>[]>();
  source.listed = { store, epoch, logged, entries };
  const under = (key: Deno.KvKey, prefix: Deno.KvKey) => prefix.every((part, i) => key[i] === part);
  return async function each<T>(prefix: Deno.KvKey, fn: (e: Deno.KvEntry<T>) => void) {
    const name = JSON.stringify(prefix);
    let listedNow = valid && !written.some((key) => under(key, prefix))
      ? last!.entries.get(name)
      : undefined;
    if (!listedNow) {
      listedNow = [];
      for await (const e of store.list({ prefix }, { batchSize: 500 })) listedNow.push(e);
    }
    entries.set(name, listedNow);
    for (const e of listedNow) fn(e as Deno.KvEntry<T>);
  };
}

function count(value: unknown): number {
  return value instanceof Deno.KvU64 ? Number(value.value) : Number(value ?? 0);
}

/**
 * The stock records now. A step that wrote none (most owner looks, cart edits, emails) reuses
 * the last reading, and one that wrote some reads those keys again: every write of a stock record
 * passes through the instances' KV, which logs it (sim_kv.ts), and a restore starts a new epoch,
 * read whole. Reading the 130 records after every step was a third of the simulation's time.
 * `stockReadWhole` reads them all, to check this reading against.
 */
async function readStock(source: ViewSource): Promise<Map<StockKey, StockRecord>> {
  const { store, epoch } = source;
  const logged = source.stockLog.length;
  const last = source.stockRead;
  let stock: Map<StockKey, StockRecord>;
  if (stillStands(last, source, logged)) {
    stock = new Map(last!.stock);
    const written = [...new Set(source.stockLog.slice(last!.logged).map((w) => w.key))];
    for (let i = 0; i < written.length; i += 10) {
      const batch = written.slice(i, i + 10);
      const entries = await store.getMany<StockRecord[]>(batch.map((k) => keys.stock(k)));
      batch.forEach((k, j) => {
        const value = entries[j].value;
        if (value === null) stock.delete(k);
        else stock.set(k, value);
      });
    }
  } else {
    stock = await stockReadWhole(store);
  }
  source.stockRead = { store, epoch, logged, stock };
  return new Map(stock);
}

/** Every stock record in the store, read afresh. */
export async function stockReadWhole(store: Deno.Kv): Promise<Map<StockKey, StockRecord>> {
  const stock = new Map<StockKey, StockRecord>();
  for await (const e of store.list<StockRecord>({ prefix: keys.stocks() }, { batchSize: 500 })) {
    stock.set(e.key[1] as StockKey, e.value);
  }
  return stock;
}

/** Reads the view of the store for the model's carts. */
export async function readView(source: ViewSource, model: Model): Promise<View> {
  const kv = source.store;
  const each = lister(source);
  const view: View = {
    stock: new Map(),
    orders: new Map(),
    payments: [],
    inbox: [],
    outbox: [],
    carts: new Map(),
    promos: new Map(),
    promoUses: new Map(),
    promoHolds: new Map(),
    promoEmailUses: new Map(),
    promoEmailHolds: new Map(),
    products: new Map(),
    audit: [],
    drops: new Map(),
    dropLedgers: new Map(),
    dropPersons: new Map(),
    dropTickets: new Map(),
  };
  const cartIds = [...model.carts.keys()];
  await Promise.all([
    readStock(source).then((stock) => view.stock = stock),
    each<Order>(keys.orders(), (e) => view.orders.set(e.value.orderNumber, e.value)),
    each<DemoPayment>(["demo"], (e) => view.payments.push(e.value)),
    each<InboxEntry>(keys.paymentInboxAll(), (e) => view.inbox.push(e.value)),
    each<OutboxEntry>(keys.outboxAll(), (e) => view.outbox.push(e.value)),
    each<PromoRecord>(keys.promos(), (e) => view.promos.set(e.value.code, e.value)),
    each<unknown>(["promo_uses"], (e) => view.promoUses.set(String(e.key[1]), count(e.value))),
    each<string[]>(["promo_holds"], (e) => view.promoHolds.set(String(e.key[1]), e.value)),
    each<unknown>(
      ["promo_email_uses"],
      (e) => view.promoEmailUses.set(`${String(e.key[1])} ${String(e.key[2])}`, count(e.value)),
    ),
    each<string[]>(
      ["promo_email_holds"],
      (e) => view.promoEmailHolds.set(`${String(e.key[1])} ${String(e.key[2])}`, e.value),
    ),
    each<ProductRecord>(keys.products(), (e) => view.products.set(e.value.id, e.value)),
    each<AuditEntry>(keys.audits(), (e) => view.audit.push(e.value)),
    each<DropRecord>(keys.drops(), (e) => view.drops.set(e.value.id, e.value)),
    each<DropLedger>(["drop_ledger"], (e) => view.dropLedgers.set(String(e.key[1]), e.value)),
    each<TicketRecord>(["drop_tickets"], (e) => {
      const drop = String(e.key[1]);
      if (!view.dropTickets.has(drop)) view.dropTickets.set(drop, new Map());
      view.dropTickets.get(drop)!.set(String(e.key[2]), e.value);
    }),
    each<number>(["drop_persons"], (e) => {
      const drop = String(e.key[1]);
      if (!view.dropPersons.has(drop)) view.dropPersons.set(drop, new Map());
      view.dropPersons.get(drop)!.set(String(e.key[2]), e.value);
    }),
    (async () => {
      for (let i = 0; i < cartIds.length; i += 10) {
        const batch = cartIds.slice(i, i + 10);
        const entries = await kv.getMany<CartRecord[]>(batch.map((id) => keys.cart(id)));
        batch.forEach((id, j) => view.carts.set(id, entries[j].value));
      }
    })(),
  ]);
  return view;
}
