/**
 * The checkout's reservation (step 2 of server/orders/checkout.ts): the one write in which a
 * priced cart becomes an order holding its stock, replacing the cart's previous unpaid checkout.
 */
import type { StockKey } from "../../shared/bom.ts";
import { computeTotals, type Region } from "../../shared/policy.ts";
import type { Address } from "../../shared/api_types.ts";
import { unitsAvailable } from "../../shared/bom.ts";
import { Conflict, LimitReached } from "../errors.ts";
import { type CartRecord } from "../cart/store.ts";
import { type PricedLine, subtotalOf } from "../cart/view.ts";
import { checkHeldUnits, type HoldsEntry, liveHolds, writeHoldsTo } from "../stock/holds.ts";
import { keys } from "../kv/keys.ts";
import { findOrderEntry, writeOrderTo } from "./store.ts";
import {
  mergeUsage,
  type PromoRecord,
  readUsage,
  USAGE_WRITE_CHECKS,
  type UsageRead,
  type UsageWant,
} from "../promos/store.ts";
import {
  discountOf,
  giveBackUse,
  holdUse,
  isLimited,
  ledgerOf,
  ledgerSize,
  usageClaims,
  writeLedgerInto,
} from "../promos/rules.ts";
import type { PaymentTarget } from "../payments/provider.ts";
import { freeHoldInto } from "../stock/holds.ts";
import {
  checkPayableSize,
  needOf,
  newOrderNumber,
  type Order,
  orderItemsOf,
  withStatus,
} from "./order.ts";
import { stopJob } from "./stop_job.ts";
import { type JobPlan, type Prepared, type StockJob } from "../stock/batch.ts";
import { applyMove, availableOf, type StockRecord, type WorkingStock } from "../stock/record.ts";
import { type OrderDeps } from "./steps.ts";
import { claimOf, type DropClaim } from "../drops/checkout_claim.ts";
import type { DropIndex } from "../drops/line_drops.ts";
import {
  dropClaims,
  type DropRead,
  type DropWant,
  dropWriteSize,
  readDropCounts,
  want,
  writeDropCounts,
} from "../drops/counts_store.ts";
import {
  checkAdmitted,
  copyCounts,
  DROP_WRITE_CHECKS,
  type DropCounts,
  type DropHold,
  giveBackHeld,
  holdUnits,
} from "../drops/purchase_rules.ts";
import { jobInto } from "../kv/jobs.ts";
import { type ExpiryJob, expiryJobId } from "./expiry_job.ts";

/**
 * Checks a promo use adds to the payment's write at most: the code's record and usage, and the
 * email's usage (promos/rules.ts `ledgerSize`, once the payment names the email).
 */
const PROMO_USE_CHECKS = 1 + 2 * USAGE_WRITE_CHECKS;

/** What a checkout starts from. */
export interface CheckoutInput {
  cartId: string;
  region: Region;
  /** Hosted: the provider's page collects the rest; embedded: the /checkout page's form. */
  mode: "hosted" | "embedded";
  origin: string;
  /** Who is checking out (the rate-limit client key): holds are counted per client. */
  client: string;
  email?: string | null;
  customerName?: string | null;
  address?: Address | null;
  promoCode?: string | null;
  userId?: string | null;
}

/** Dependencies of a checkout. */
export type CheckoutDeps = OrderDeps & { imageBase: string };

/** Thrown by a reservation whose cart changed after it was priced: price it again. */
export class CartChanged extends Error {}

export interface PricedCart {
  /** The cart as priced: the reservation checks it is still so. */
  cart: Deno.KvEntryMaybe<CartRecord>;
  lines: PricedLine[];
  userId: string | null;
  /** The promo code as typed, and the code and email whose uses it counts against. */
  promo: { typed: string; want: UsageWant } | null;
  /**
   * The pending checkout, holds and promo usage as read with the cart, for the reservation's
   * first try.
   */
  firstReads: {
    cart: Deno.KvEntryMaybe<CartRecord>;
    pending: Deno.KvEntryMaybe<string>;
    holds: HoldsEntry;
    usage: UsageRead | null;
    /** The drop index for the cart's lines, read ahead with the cart (drops/line_drops.ts). */
    dropIndex: Promise<DropIndex> | null;
  } | null;
}

/** What the reservation did: the new order, and the previous checkout it replaced. */
export interface Reserved {
  order: Order;
  replaced: Order | null;
}

/** The previous unpaid checkout of the cart, as read for replacing it. */
interface Previous {
  entry: Deno.KvEntry<Order>;
  payment: Deno.KvEntryMaybe<unknown> | null;
  holds: HoldsEntry | null;
  /** The usage of the promo use it holds, to give it back. */
  usage: UsageRead | null;
}

