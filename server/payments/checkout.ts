import { computeTotals, type Region } from "../../shared/policy.ts";
import type { AppDeps } from "../deps.ts";
import { HttpError, NotFound } from "../errors.ts";
import { getCart } from "../db/cart.ts";
import { priceLines, subtotalOf } from "../db/cart_view.ts";
import { keys } from "../db/keys.ts";
import {
  type Address,
  attachPayment,
  createReservedOrder,
  findOrder,
  type Order,
  orderItemsOf,
  releaseOrder,
} from "../db/orders.ts";
import { getPromo } from "../db/promo.ts";
import type { PaymentRef } from "./provider.ts";
import { stopPayment } from "./stop_payment.ts";

/** What a checkout starts from. */
export interface CheckoutInput {
  cartId: string;
  region: Region;
  /** Hosted: the provider's page collects the rest; embedded: the /checkout page's form. */
  mode: "hosted" | "embedded";
  origin: string;
  email?: string | null;
  customerName?: string | null;
  address?: Address | null;
  promoCode?: string | null;
  userId?: string | null;
}

/** Dependencies checkout needs. */
export type CheckoutDeps = Pick<AppDeps, "kv" | "clock" | "config" | "payments" | "logger"> & {
  imageBase: string;
};

/**
 * Starts a payment for a cart: prices it on the server, reserves its stock with the order in
 * STARTED, then creates the provider's session or intent. A previous unpaid checkout of the same
 * cart is released first, so retries and changed details never hold stock twice.
 */
export async function startCheckout(
  deps: CheckoutDeps,
  input: CheckoutInput,
): Promise<{ order: Order; payment: PaymentRef }> {
  const { kv, clock, config, payments } = deps;
  const cart = await getCart(kv, clock, input.cartId);
  const lines = await priceLines(kv, cart.lines, deps.imageBase);
  if (lines.length === 0) throw new NotFound("Your cart is empty");

  let percentOff = 0;
  let promoCode: string | null = null;
  if (input.promoCode?.trim()) {
    const promo = await getPromo(kv, input.promoCode);
    percentOff = promo.percentOff;
    promoCode = promo.code;
  }
  const subtotal = subtotalOf(lines);
  const totals = computeTotals(subtotal, input.region, percentOff);

  await releasePendingCheckout(deps, input.cartId);
  const reservationMs = config.reservationMinutes * 60_000;
  const order = await createReservedOrder(kv, clock, lines, {
    ...totals,
    region: input.region,
    cartId: input.cartId,
    userId: input.userId ?? cart.userId ?? null,
    email: input.email ?? null,
    customerName: input.customerName ?? null,
    shippingAddress: input.address ?? null,
    items: orderItemsOf(lines),
    promoCode,
    taxId: null,
  }, reservationMs);

  let payment: PaymentRef;
  try {
    payment = input.mode === "hosted"
      ? await payments.createCheckoutSession({
        orderNumber: order.orderNumber,
        region: input.region,
        lines: order.items.map((i) => ({
          name: i.name,
          unitAmountCents: i.priceCents,
          quantity: i.quantity,
        })),
        shippingCents: totals.shippingCents,
        taxCents: totals.taxCents,
        totalCents: totals.totalCents,
        successUrl: `${input.origin}/order-success?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${input.origin}/cart`,
        expiresAt: order.reservation.expiresAt,
      })
      : await payments.createPaymentIntent({
        orderNumber: order.orderNumber,
        amountCents: totals.totalCents,
        email: input.email ?? "",
      });
  } catch (err) {
    deps.logger({ msg: "payment creation failed", level: "error", error: String(err) });
    await releaseOrder(kv, clock, order.orderNumber, "CANCELLED", "The payment could not start");
    throw new HttpError(
      503,
      "The payment service is not answering right now. Nothing was charged; please try again.",
    );
  }
  const withPayment = await attachPayment(kv, clock, order.orderNumber, payment);
  return { order: withPayment, payment };
}

/** Releases the cart's previous unpaid checkout, if there is one, and stops its payment. */
async function releasePendingCheckout(deps: CheckoutDeps, cartId: string): Promise<void> {
  const pending = await deps.kv.get<string>(keys.pendingCheckout(cartId));
  if (!pending.value) return;
  const order = await findOrder(deps.kv, pending.value);
  if (order?.status !== "STARTED") return;
  await releaseOrder(
    deps.kv,
    deps.clock,
    order.orderNumber,
    "CANCELLED",
    "Replaced by a new checkout",
  );
  await stopPayment(deps.payments, order);
}
