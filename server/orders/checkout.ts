/**
 * Checkout: from a cart to an order holding its stock with a payment to take. The steps:
 *   1. load cart      the cart, its promo code, priced on the server from the catalogue;
 *   2. reserve        in one atomic write (through the stock batch): the order in STARTED, its
 *                     stock reserved (and a limited promo code's use held), the cart's previous
 *                     unpaid checkout released (one live checkout per cart), the client's hold
 *                     counted (no hoarding), the expiry job queued, and, for a provider kept in
 *                     KV (demo), its payment created;
 *   3. create payment a provider elsewhere creates its session or intent;
 *   4. attach payment the order remembers it.
 * A crash after any step leaves nothing half-written: an order without a payment expires with
 * its hold, and a payment taken for it is still recorded or refunded (payment.ts).
 */
import type { StockKey } from "../../shared/bom.ts";
import { computeTotals, type Region } from "../../shared/policy.ts";
import type { Address } from "../../shared/api_types.ts";
import { unitsAvailable } from "../../shared/bom.ts";
import { Conflict, LimitReached, NotFound, Unavailable } from "../errors.ts";
import { CART_GONE, type CartRecord, liveCart } from "../cart/cart.ts";
import { type PricedLine, priceLines, subtotalOf } from "../cart/view.ts";
import { type HoldsEntry, liveHolds, writeHoldsTo } from "../stock/holds.ts";
import { keys } from "../kv/keys.ts";
import { hitRateLimit, type RateLimit } from "../kv/rate_limit.ts";
import { findOrderEntry, updateOrder, writeOrderTo } from "./store.ts";
import {
  mergeUsage,
  normalizePromoCode,
  type PromoRecord,
  readUsage,
  type UsageRead,
  type UsageWant,
} from "../promos/store.ts";
import {
  checkTerms,
  discountOf,
  giveBackUse,
  holdUse,
  isLimited,
  ledgerOf,
  ledgerSize,
  usageClaims,
  usageWant,
  writeLedgerInto,
} from "../promos/rules.ts";
import type { StockRecord } from "../stock/record.ts";
import type { PaymentRef, PaymentTarget } from "../payments/provider.ts";
import { freeHoldInto } from "../stock/holds.ts";
import {
  MAX_ORDER_COMPONENTS,
  needOf,
  newOrderNumber,
  type Order,
  orderItemsOf,
  withStatus,
} from "./order.ts";
import { releaseOrder } from "./release.ts";
import { stopJob } from "./stop_job.ts";
import { stopSoon } from "./stops.ts";
import { type JobPlan, type Prepared, runStockJob, type StockJob } from "../stock/batch.ts";
import { applyMove, availableOf } from "../stock/record.ts";
import { type OrderDeps, step } from "./steps.ts";
import { InvalidInput } from "../errors.ts";

/** Checkouts a client may start per 10 minutes: `max` is CHECKOUTS_PER_CLIENT. */
export const CHECKOUT_LIMIT: RateLimit = { bucket: "checkout", max: 20, windowMs: 10 * 60_000 };

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

/** Starts a payment for a cart (the steps above); answers the order and its payment. */
export async function startCheckout(
  deps: CheckoutDeps,
  input: CheckoutInput,
): Promise<{ order: Order; payment: PaymentRef }> {
  const { order, replaced } = await reserveCart(deps, input);
  const elsewhere = replaced?.payment && !deps.payments.inline ? replaced.payment : null;
  if (elsewhere) {
    // Its job was queued with the reservation; stopping it now keeps the old page from paying.
    await stopSoon(deps, stopJob(replaced!.orderNumber, elsewhere, deps.clock.now()));
  }
  if (order.payment) return { order, payment: order.payment };

  const payment = await step(deps, "create payment", () => createPayment(deps, input, order));
  const attached = await step(
    deps,
    "attach payment",
    () =>
      updateOrder(
        deps.kv,
        order.orderNumber,
        (current) =>
          current.status === "STARTED" && current.reservation.state === "held"
            ? { ...current, payment, updatedAt: deps.clock.now() }
            : current,
      ),
  );
  if (attached.payment?.id !== payment.id) {
    // Replaced, cancelled or expired while the provider made the payment: it must not be payable.
    const job = stopJob(order.orderNumber, payment, deps.clock.now());
    await deps.kv.enqueue(job);
    await stopSoon(deps, job);
    throw new Conflict(
      "This checkout was replaced or cancelled before its payment could start. Return to your cart to check out again.",
    );
  }
  return { order: attached, payment };
}