/** What the reservation read: the cart now, its pending checkout, the client's holds, promo uses. */
interface ReservationReads {
  cartNow: Deno.KvEntryMaybe<CartRecord>;
  pending: Deno.KvEntryMaybe<string>;
  holds: HoldsEntry;
  previous: Previous | null;
  usage: UsageRead;
  /** The drop units the cart claims, and the counts of every drop the write changes. */
  claim: DropClaim | null;
  drops: Map<string, DropRead>;
}

/**
 * The reservation: one write, through the stock batch, in which the cart as priced becomes an
 * order holding its stock. Its steps, top to bottom:
 *   1. read the cart again, its previous checkout, the client's holds and the promo uses
 *      (`readForReservation`);
 *   2. the previous checkout, while unpaid, is replaced; one whose payment was just taken is not
 *      (`replaceable`);
 *   3. the promo code's use is held (the replaced checkout's given back first);
 *   4. the client's holds are counted, and the units they hold (no hoarding);
 *   4b. a drop's units are held against its place in line, its units left and every person key
 *      (`holdDrop`, the replaced checkout's given back first);
 *   5. the stock is reserved, after the replaced checkout's is released (`reserveStock`);
 *   6. the order is made, with its payment when the provider keeps payments in KV, and written
 *      with everything above (`reservationWrite`).
 */
export function reservationJob(
  deps: CheckoutDeps,
  input: CheckoutInput,
  cart: PricedCart,
): StockJob<Reserved> {
  const { config, payments } = deps;
  const need = needOf(cart.lines);
  let reads: ReservationReads;
  return {
    async prepare(): Promise<Prepared> {
      reads = await readForReservation(deps, input, cart);
      const prior = reads.previous?.entry.value;
      const previousKeys = prior?.reservation.items.map(([k]) => k) ?? [];
      return {
        stock: [...new Set([...need.keys(), ...previousKeys])],
        exclusive: [
          `cart:${input.cartId}`,
          `holds:${input.client}`,
          ...usageClaims(reads.usage),
          ...(prior
            ? [
              `order:${prior.orderNumber}`,
              `holds:${prior.holdClient}`,
              ...(prior.payment ? [`payment:${prior.payment.id}`] : []),
            ]
            : []),
          ...dropClaims(dropWants(reads.claim, prior)),
        ],
      };
    },
    plan(stock, now): JobPlan<Reserved> {
      // The order is made of the lines as priced: a cart changed since is priced again.
      if (reads.cartNow.versionstamp !== cart.cart.versionstamp) throw new CartChanged();
      const replacing = replaceable(deps, reads.previous);

      // The replaced checkout's promo use comes back first, so its shopper can take it again.
      const ledger = ledgerOf(reads.usage);
      const replacedHold = replacing?.entry.value.promoHold;
      if (replacedHold) giveBackUse(ledger, replacedHold, replacing!.entry.value.orderNumber);
      const orderNumber = newOrderNumber();
      const promo = cart.promo
        ? holdUse(ledger, cart.promo.want, orderNumber, {
          now,
          subtotalCents: subtotalOf(cart.lines),
          typed: cart.promo.typed,
        })
        : null;

      const others = liveHolds(reads.holds, now)
        .filter((h) => h.orderNumber !== replacing?.entry.value.orderNumber);
      if (others.length >= config.maxHoldsPerClient) {
        throw new LimitReached(
          holdLimitMessage(others.length, config.reservationMinutes),
          undefined,
          "holds",
        );
      }
      // Checked on the holds as read, and written with them below in one checked write: parallel
      // checkouts of one client take turns on its holds entry, so they cannot pass it together.
      checkHeldUnits(others, unitsOf(cart.lines), {
        maxUnits: config.maxHeldUnitsPerClient,
        reservationMinutes: config.reservationMinutes,
      }, now);

      const drop = holdDrop(reads, replacing, now);
      // Its payment's write checks the promo's use and the drop's entries too, with the email and
      // address a hosted checkout learns only then, and a promo code a hosted payment page took
      // (Stripe's promotion codes, the demo page's field): an order that would not fit then must
      // not start, or a charge taken for it could never be recorded.
      checkPayableSize(
        need.size,
        payableExtra(
          !!cart.promo,
          input.mode === "hosted" && !payments.ownPromoCodes,
          !!drop.hold,
        ),
      );
      const { released, reserved } = reserveStock(stock, need, replacing, cart.lines);
      // A drop's hold is the drop's own (short, so a lapsed hold passes its units on soon).
      const minutes = drop.hold ? drop.holdMinutes : config.reservationMinutes;
      const expiresAt = now + minutes * 60_000;
      const order = newOrder(deps, input, cart, { orderNumber, promo, now }, expiresAt);
      order.dropHold = drop.hold;
      const inlinePayment = payments.inline?.create(paymentTarget(input, order)) ?? null;
      if (inlinePayment) order.payment = inlinePayment.ref;
      const replaced = replacing ? replacedOrder(replacing.entry.value, now) : null;

      const promoSize = ledgerSize(ledger);
      const dropSize = dropWriteSize(reads.drops);
      return {
        stock: new Map([...released, ...reserved]),
        checks: 7 + promoSize.checks + dropSize.checks,
        mutations: 14 + promoSize.mutations + dropSize.mutations,
        result: { order, replaced },
        write(op) {
          writeLedgerInto(op, ledger);
          for (const [id, counts] of drop.counts) {
            writeDropCounts(op, reads.drops.get(id)!, counts, now);
          }
          inlinePayment?.write(op);
          reservationWrite(op, { input, reads, order, others, now });
          if (replaced && replacing) replacementWrite(deps, op, replacing, replaced, now);
        },
      };
    },
  };
}

