import type Stripe from "stripe";
import { type Clock, systemClock } from "../../clock.ts";
import { ConfigError, InvalidInput } from "../../errors.ts";
import type {
  EmbeddedPaymentInput,
  HostedPaymentInput,
  PaidDetails,
  PaymentEvent,
  PaymentProvider,
  PaymentRef,
  RefundOutcome,
} from "../provider.ts";
import { storedPaymentKind } from "../provider.ts";
import { loadOnce } from "../../load_once.ts";

/** Stripe settings. */
export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Where the Stripe API is (tests point it at a fake server on loopback). */
  apiUrl?: string;
  /** Time source for session expiry bounds; the system clock unless a test fixes it. */
  clock?: Clock;
}

/**
 * The Stripe settings in the environment: all three keys (Stripe is used), none (it is not), or
 * some, which stops the start with the one line naming what is missing.
 */
export function stripeSettings(env: Record<string, string | undefined>): StripeSettings | null {
  const secretKey = keyIn(env, "STRIPE_SECRET_KEY");
  const publishableKey = keyIn(env, "STRIPE_PUBLISHABLE_KEY");
  const webhookSecret = keyIn(env, "STRIPE_WEBHOOK_SECRET");
  const set = [secretKey, publishableKey, webhookSecret].filter(Boolean).length;
  if (set === 0) return null;
  if (set !== 3) {
    throw new ConfigError(
      "Incomplete Stripe settings: set all of STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and " +
        "STRIPE_WEBHOOK_SECRET, or none of them for demo payments",
    );
  }
  return { secretKey: secretKey!, publishableKey: publishableKey!, webhookSecret: webhookSecret! };
}

/**
 * A key as set, without the spaces or newline an env file or a secret store may add (a webhook
 * secret with a trailing newline would refuse every webhook); a blank one stops the start.
 */