/** How often a checkout prices the cart again when it changed while being reserved. */
const CART_TRIES = 3;

/** Thrown by a reservation whose cart changed after it was priced: price it again. */
class CartChanged extends Error {}

/**
 * Steps 1 and 2: the cart priced, then reserved as priced. A cart that changed in between (a line
 * added in another tab, or its previous checkout paid, which takes the bought lines out) is
 * priced again, so an order always holds the cart as it was when the order was made.
 */
async function reserveCart(deps: CheckoutDeps, input: CheckoutInput): Promise<Reserved> {
  for (let attempt = 1;; attempt++) {
    const priced = await step(deps, "load cart", () => loadCart(deps, input, attempt === 1));
    try {
      return await step(
        deps,
        "reserve",
        () => runStockJob(deps.kv, deps.clock, reservationJob(deps, input, priced)),
      );
    } catch (err) {
      if (!(err instanceof CartChanged)) throw err;
      if (attempt >= CART_TRIES) {
        throw new Conflict(
          "Your cart kept changing while you checked out. Please look it over and check out again.",
        );
      }
    }
  }
}

interface PricedCart {
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
  } | null;
}

async function loadCart(
  deps: CheckoutDeps,
  input: CheckoutInput,
  /** Counted against the client's checkouts (a cart priced again is the same checkout). */
  count: boolean,
): Promise<PricedCart> {
  const { kv, clock } = deps;
  // The attempt is counted while the cart is read and priced (the count's read and commit would
  // otherwise add two round trips), and waited for before anything is decided or reserved.
  const counted = count
    ? hitRateLimit(
      kv,
      clock,
      { ...CHECKOUT_LIMIT, max: deps.config.checkoutsPerClient },
      input.client,
      `You have started ${deps.config.checkoutsPerClient} checkouts in the last few minutes. Please wait a few minutes before starting another.`,
    )
    : Promise.resolve();
  // A refusal found while reading must not leave the count's rejection unobserved.
  counted.catch(() => {});
  // One read for the cart and what the reservation checks first (its pending checkout, the
  // client's holds); the reservation reads those two again only if it must retry.
  const [cartEntry, pending, holds] = await kv.getMany<[CartRecord, string, never]>([
    keys.cart(input.cartId),
    keys.pendingCheckout(input.cartId),
    keys.holds(input.client),
  ]) as [Deno.KvEntryMaybe<CartRecord>, Deno.KvEntryMaybe<string>, HoldsEntry];
  const cart = liveCart(cartEntry, clock)?.value;
  const typed = input.promoCode?.trim() || null;
  const promo = typed ? { typed, want: usageWant(normalizePromoCode(typed), input.email) } : null;
  const [lines, usage] = cart
    ? await Promise.all([
      priceLines(kv, cart.lines, deps.imageBase),
      promo ? readUsage(kv, [promo.want]) : null,
    ])
    : [[], null];
  await counted;
  if (!cart) throw new NotFound(CART_GONE);
  // A wrong code is refused before anything else; the reservation checks it all again, counts
  // included, on what it reads.
  if (promo && usage) {
    checkTerms(usage.codes[0].promo.value, {
      now: clock.now(),
      subtotalCents: lines.length > 0 ? subtotalOf(lines) : null,
      typed: promo.typed,
    });
  }
  if (lines.length === 0) throw new NotFound("Your cart is empty");
  const unsold = lines.flatMap((l) => l.item.unavailableReason ?? []);
  if (unsold.length > 0) {
    throw new Conflict(
      `${unsold.join(" ")} Please remove ${
        unsold.length === 1 ? "it" : "those items"
      } from your cart to check out.`,
    );
  }
  const need = needOf(lines);
  if (need.size > MAX_ORDER_COMPONENTS) {
    throw new InvalidInput(
      `This order has ${need.size} different switches and parts; one order can hold at most ${MAX_ORDER_COMPONENTS}. Please split it into two orders.`,
    );
  }
  return {
    cart: cartEntry,
    lines,
    userId: input.userId ?? cart.userId ?? null,
    promo,
    firstReads: { cart: cartEntry, pending, holds, usage },
  };
}