/** Step 1: the reads, those made with the cart on the first try, or fresh ones on a retry. */
async function readForReservation(
  deps: CheckoutDeps,
  input: CheckoutInput,
  cart: PricedCart,
): Promise<ReservationReads> {
  const first = cart.firstReads;
  cart.firstReads = null;
  const dropIndex = first?.dropIndex ?? undefined;
  const [cartNow, pending, holds, ownUsage] = first
    ? [first.cart, first.pending, first.holds, first.usage]
    : await Promise.all([
      deps.kv.getMany<[CartRecord, string, never]>([
        keys.cart(input.cartId),
        keys.pendingCheckout(input.cartId),
        keys.holds(input.client),
      ]) as Promise<[Deno.KvEntryMaybe<CartRecord>, Deno.KvEntryMaybe<string>, HoldsEntry]>,
      cart.promo ? readUsage(deps.kv, [cart.promo.want]) : null,
    ]).then(([[c, p, h], u]) => [c, p, h, u] as const);
  const [previous, claim] = await Promise.all([
    pending.value ? readPrevious(deps, pending.value, input.client) : null,
    claimOf(
      deps.kv,
      cart.lines.map((l) => ({ productId: l.item.productId, bom: l.bom, quantity: l.quantity })),
      (cartNow.value?.lines ?? []).map((l) => l.dropTicket),
      {
        userId: cart.userId,
        email: input.email ?? null,
        address: input.address ?? null,
        network: input.client,
      },
      dropIndex,
    ),
  ]);
  const usage = mergeUsage(ownUsage, previous?.usage ?? null);
  const drops = await readDropCounts(deps.kv, dropWants(claim, previous?.entry.value ?? null));
  return { cartNow, pending, holds, previous, usage, claim, drops };
}

/** The drop keys a reservation reads and writes: its claim's, and the replaced hold's. */
function dropWants(
  claim: DropClaim | null,
  prior: Order | null | undefined,
): Map<string, DropWant> {
  const wants = new Map<string, DropWant>();
  if (claim) want(wants, claim.dropId, claim.ticket, claim.persons);
  const held = prior?.dropHold;
  if (held?.state === "holding") want(wants, held.dropId, held.ticket, held.persons);
  return wants;
}

/** What a payment's write checks besides the order's parts and its own, and why (for the sentence). */
export function payableExtra(
  promo: boolean,
  /** Paid on a hosted page that may take a shop code the cart did not have. */
  pageTakesCodes: boolean,
  drop: boolean,
): { checks: number; causes: string[] } {
  const causes: string[] = [];
  let checks = 0;
  if (promo || pageTakesCodes) {
    checks += PROMO_USE_CHECKS;
    causes.push(promo ? "a promo code" : "a payment page that takes promo codes");
  }
  if (drop) {
    checks += DROP_WRITE_CHECKS;
    causes.push("a drop's item");
  }
  return { checks, causes };
}

/**
 * Step 4b: the replaced checkout's drop units given back, then the cart's claim held: refused
 * when its place is not admitted or lapsed, the drop has too few units left, or any person key
 * would pass the limit. Answers the hold and the counts to write, by drop.
 */