function keyIn(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  if (value.trim() === "") {
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(value)}: must not be blank`);
  }
  return value.trim();
}

/**
 * Whether a payment is a Checkout Session. Read through `storedPaymentKind`: during a rolling
 * deploy an instance still on the code before migration 6 may write an order with the old name.
 */
function isHosted(ref: PaymentRef): boolean {
  return storedPaymentKind(ref.kind) === "hosted";
}

/** What Stripe.js needs the shop's CSP to allow (its script, frames, images and API). */
export const STRIPE_CSP = {
  script: ["https://js.stripe.com", "https://hooks.stripe.com"],
  frame: ["https://js.stripe.com", "https://hooks.stripe.com"],
  img: ["https://*.stripe.com"],
  connect: ["https://api.stripe.com"],
};

type AllowedCountry = Stripe.Checkout.SessionCreateParams.ShippingAddressCollection.AllowedCountry;

/**
 * Countries the international checkout ships to: the US has its own button, and Stripe needs an
 * explicit list (there is no "everywhere but" option).
 */
// deno-fmt-ignore
export const INTERNATIONAL_COUNTRIES: readonly AllowedCountry[] = [
  "CA", "MX", "GB", "IE", "FR", "DE", "NL", "BE", "LU", "AT", "CH", "LI", "IT", "ES", "PT", "DK",
  "SE", "NO", "FI", "IS", "PL", "CZ", "SK", "HU", "SI", "HR", "RO", "BG", "GR", "CY", "MT", "EE",
  "LV", "LT", "AU", "NZ", "JP", "KR", "TW", "HK", "SG", "MY", "TH", "PH", "ID", "VN", "IN", "AE",
  "SA", "IL", "TR", "ZA", "BR", "AR", "CL", "CO", "PE", "UY", "CR",
];

/** Stripe's bounds on a Checkout Session's expires_at, from its creation. */
const MIN_SESSION_SECONDS = 30 * 60;
const MAX_SESSION_SECONDS = 24 * 60 * 60;
/** Margin for the request's travel time and clock skew, so Stripe never sees it out of bounds. */
const EXPIRY_MARGIN_SECONDS = 60;

/** Marks intents Checkout creates, whose events the session's own events already cover. */
const VIA_CHECKOUT = "checkout_session";

/** Stripe's SDK (its default export, the client class with its helpers). */
type StripeSdk = typeof Stripe;

/** The SDK once loaded: any call that can throw one of its errors has loaded it first. */
let loadedSdk: StripeSdk | null = null;
/**
 * Stripe's SDK, loaded when a Stripe provider is made: a shop on the demo provider (development,
 * every test's app) never loads it, which cost about 0.1 s of a core at each start (measured).
 */
const stripeSdk = loadOnce(() => import("stripe").then((module) => loadedSdk = module.default));

/** The Stripe provider: Checkout Sessions for hosted checkout, PaymentIntents for /checkout. */
export function stripePayments(settings: StripeSettings): PaymentProvider {
  const stripe = loadOnce(async () => stripeClient(await stripeSdk(), settings));
  // Loading starts with the provider, so the first checkout does not wait for it.
  stripe();
  const clock = settings.clock ?? systemClock;

  const provider: PaymentProvider = {
    name: "stripe",
    label: "Stripe",
    publishableKey: settings.publishableKey,
    // allow_promotion_codes takes Stripe's own codes; the shop never counts their use.
    ownPromoCodes: true,

    async createHostedPayment(input: HostedPaymentInput): Promise<PaymentRef> {
      const international = input.region === "international";
      const lineItems: Stripe.Checkout.SessionCreateParams.LineItem[] = input.lines.map((l) => ({
        quantity: l.quantity,
        price_data: {
          currency: "usd",
          unit_amount: l.unitAmountCents,
          product_data: { name: l.name },
        },
      }));
      // The shop's estimated tax is a plain line, so a Stripe promotion code discounts it by the
      // same percentage as the goods, which is what taxing the discounted subtotal gives.
      if (input.taxCents > 0) {
        lineItems.push({
          quantity: 1,
          price_data: {
            currency: "usd",
            unit_amount: input.taxCents,
            product_data: { name: "Estimated tax" },
          },
        });
      }
      const metadata = { orderNumber: input.orderNumber };
      const session = await (await stripe()).checkout.sessions.create({
        mode: "payment",
        line_items: lineItems,
        // A shipping rate rather than a line: promotion codes never discount shipping.
        shipping_options: [{
          shipping_rate_data: {
            type: "fixed_amount",
            display_name: input.shippingCents > 0
              ? (international ? "International shipping" : "US shipping")
              : "Free US shipping",
            fixed_amount: { amount: input.shippingCents, currency: "usd" },
          },
        }],
        shipping_address_collection: {
          allowed_countries: international ? [...INTERNATIONAL_COUNTRIES] : ["US"],
        },
        ...(international ? { tax_id_collection: { enabled: true } } : {}),
        allow_promotion_codes: true,
        expires_at: sessionExpiresAt(input.expiresAt, clock.now()),
        // Stripe puts the session's id in place of its placeholder.
        success_url: `${input.origin}/order-success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${input.origin}/cart`,
        client_reference_id: input.orderNumber,
        metadata,
        payment_intent_data: { metadata: { ...metadata, via: VIA_CHECKOUT } },
      }, { idempotencyKey: `checkout-session-${input.orderNumber}` });
      if (!session.url) {
        throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
      }
      return { provider: "stripe", kind: "hosted", id: session.id, url: session.url };
    },

    async createEmbeddedPayment(input: EmbeddedPaymentInput): Promise<PaymentRef> {
      const intent = await (await stripe()).paymentIntents.create({
        amount: input.amountCents,
        currency: "usd",
        automatic_payment_methods: { enabled: true },
        ...(input.email ? { receipt_email: input.email } : {}),
        metadata: { orderNumber: input.orderNumber },
      }, { idempotencyKey: `payment-intent-${input.orderNumber}` });
      if (!intent.client_secret) {
        throw new Error(`Stripe returned payment intent ${intent.id} without a client secret`);
      }
      return {
        provider: "stripe",
        kind: "embedded",
        id: intent.id,
        clientSecret: intent.client_secret,
      };
    },

    async stop(ref: PaymentRef, orderNumber: string): Promise<PaymentEvent | null> {
      try {
        if (isHosted(ref)) await (await stripe()).checkout.sessions.expire(ref.id);
        else await (await stripe()).paymentIntents.cancel(ref.id);
        return null;
      } catch (err) {
        // Already expired, completed or cancelled: ask which, so a taken payment is not lost.
        if (!isInvalidState(err)) throw err;
        return await provider.poll(ref, orderNumber);
      }
    },

    async extend(ref: PaymentRef, expiresAt: number): Promise<boolean> {
      // A payment intent has no end of its own: the shop's expiry stops it.
      if (!isHosted(ref)) return true;
      // A Checkout Session's expires_at is fixed when it is made (Stripe cannot change it), so a
      // hold can only run on to the session's own end.
      const session = await (await stripe()).checkout.sessions.retrieve(ref.id);
      return session.status === "open" && session.expires_at * 1000 >= expiresAt;
    },

    async refund(ref, _amountCents, idempotencyKey, orderNumber): Promise<RefundOutcome> {
      // No amount: a full refund of what Stripe charged, which a promotion code may have lowered.
      const paymentIntent = !isHosted(ref)
        ? ref.id
        : idOf((await (await stripe()).checkout.sessions.retrieve(ref.id)).payment_intent);
      // A session a promotion code made free charged nothing, so there is nothing to give back.
      if (!paymentIntent) return { id: null, status: "succeeded" };
      try {
        // The order number rides on the refund, so its later events find the order.
        const refund = await (await stripe()).refunds.create({
          payment_intent: paymentIntent,
          metadata: { orderNumber },
        }, { idempotencyKey });
        return refundOutcome(refund);
      } catch (err) {
        const { errors } = await stripeSdk();
        if (!(err instanceof errors.StripeError && err.code === "charge_already_refunded")) {
          throw err;
        }
        // Refunded another way (in Stripe's dashboard): that refund is this one.
        const [latest] =
          (await (await stripe()).refunds.list({ payment_intent: paymentIntent, limit: 1 }))
            .data;
        return latest ? refundOutcome(latest) : { id: null, status: "succeeded" };
      }
    },

    async refundStatus(refundId: string): Promise<RefundOutcome> {
      return refundOutcome(await (await stripe()).refunds.retrieve(refundId));
    },

    async poll(ref: PaymentRef, orderNumber: string): Promise<PaymentEvent | null> {
      if (isHosted(ref)) {
        const session = await (await stripe()).checkout.sessions.retrieve(ref.id);
        if (!sessionPaid(session)) return null;
        return {
          id: `poll_${ref.id}_paid`,
          type: "paid",
          orderNumber,
          paymentId: ref.id,
          paymentKind: "hosted",
          details: sessionDetails(session),
        };
      }
      const intent = await (await stripe()).paymentIntents.retrieve(ref.id);
      if (intent.status !== "succeeded") return null;
      return {
        id: `poll_${ref.id}_paid`,
        type: "paid",
        orderNumber,
        paymentId: ref.id,
        paymentKind: "embedded",
      };
    },

    async parseWebhook(body: string, headers: Headers): Promise<PaymentEvent | null> {
      const signature = headers.get("stripe-signature");
      if (!signature) throw new InvalidInput("Invalid signature");
      // Loaded before the check: an SDK that failed to load is the shop's failure (Stripe sends
      // the event again), not a bad signature.
      const sdk = await stripeSdk();
      let event: Stripe.Event;
      try {
        // The signature covers the exact bytes Stripe sent, so the body is read as text.
        event = await sdk.webhooks.constructEventAsync(
          body,
          signature,
          settings.webhookSecret,
          undefined,
          cryptoProviderOf(sdk),
        );
      } catch {
        throw new InvalidInput("Invalid signature");
      }
      return stripeEventToPaymentEvent(event);
    },
  };
  return provider;
}

/** Web Crypto: the SDK's synchronous Node crypto does not exist in Deno's worker build. */
let cryptoProvider: ReturnType<StripeSdk["createSubtleCryptoProvider"]> | null = null;

function cryptoProviderOf(sdk: StripeSdk) {
  cryptoProvider ??= sdk.createSubtleCryptoProvider();
  return cryptoProvider;
}

/** A Stripe client for the settings; `apiUrl` moves it off api.stripe.com (tests). */
function stripeClient(sdk: StripeSdk, settings: StripeSettings): Stripe {
  const config: ConstructorParameters<StripeSdk>[1] = {
    httpClient: sdk.createFetchHttpClient(),
    // A checkout must fail fast (503, nothing charged) rather than hang for the SDK's 80 s.
    timeout: 20_000,
    maxNetworkRetries: 2,
  };
  if (settings.apiUrl) {
    const url = new URL(settings.apiUrl);
    config.host = url.hostname;
    config.port = url.port || (url.protocol === "http:" ? 80 : 443);
    config.protocol = url.protocol === "http:" ? "http" : "https";
  }
  return new sdk(settings.secretKey, config);
}

/**
 * The session's expires_at in Unix seconds: the reservation's end, kept inside Stripe's 30 min to
 * 24 h window (with a margin), since the reservation is exactly 30 minutes by default and Stripe
 * counts from when the request arrives. A session outliving the reservation by the margin is safe:
 * the expiry job expires the session, and a late payment is still recorded (or refunded).
 */
export function sessionExpiresAt(reservationEndsAt: number, now: number): number {
  const nowSeconds = Math.ceil(now / 1000);
  const wanted = Math.floor(reservationEndsAt / 1000);
  const earliest = nowSeconds + MIN_SESSION_SECONDS + EXPIRY_MARGIN_SECONDS;
  const latest = nowSeconds + MAX_SESSION_SECONDS - EXPIRY_MARGIN_SECONDS;
  return Math.min(Math.max(wanted, earliest), latest);
}

/** Stripe's answer for an object that is past the state the call needs (already expired etc.). */
function isInvalidState(err: unknown): boolean {
  return loadedSdk !== null && err instanceof loadedSdk.errors.StripeInvalidRequestError;
}

function idOf(value: string | { id: string } | null): string | null {
  return typeof value === "string" ? value : value?.id ?? null;
}

/** A Stripe refund as the shop's outcome: requires_action and pending are not final yet. */
export function refundOutcome(refund: Stripe.Refund): RefundOutcome {
  switch (refund.status) {
    case "succeeded":
      return { id: refund.id, status: "succeeded" };
    case "failed":
    case "canceled":
      return {
        id: refund.id,
        status: "failed",
        failureReason: refund.failure_reason ?? `the refund was ${refund.status}`,
      };
    default:
      return { id: refund.id, status: "pending" };
  }
}

/** A completed session's money is in: paid, or nothing to pay (a 100% promotion code). */
function sessionPaid(session: Stripe.Checkout.Session): boolean {
  return session.payment_status === "paid" || session.payment_status === "no_payment_required";
}

/** What the hosted page collected: contact, shipping address, tax ID and the final amounts. */
export function sessionDetails(session: Stripe.Checkout.Session): PaidDetails {
  const customer = session.customer_details;
  const shipping = session.collected_information?.shipping_details;
  const address = shipping?.address ?? customer?.address ?? null;
  const taxId = customer?.tax_ids?.find((t) => t.value);
  return {
    email: customer?.email ?? null,
    customerName: shipping?.name ?? customer?.name ?? null,
    address: address?.line1
      ? {
        street: address.line1,
        apartment: address.line2 ?? "",
        city: address.city ?? "",
        state: address.state ?? "",
        zipCode: address.postal_code ?? "",
        country: address.country ?? "",
      }
      : null,
    taxId: taxId?.value ? { type: taxId.type, value: taxId.value } : null,
    ...dollarAmounts(session),
  };
}

/**
 * The charged total and discount in dollars. With Stripe's adaptive pricing a customer may pay in
 * their own currency; the session's amounts are then in that currency, and the order keeps cents
 * of the dollar prices it was built from.
 */
function dollarAmounts(
  session: Stripe.Checkout.Session,
): Pick<PaidDetails, "amountTotalCents" | "amountDiscountCents"> {
  const total = session.amount_total;
  const discount = session.total_details?.amount_discount ?? null;
  const conversion = session.currency_conversion;
  if (!conversion || session.currency === conversion.source_currency) {
    return { amountTotalCents: total, amountDiscountCents: discount };
  }
  const usdTotal = conversion.amount_total;
  return {
    amountTotalCents: usdTotal,
    // Stripe reports the discount in the customer's currency only: convert it at the same ratio.
    amountDiscountCents: discount === null || !total
      ? null
      : Math.round(discount * usdTotal / total),
  };
}

/**
 * A Stripe webhook event as the shop's normalised payment event, or null for events the shop does
 * not act on. The payment id is the object the order keeps: the session for hosted checkout, the
 * intent for /checkout.
 */
export function stripeEventToPaymentEvent(event: Stripe.Event): PaymentEvent | null {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const session = event.data.object;
      // A delayed payment method completes the page before the money arrives; wait for it.
      if (!sessionPaid(session)) return null;
      return {
        id: event.id,
        type: "paid",
        orderNumber: sessionOrderNumber(session),
        paymentId: session.id,
        paymentKind: "hosted",
        details: sessionDetails(session),
      };
    }
    case "checkout.session.async_payment_failed": {
      const session = event.data.object;
      return {
        id: event.id,
        type: "failed",
        orderNumber: sessionOrderNumber(session),
        paymentId: session.id,
        paymentKind: "hosted",
        failureMessage: "The payment failed",
      };
    }
    case "checkout.session.expired": {
      const session = event.data.object;
      return {
        id: event.id,
        type: "expired",
        orderNumber: sessionOrderNumber(session),
        paymentId: session.id,
        paymentKind: "hosted",
      };
    }
    case "payment_intent.succeeded": {
      const intent = event.data.object;
      // Checkout's own intent: checkout.session.completed records it under the session's id.
      if (intent.metadata?.via === VIA_CHECKOUT) return null;
      return {
        id: event.id,
        type: "paid",
        orderNumber: intent.metadata?.orderNumber ?? "",
        paymentId: intent.id,
        paymentKind: "embedded",
        details: { email: intent.receipt_email ?? null },
      };
    }
    case "payment_intent.payment_failed": {
      const intent = event.data.object;
      // Checkout shows a declined card on its own page and lets the customer try again.
      if (intent.metadata?.via === VIA_CHECKOUT) return null;
      return {
        id: event.id,
        type: "failed",
        orderNumber: intent.metadata?.orderNumber ?? "",
        paymentId: intent.id,
        paymentKind: "embedded",
        failureMessage: intent.last_payment_error?.message ?? "The payment failed",
      };
    }
    case "refund.created":
    case "refund.updated":
    case "refund.failed":
    case "charge.refund.updated": {
      const refund = event.data.object as Stripe.Refund;
      return {
        id: event.id,
        type: "refund",
        // Set by the shop's own refunds; one made in Stripe's dashboard has none and is ignored.
        orderNumber: refund.metadata?.orderNumber ?? "",
        paymentId: idOf(refund.payment_intent) ?? "",
        paymentKind: "embedded",
        refund: refundOutcome(refund),
      };
    }
    default:
      return null;
  }
}

function sessionOrderNumber(session: Stripe.Checkout.Session): string {
  return session.metadata?.orderNumber ?? session.client_reference_id ?? "";
}