/** What the reservation did: the new order, and the previous checkout it replaced. */
interface Reserved {
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

function reservationJob(
  deps: CheckoutDeps,
  input: CheckoutInput,
  cart: PricedCart,
): StockJob<Reserved> {
  const { kv, config, payments } = deps;
  const need = needOf(cart.lines);
  const reservationMs = config.reservationMinutes * 60_000;
  let cartNow: Deno.KvEntryMaybe<CartRecord>;
  let pending: Deno.KvEntryMaybe<string>;
  let holds: HoldsEntry;
  let previous: Previous | null;
  let usage: UsageRead;
  return {
    async prepare(): Promise<Prepared> {
      const first = cart.firstReads;
      cart.firstReads = null;
      let ownUsage: UsageRead | null;
      [cartNow, pending, holds, ownUsage] = first
        ? [first.cart, first.pending, first.holds, first.usage]
        : await Promise.all([
          kv.getMany<[CartRecord, string, never]>([
            keys.cart(input.cartId),
            keys.pendingCheckout(input.cartId),
            keys.holds(input.client),
          ]) as Promise<[Deno.KvEntryMaybe<CartRecord>, Deno.KvEntryMaybe<string>, HoldsEntry]>,
          cart.promo ? readUsage(kv, [cart.promo.want]) : null,
        ]).then(([[c, p, h], u]) => [c, p, h, u] as const);
      previous = pending.value ? await readPrevious(deps, pending.value, input.client) : null;
      usage = mergeUsage(ownUsage, previous?.usage ?? null);
      const prior = previous?.entry.value;
      const previousKeys = prior?.reservation.items.map(([k]) => k) ?? [];
      return {
        stock: [...new Set([...need.keys(), ...previousKeys])],
        exclusive: [
          `cart:${input.cartId}`,
          `holds:${input.client}`,
          ...usageClaims(usage),
          ...(prior
            ? [
              `order:${prior.orderNumber}`,
              `holds:${prior.holdClient}`,
              ...(prior.payment ? [`payment:${prior.payment.id}`] : []),
            ]
            : []),
        ],
      };
    },
    plan(stock, now): JobPlan<Reserved> {
      // The order is made of the lines as priced: a cart changed since is priced again.
      if (cartNow.versionstamp !== cart.cart.versionstamp) throw new CartChanged();
      const prior = previous && previous.entry.value.status === "STARTED" &&
          previous.entry.value.reservation.state === "held"
        ? previous
        : null;
      const stopPrior = prior?.payment ? payments.inline!.stopper(prior.payment) : null;
      if (prior?.payment && !stopPrior) {
        // Its payment was taken and is being recorded: it will be paid, and its paid write takes
        // the lines it bought out of the cart. A second order for the same lines must not start.
        throw new Conflict(
          "Your previous checkout of this cart has just been paid, and we are recording it. Nothing more was charged; reload your cart in a moment to see what is left in it.",
        );
      }
      const replacing = prior;

      // The replaced checkout's promo use comes back first, so its shopper can take it again.
      const ledger = ledgerOf(usage);
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

      const others = liveHolds(holds, now)
        .filter((h) => h.orderNumber !== replacing?.entry.value.orderNumber);
      if (others.length >= config.maxHoldsPerClient) {
        throw new LimitReached(holdLimitMessage(others.length, config.reservationMinutes));
      }

      const afterRelease = new Map(stock);
      const released = replacing
        ? applyMove(stock, replacing.entry.value.reservation.items, "release")
        : null;
      if (released?.ok) { for (const [k, r] of released.next) afterRelease.set(k, r); }
      const reservation = applyMove(afterRelease, [...need], "reserve");
      if (!reservation.ok) {
        throw new Conflict("Some items are no longer in stock", {
          insufficientStock: insufficientStockOf(cart.lines, afterRelease),
        });
      }

      const order = newOrder(deps, input, cart, { orderNumber, promo, now }, now + reservationMs);
      const target: PaymentTarget = {
        kind: input.mode,
        orderNumber: order.orderNumber,
        region: input.region,
        subtotalCents: order.subtotalCents,
        totalCents: order.totalCents,
        expiresAt: order.reservation.expiresAt,
      };
      const inlinePayment = payments.inline?.create(target) ?? null;
      if (inlinePayment) order.payment = inlinePayment.ref;
      const replaced = replacing
        ? {
          ...withStatus(replacing.entry.value, "CANCELLED", now),
          reservation: { ...replacing.entry.value.reservation, state: "released" as const },
          promoHold: null,
          cancelReason: "Replaced by a new checkout",
        }
        : null;

      const promoSize = ledgerSize(ledger);
      return {
        stock: new Map([...(released?.ok ? released.next : []), ...reservation.next]),
        checks: 7 + promoSize.checks,
        mutations: 14 + promoSize.mutations,
        result: { order, replaced },
        write(op) {
          // Checked: a cart changed since it was read makes the batch read it again.
          op.check(cartNow);
          writeOrderTo(op, order, null);
          writeLedgerInto(op, ledger);
          inlinePayment?.write(op);
          // No expiry of its own: paying or releasing the order deletes it, replacing moves it.
          op.check(pending).set(keys.pendingCheckout(input.cartId), order.orderNumber);
          writeHoldsTo(op, input.client, holds, [...others, {
            orderNumber: order.orderNumber,
            expiresAt: order.reservation.expiresAt,
          }], now);
          op.enqueue({ type: "reservation-expiry", orderNumber: order.orderNumber }, {
            delay: reservationMs,
          });
          if (replaced && replacing) {
            writeOrderTo(op, replaced, replacing.entry.versionstamp);
            stopPrior?.(op);
            // A payment kept elsewhere is stopped by a job queued with the write that replaces it.
            const elsewhere = replacing.entry.value.payment;
            if (elsewhere && !payments.inline) {
              op.enqueue(stopJob(replaced.orderNumber, elsewhere, now));
            }
            if (replacing.holds) {
              freeHoldInto(op, replaced.holdClient, replacing.holds, replaced.orderNumber, now);
            }
          }
        },
      };
    },
  };
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

async function createPayment(
  deps: CheckoutDeps,
  input: CheckoutInput,
  order: Order,
): Promise<PaymentRef> {
  try {
    return input.mode === "hosted"
      ? await deps.payments.createHostedPayment({
        orderNumber: order.orderNumber,
        region: input.region,
        lines: order.items.map((i) => ({
          name: i.name,
          unitAmountCents: i.priceCents,
          quantity: i.quantity,
        })),
        shippingCents: order.shippingCents,
        taxCents: order.taxCents,
        totalCents: order.totalCents,
        origin: input.origin,
        expiresAt: order.reservation.expiresAt,
      })
      : await deps.payments.createEmbeddedPayment({
        orderNumber: order.orderNumber,
        amountCents: order.totalCents,
        email: input.email ?? "",
      });
  } catch (err) {
    deps.logger({ msg: "payment creation failed", level: "error", error: String(err) });
    await releaseOrder(deps, order.orderNumber, "CANCELLED", "The payment could not start");
    throw new Unavailable(
      "The payment service is not answering right now. Nothing was charged; please try again.",
    );
  }
}