function holdDrop(
  reads: ReservationReads,
  replacing: Previous | null,
  now: number,
): { hold: DropHold | null; holdMinutes: number; counts: Map<string, DropCounts> } {
  const counts = new Map([...reads.drops].map(([id, read]) => [id, copyCounts(read.counts)]));
  const given = replacing?.entry.value.dropHold;
  if (given?.state === "holding") giveBackHeld(counts.get(given.dropId)!, given);
  const claim = reads.claim;
  if (!claim) return { hold: null, holdMinutes: 0, counts };
  const read = reads.drops.get(claim.dropId)!;
  const drop = read.drop.value;
  if (!drop) throw new CartChanged();
  // The line's place was matched to its holder when it went into the cart.
  checkAdmitted(drop, read.tickets.get(claim.ticket)?.value ?? null, null, now);
  holdUnits(drop, counts.get(claim.dropId)!, claim.ticket, claim.persons, claim.units);
  return {
    hold: { ...claim, state: "holding" },
    holdMinutes: drop.holdMinutes,
    counts,
  };
}

/**
 * Step 2: the previous checkout of the cart to replace, when it still holds its stock unpaid.
 * One whose payment was taken and is being recorded will be paid, and its paid write takes the
 * lines it bought out of the cart: a second order for the same lines must not start.
 */
function replaceable(deps: CheckoutDeps, previous: Previous | null): Previous | null {
  const prior = previous && previous.entry.value.status === "STARTED" &&
      previous.entry.value.reservation.state === "held"
    ? previous
    : null;
  if (prior?.payment && !deps.payments.inline!.stopper(prior.payment)) {
    throw new Conflict(
      "Your previous checkout of this cart has just been paid, and we are recording it. Nothing more was charged; reload your cart in a moment to see what is left in it.",
    );
  }
  return prior;
}

/**
 * Step 5: the cart's units reserved, once the replaced checkout's are released; a Conflict names
 * every line the free stock cannot make.
 */
function reserveStock(
  stock: ReadonlyMap<StockKey, StockRecord>,
  need: Map<StockKey, number>,
  replacing: Previous | null,
  lines: readonly PricedLine[],
): { released: WorkingStock; reserved: WorkingStock } {
  const afterRelease = new Map(stock);
  const released = replacing
    ? applyMove(stock, replacing.entry.value.reservation.items, "release")
    : null;
  if (released?.ok) { for (const [k, r] of released.next) afterRelease.set(k, r); }
  const reservation = applyMove(afterRelease, [...need], "reserve");
  if (!reservation.ok) {
    throw new Conflict("Some items are no longer in stock", {
      insufficientStock: insufficientStockOf(lines, afterRelease),
    });
  }
  return { released: released?.ok ? released.next : new Map(), reserved: reservation.next };
}

/** What the order's payment is for, in the terms every provider needs. */
function paymentTarget(input: CheckoutInput, order: Order): PaymentTarget {
  return {
    kind: input.mode,
    orderNumber: order.orderNumber,
    region: input.region,
    subtotalCents: order.subtotalCents,
    totalCents: order.totalCents,
    expiresAt: order.reservation.expiresAt,
  };
}

/** The replaced checkout, as the new one leaves it: cancelled, its stock and promo use freed. */
function replacedOrder(order: Order, now: number): Order {
  return {
    ...withStatus(order, "CANCELLED", now),
    reservation: { ...order.reservation, state: "released" as const },
    promoHold: null,
    dropHold: order.dropHold ? { ...order.dropHold, state: "returned" } : order.dropHold,
    cancelReason: "Replaced by a new checkout",
  };
}

/**
 * Step 6: the new order written with its cart's pending checkout, its client's hold and its
 * expiry job, checked against the cart as read.
 */
function reservationWrite(
  op: Deno.AtomicOperation,
  { input, reads, order, others, now }: {
    input: CheckoutInput;
    reads: ReservationReads;
    order: Order;
    others: ReturnType<typeof liveHolds>;
    now: number;
  },
): void {
  // Checked: a cart changed since it was read makes the batch read it again.
  op.check(reads.cartNow);
  writeOrderTo(op, order, null);
  // No expiry of its own: paying or releasing the order deletes it, replacing moves it.
  op.check(reads.pending).set(keys.pendingCheckout(input.cartId), order.orderNumber);
  writeHoldsTo(op, input.client, reads.holds, [...others, {
    orderNumber: order.orderNumber,
    expiresAt: order.reservation.expiresAt,
    units: unitsOf(order.items),
  }], now);
  jobInto(op, { type: "reservation-expiry", orderNumber: order.orderNumber } satisfies ExpiryJob, {
    at: order.reservation.expiresAt,
    id: expiryJobId(order.orderNumber),
  });
}

