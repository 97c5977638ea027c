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
import type { Clock } from "../clock.ts";
import { putJob } from "../kv/jobs.ts";
import { Conflict, NotFound, Unavailable } from "../errors.ts";
import { CART_GONE, type CartRecord, liveCart } from "../cart/store.ts";
import { priceLines, subtotalOf } from "../cart/view.ts";
import { type HoldsEntry } from "../stock/holds.ts";
import { keys } from "../kv/keys.ts";
import { hitRateLimit, type RateLimit } from "../kv/rate_limit.ts";
import { updateOrder } from "./store.ts";
import { normalizePromoCode, readUsage, type UsageWant } from "../promos/store.ts";
import { allLanded } from "../kv/kv_util.ts";
import { checkTerms, usageWant } from "../promos/rules.ts";
import type { PaymentRef } from "../payments/provider.ts";
import { MAX_ORDER_COMPONENTS, needOf, type Order } from "./order.ts";
import { releaseOrder } from "./release.ts";
import { stopJob } from "./stop_job.ts";
import { stopSoon } from "./stops.ts";
import { runStockJob } from "../stock/batch.ts";
import { step } from "./steps.ts";
import { InvalidInput } from "../errors.ts";
import { DropRefused } from "../drops/purchase_rules.ts";
import { countRefusal } from "../drops/store.ts";
import { guessTargets, readDropIndex } from "../drops/line_drops.ts";
import {
  CartChanged,
  type CheckoutDeps,
  type CheckoutInput,
  type PricedCart,
  reservationJob,
  type Reserved,
} from "./reservation.ts";

/** Checkouts a client may start per 10 minutes: `max` is CHECKOUTS_PER_CLIENT. */
export const CHECKOUT_LIMIT: RateLimit = { bucket: "checkout", max: 20, windowMs: 10 * 60_000 };

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

  const payment = await step(
    deps,
    "create payment",
    () => createPayment(deps, input, order),
    order.orderNumber,
  );
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
    order.orderNumber,
  );
  if (attached.payment?.id !== payment.id) {
    // Replaced, cancelled or expired while the provider made the payment: it must not be payable.
    const job = stopJob(order.orderNumber, payment, deps.clock.now());
    await putJob(deps.kv, job, { at: deps.clock.now() });
    await stopSoon(deps, job);
    throw new Conflict(
      "This checkout was replaced or cancelled before its payment could start. Return to your cart to check out again.",
    );
  }
  return { order: attached, payment };
}

/** How often a checkout prices the cart again when it changed while being reserved. */
const CART_TRIES = 3;

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
        (reserved) => reserved.order.orderNumber,
      );
    } catch (err) {
      // A drop's refusal is counted for the owner's view (sold out, past the limit, no place).
      if (err instanceof DropRefused) await countRefusal(deps.kv, err.dropId, err.reason);
      if (!(err instanceof CartChanged)) throw err;
      if (attempt >= CART_TRIES) {
        throw new Conflict(
          "Your cart kept changing while you checked out. Please look it over and check out again.",
        );
      }
    }
  }
}

async function loadCart(
  deps: CheckoutDeps,
  input: CheckoutInput,
  /** Counted against the client's checkouts (a cart priced again is the same checkout). */
  count: boolean,
): Promise<PricedCart> {
  const { kv, clock } = deps;
  const typed = input.promoCode?.trim() || null;
  const promo = typed ? { typed, want: usageWant(normalizePromoCode(typed), input.email) } : null;
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
  // The count is waited for however the reads end: a read that fails must not answer the
  // request while the count's write is still on its way to the store.
  const reading = readCart(kv, clock, input, promo?.want ?? null, deps.imageBase);
  await allLanded<unknown>([counted, reading]);
  const { cartEntry, pending, holds, cart, dropIndex, lines, usage } = await reading;
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
    firstReads: { cart: cartEntry, pending, holds, usage, dropIndex },
  };
}

/**
 * One read for the cart and what the reservation checks first (its pending checkout, the client's
 * holds), then the cart priced and the promo code's usage; the reservation reads those again only
 * if it must retry.
 */
async function readCart(
  kv: Deno.Kv,
  clock: Clock,
  input: CheckoutInput,
  promoWant: UsageWant | null,
  imageBase: string,
) {
  const [cartEntry, pending, holds] = await kv.getMany<[CartRecord, string, never]>([
    keys.cart(input.cartId),
    keys.pendingCheckout(input.cartId),
    keys.holds(input.client),
  ]) as [Deno.KvEntryMaybe<CartRecord>, Deno.KvEntryMaybe<string>, HoldsEntry];
  const cart = liveCart(cartEntry, clock)?.value;
  // Whether a drop takes the cart's units, asked while the cart is priced (no trip of its own).
  const dropIndex = cart
    ? readDropIndex(
      kv,
      guessTargets(
        cart.lines.map((l) =>
          l.kind === "product"
            ? { productId: l.productId }
            : { productId: null, switchIds: l.switchIds }
        ),
      ),
    )
    : null;
  dropIndex?.catch(() => {});
  const [lines, usage] = cart
    ? await Promise.all([
      priceLines(kv, cart.lines, imageBase),
      promoWant ? readUsage(kv, [promoWant]) : null,
    ])
    : [[], null];
  return { cartEntry, pending, holds, cart, dropIndex, lines, usage };
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