/** The replaced checkout's write: its order, its payment stopped, its client's hold freed. */
function replacementWrite(
  deps: CheckoutDeps,
  op: Deno.AtomicOperation,
  replacing: Previous,
  replaced: Order,
  now: number,
): void {
  writeOrderTo(op, replaced, replacing.entry.versionstamp);
  if (replacing.payment) deps.payments.inline?.stopper(replacing.payment)?.(op);
  // A payment kept elsewhere is stopped by a job queued with the write that replaces it.
  const elsewhere = replacing.entry.value.payment;
  if (elsewhere && !deps.payments.inline) {
    jobInto(op, stopJob(replaced.orderNumber, elsewhere, now), { at: now });
  }
  if (replacing.holds) {
    freeHoldInto(op, replaced.holdClient, replacing.holds, replaced.orderNumber, now);
  }
}

/** Reads the cart's previous checkout, with its payment and its client's holds when needed. */
async function readPrevious(
  deps: CheckoutDeps,
  orderNumber: string,
  client: string,
): Promise<Previous | null> {
  const entry = await findOrderEntry(deps.kv, orderNumber);
  if (!entry || entry.value.status !== "STARTED") return null;
  const order = entry.value;
  const inline = deps.payments.inline;
  const otherClient = order.holdClient && order.holdClient !== client ? order.holdClient : null;
  const [payment, holds, usage] = await Promise.all([
    inline && order.payment ? deps.kv.get(inline.key(order.payment)) : null,
    otherClient ? deps.kv.get<never>(keys.holds(otherClient)) as Promise<HoldsEntry> : null,
    order.promoHold ? readUsage(deps.kv, [order.promoHold]) : null,
  ]);
  return { entry, payment, holds, usage };
}

function newOrder(
  deps: CheckoutDeps,
  input: CheckoutInput,
  cart: PricedCart,
  made: { orderNumber: string; promo: PromoRecord | null; now: number },
  expiresAt: number,
): Order {
  const { orderNumber, promo, now } = made;
  const totals = computeTotals(
    subtotalOf(cart.lines),
    input.region,
    promo ? discountOf(promo) : 0,
  );
  return {
    ...totals,
    orderNumber,
    status: "STARTED",
    region: input.region,
    cartId: input.cartId,
    userId: cart.userId,
    origin: deps.config.publicUrl ?? input.origin,
    holdClient: input.client,
    email: input.email ?? null,
    customerName: input.customerName ?? null,
    shippingAddress: input.address ?? null,
    items: orderItemsOf(cart.lines),
    promoCode: promo?.code ?? null,
    promoHold: promo && isLimited(promo)
      ? {
        code: promo.code,
        email: promo.maxUsesPerEmail !== null ? cart.promo!.want.email : null,
      }
      : null,
    taxId: null,
    reservation: { items: [...needOf(cart.lines)], expiresAt, state: "held" },
    payment: null,
    paymentError: null,
    refund: null,
    trackingNumber: null,
    cancelReason: null,
    createdAt: now,
    updatedAt: now,
    history: [{ status: "STARTED", at: now }],
  };
}

/** The units a checkout holds: testers, packs and items, as the shopper counts them. */
function unitsOf(lines: readonly { quantity: number }[]): number {
  return lines.reduce((sum, l) => sum + l.quantity, 0);
}

/** The 429 a shopper reads when their holds are used up. */
function holdLimitMessage(count: number, minutes: number): string {
  return `You have ${count} checkouts waiting for payment. Pay for one of them, or return to that cart and check out again (which replaces it), or wait until one is released (holds last ${minutes} minutes), then try again.`;
}

/**
 * Names every cart line that touches a short component (lines can share a switch or a box, so
 * each may fit alone and still not together), with how many of it the free stock could make.
 */
function insufficientStockOf(
  lines: readonly PricedLine[],
  stock: ReadonlyMap<StockKey, StockRecord>,
): Record<string, number> {
  const free = (k: StockKey) => {
    const record = stock.get(k);
    return record ? availableOf(record) : 0;
  };
  const need = needOf(lines);
  const short = new Set([...need].filter(([k, n]) => free(k) < n).map(([k]) => k));
  const result: Record<string, number> = {};
  for (const line of lines) {
    if (![...line.bom.keys()].some((k) => short.has(k))) continue;
    let name = line.item.name;
    for (let i = 2; name in result; i++) name = `${line.item.name} (${i})`;
    result[name] = unitsAvailable(line.bom, free);
  }
  return result;
}
