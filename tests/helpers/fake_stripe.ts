/**
 * A small fake of the Stripe API on loopback, for driving the real `stripe` SDK without internet:
 * just the endpoints the shop's Stripe provider calls, Stripe's form-encoded request bodies, its
 * error shape, idempotency keys, and webhook events signed with the SDK's own test-header helper.
 */
import Stripe from "stripe";
import type { Clock } from "../../server/clock.ts";
import type { PaymentProvider } from "../../server/payments/provider.ts";
import { stripePayments } from "../../server/payments/stripe/provider.ts";

/** The webhook secret the fake signs with (the tests' STRIPE_WEBHOOK_SECRET). */
export const FAKE_WEBHOOK_SECRET = "whsec_test";

/** The shop's Stripe keys in a test app talking to a fake Stripe. */
export const FAKE_STRIPE_ENV = {
  STRIPE_SECRET_KEY: "sk_test_x",
  STRIPE_PUBLISHABLE_KEY: "pk_test_x",
  STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
};

/** A test app's `payments`: the shop's Stripe provider, with those keys, pointed at `fake`. */
export function fakeStripePayments(fake: { url: string }) {
  return (_kv: Deno.Kv, clock: Clock): PaymentProvider =>
    stripePayments({
      secretKey: FAKE_STRIPE_ENV.STRIPE_SECRET_KEY,
      publishableKey: FAKE_STRIPE_ENV.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: FAKE_STRIPE_ENV.STRIPE_WEBHOOK_SECRET,
      apiUrl: fake.url,
      clock,
    });
}

/** A request the fake received, with its form body decoded into nested objects. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Decoded form fields; values stay strings, as Stripe's wire format sends them. */
  params: Params;
  idempotencyKey: string | null;
}

// deno-lint-ignore no-explicit-any
type Params = Record<string, any>;
// deno-lint-ignore no-explicit-any
type StripeObject = Record<string, any>;

/** What the hosted page "collected" when a test pays a session. */
export interface CollectedDetails {
  email?: string;
  name?: string;
  address?: {
    line1: string;
    line2?: string | null;
    city: string;
    state?: string | null;
    postal_code: string;
    country: string;
  };
  taxId?: { type: string; value: string };
  /** A promotion code's discount, taken off the total as Stripe would. */
  discountCents?: number;
}

/** A signed webhook delivery: the exact body and its Stripe-Signature header. */
export interface SignedEvent {
  body: string;
  signature: string;
  event: StripeObject;
}

/** A running fake Stripe. */
export interface FakeStripe {
  /** Base URL, e.g. http://127.0.0.1:41234 (pass as the provider's apiUrl). */
  readonly url: string;
  readonly webhookSecret: string;
  /** Every API request, in arrival order. */
  readonly requests: RecordedRequest[];
  readonly sessions: Map<string, StripeObject>;
  readonly intents: Map<string, StripeObject>;
  readonly refunds: StripeObject[];
  /** The fake's "now" (Unix ms) for expires_at bounds; tests point it at the app's clock. */
  now: () => number;
  /** Answers the next n API requests with a 500 api_error (not retried: Stripe-Should-Retry). */
  failNext: number;
  /** The status new refunds start in ("pending" for one that settles later). */
  refundStatus: "succeeded" | "pending";
  /** Settles a pending refund, as Stripe does later; answers it for a webhook event. */
  settleRefund(id: string, status: "succeeded" | "failed", failureReason?: string): StripeObject;
  /** Requests with this method whose path starts with `prefix`. */
  requestsTo(method: string, prefix: string): RecordedRequest[];
  /** Completes a session as the hosted page would: paid, with a succeeded PaymentIntent. */
  markSessionPaid(id: string, details?: CollectedDetails): StripeObject;
  /** Confirms a PaymentIntent successfully. */
  markIntentPaid(id: string): StripeObject;
  /** Declines a PaymentIntent's confirmation. */
  failIntent(id: string, message?: string): StripeObject;
  /** A webhook event of `type` about `object`, signed for the fake's webhook secret. */
  signedEvent(
    type: string,
    object: StripeObject,
    options?: { id?: string; created?: number },
  ): Promise<SignedEvent>;
  [Symbol.asyncDispose](): Promise<void>;
}

let counter = 0;
function newId(prefix: string): string {
  const random = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
  return `${prefix}_test_${(++counter).toString(36)}${random}`;
}

/**
 * Decodes Stripe's form encoding (`line_items[0][price_data][unit_amount]=999`) into nested
 * objects, turning objects keyed 0..n-1 into arrays.
 */
export function decodeForm(text: string): Params {
  const root: Params = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const path = name.match(/^[^[]+|\[[^\]]*\]/g)?.map((p) => p.replace(/^\[|\]$/g, "")) ?? [name];
    let node = root;
    for (let i = 0; i < path.length - 1; i++) {
      node[path[i]] ??= {};
      node = node[path[i]];
    }
    node[path[path.length - 1]] = value;
  }
  return arraysOf(root);
}

// deno-lint-ignore no-explicit-any
function arraysOf(value: any): any {
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value);
  for (const k of keys) value[k] = arraysOf(value[k]);
  const isList = keys.length > 0 && keys.every((k, i) => k === String(i));
  return isList ? keys.map((k) => value[k]) : value;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; message: string; code?: string; param?: string },
  ) {
    super(body.message);
  }
}

function invalid(message: string, param?: string, code?: string): StripeApiError {
  return new StripeApiError(400, { type: "invalid_request_error", message, param, code });
}

function missing(kind: string, id: string, param = "id"): StripeApiError {
  return new StripeApiError(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    message: `No such ${kind}: '${id}'`,
    param,
  });
}

function int(value: unknown, param: string, min = 0): number {
  const n = Number(value);
  if (typeof value !== "string" || !/^-?\d+$/.test(value) || n < min) {
    throw invalid(`Invalid integer: ${value}`, param);
  }
  return n;
}

/** Starts the fake on 127.0.0.1 with a free port. */
export function startFakeStripe(
  options: { webhookSecret?: string; now?: () => number } = {},
): Promise<FakeStripe> {
  const webhookSecret = options.webhookSecret ?? FAKE_WEBHOOK_SECRET;
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, StripeObject>();
  const intents = new Map<string, StripeObject>();
  const refunds: StripeObject[] = [];
  const idempotent = new Map<string, { request: string; status: number; body: string }>();
  const cryptoProvider = Stripe.createSubtleCryptoProvider();

  function createIntent(params: Params, extra: StripeObject = {}): StripeObject {
    const id = newId("pi");
    const intent: StripeObject = {
      id,
      object: "payment_intent",
      amount: int(params.amount, "amount", 50),
      amount_received: 0,
      currency: params.currency ?? "usd",
      automatic_payment_methods: params.automatic_payment_methods
        ? { enabled: params.automatic_payment_methods.enabled === "true" }
        : null,
      client_secret: `${id}_secret_${crypto.randomUUID().slice(0, 8)}`,
      created: Math.floor(fake.now() / 1000),
      last_payment_error: null,
      livemode: false,
      metadata: params.metadata ?? {},
      receipt_email: params.receipt_email ?? null,
      status: "requires_payment_method",
      ...extra,
    };
    if (!intent.currency) throw invalid("Missing required param: currency.", "currency");
    intents.set(id, intent);
    return intent;
  }

  function createSession(params: Params): StripeObject {
    if (params.mode !== "payment") throw invalid("This fake supports mode=payment only", "mode");
    if (!params.success_url) throw invalid("Missing required param: success_url.", "success_url");
    const lines: Params[] = params.line_items ?? [];
    if (!Array.isArray(lines) || lines.length === 0) {
      throw invalid("Missing required param: line_items.", "line_items");
    }
    let subtotal = 0;
    lines.forEach((line, i) => {
      const price = line.price_data;
      if (!price?.currency || !price.product_data?.name) {
        throw invalid("price_data needs currency and product_data.name", `line_items[${i}]`);
      }
      subtotal += int(price.unit_amount, `line_items[${i}][price_data][unit_amount]`) *
        int(line.quantity, `line_items[${i}][quantity]`, 1);
    });
    const rate = params.shipping_options?.[0]?.shipping_rate_data;
    const shipping = rate ? int(rate.fixed_amount?.amount, "shipping_options") : 0;
    const now = Math.floor(fake.now() / 1000);
    const expiresAt = params.expires_at === undefined
      ? now + 86400
      : int(params.expires_at, "expires_at");
    // Stripe's rule: a session lives between 30 minutes and 24 hours.
    if (expiresAt < now + 1800 || expiresAt > now + 86400) {
      throw invalid(
        "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.",
        "expires_at",
      );
    }
    const id = newId("cs");
    const session: StripeObject = {
      id,
      object: "checkout.session",
      allow_promotion_codes: params.allow_promotion_codes === "true",
      amount_subtotal: subtotal,
      amount_total: subtotal + shipping,
      cancel_url: params.cancel_url ?? null,
      client_reference_id: params.client_reference_id ?? null,
      collected_information: null,
      created: now,
      currency: "usd",
      customer_details: null,
      expires_at: expiresAt,
      livemode: false,
      metadata: params.metadata ?? {},
      mode: "payment",
      payment_intent: null,
      payment_status: "unpaid",
      shipping_address_collection: params.shipping_address_collection ?? null,
      status: "open",
      success_url: params.success_url.replace("{CHECKOUT_SESSION_ID}", id),
      tax_id_collection: params.tax_id_collection
        ? { enabled: params.tax_id_collection.enabled === "true", required: "never" }
        : null,
      total_details: { amount_discount: 0, amount_shipping: shipping, amount_tax: 0 },
      url: `https://checkout.stripe.test/c/pay/${id}`,
      // Kept for paying the session later; real Stripe does not echo it.
      _payment_intent_data: params.payment_intent_data ?? {},
    };
    sessions.set(id, session);
    return session;
  }

  function publicView(object: StripeObject): StripeObject {
    return Object.fromEntries(Object.entries(object).filter(([k]) => !k.startsWith("_")));
  }

  function session(id: string): StripeObject {
    const s = sessions.get(id);
    if (!s) throw missing("checkout.session", id);
    return s;
  }

  function intent(id: string, param = "id"): StripeObject {
    const i = intents.get(id);
    if (!i) throw missing("payment_intent", id, param);
    return i;
  }

  function route(method: string, path: string, params: Params): StripeObject {
    let m: RegExpMatchArray | null;
    if (method === "POST" && path === "/v1/checkout/sessions") return createSession(params);
    if (method === "GET" && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/))) {
      return session(m[1]);
    }
    if (method === "POST" && (m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/))) {
      const s = session(m[1]);
      if (s.status !== "open") {
        throw invalid(
          `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`,
        );
      }
      s.status = "expired";
      return s;
    }
    if (method === "POST" && path === "/v1/payment_intents") return createIntent(params);
    if (method === "GET" && (m = path.match(/^\/v1\/payment_intents\/([^/]+)$/))) {
      return intent(m[1]);
    }
    if (method === "POST" && (m = path.match(/^\/v1\/payment_intents\/([^/]+)\/cancel$/))) {
      const i = intent(m[1]);
      if (i.status === "succeeded" || i.status === "canceled") {
        throw invalid(
          `You cannot cancel this PaymentIntent because it has a status of ${i.status}.`,
          undefined,
          "payment_intent_unexpected_state",
        );
      }
      i.status = "canceled";
      return i;
    }
    if (method === "POST" && path === "/v1/refunds") {
      if (!params.payment_intent) throw invalid("Missing payment_intent", "payment_intent");
      const i = intent(params.payment_intent, "payment_intent");
      if (i.status !== "succeeded") {
        throw invalid("This PaymentIntent has no successful charge to refund.", "payment_intent");
      }
      const already = refunds.filter((r) => r.payment_intent === i.id)
        .reduce((sum, r) => sum + r.amount, 0);
      const amount = params.amount === undefined
        ? i.amount_received - already
        : int(params.amount, "amount", 1);
      if (amount <= 0 || already + amount > i.amount_received) {
        throw invalid(
          `Charge for ${i.id} has already been refunded.`,
          undefined,
          "charge_already_refunded",
        );
      }
      const refund = {
        id: newId("re"),
        object: "refund",
        amount,
        currency: i.currency,
        payment_intent: i.id,
        status: fake.refundStatus,
        failure_reason: null,
        metadata: params.metadata ?? {},
        created: Math.floor(fake.now() / 1000),
      };
      refunds.push(refund);
      return refund;
    }
    if (method === "GET" && path === "/v1/refunds") {
      const data = refunds.filter((r) =>
        !params.payment_intent || r.payment_intent === params.payment_intent
      )
        .reverse().slice(0, Number(params.limit ?? 10));
      return { object: "list", data, has_more: false, url: "/v1/refunds" };
    }
    if (method === "GET" && (m = path.match(/^\/v1\/refunds\/([^/]+)$/))) {
      const refund = refunds.find((r) => r.id === m![1]);
      if (!refund) throw missing("refund", m[1]);
      return refund;
    }
    throw new StripeApiError(404, {
      type: "invalid_request_error",
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const text = req.method === "GET" ? url.search.slice(1) : await req.text();
    const params = decodeForm(text);
    const idempotencyKey = req.headers.get("idempotency-key");
    requests.push({ method: req.method, path: url.pathname, params, idempotencyKey });

    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      new Response(typeof body === "string" ? body : JSON.stringify(body), {
        status,
        headers: { "content-type": "application/json", "request-id": newId("req"), ...headers },
      });
    if (!/^Bearer sk_test_\w+$/.test(req.headers.get("authorization") ?? "")) {
      return json(401, {
        error: { type: "invalid_request_error", message: "Invalid API Key provided" },
      });
    }
    if (fake.failNext > 0) {
      fake.failNext--;
      return json(500, { error: { type: "api_error", message: "Fake outage" } }, {
        "stripe-should-retry": "false",
      });
    }
    const fingerprint = `${req.method} ${url.pathname} ${text}`;
    if (idempotencyKey && req.method === "POST") {
      const seen = idempotent.get(idempotencyKey);
      if (seen && seen.request !== fingerprint) {
        return json(400, {
          error: {
            type: "idempotency_error",
            message:
              "Keys for idempotent requests can only be used with the same parameters they were first used with.",
          },
        });
      }
      if (seen) return json(seen.status, seen.body, { "idempotent-replayed": "true" });
    }
    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(publicView(route(req.method, url.pathname, params)));
    } catch (err) {
      if (!(err instanceof StripeApiError)) throw err;
      status = err.status;
      body = JSON.stringify({ error: err.body });
    }
    if (idempotencyKey && req.method === "POST") {
      idempotent.set(idempotencyKey, { request: fingerprint, status, body });
    }
    return json(status, body);
  }

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handle);

  const fake: FakeStripe = {
    url: `http://127.0.0.1:${server.addr.port}`,
    webhookSecret,
    requests,
    sessions,
    intents,
    refunds,
    now: options.now ?? (() => Date.now()),
    failNext: 0,
    refundStatus: "succeeded",
    settleRefund(id, status, failureReason) {
      const refund = refunds.find((r) => r.id === id);
      if (!refund) throw new Error(`no refund ${id}`);
      Object.assign(refund, { status, failure_reason: failureReason ?? null });
      return { ...refund };
    },
    requestsTo: (method, prefix) =>
      requests.filter((r) => r.method === method && r.path.startsWith(prefix)),
    markSessionPaid(id, details = {}) {
      const s = session(id);
      if (s.status !== "open") throw new Error(`Session ${id} is ${s.status}, not open`);
      const discount = details.discountCents ?? 0;
      const amount = s.amount_total - discount;
      const pi = createIntent({ amount: String(amount), currency: "usd" }, {
        metadata: s._payment_intent_data.metadata ?? {},
        status: "succeeded",
        amount_received: amount,
      });
      const address = details.address ? { line2: null, state: null, ...details.address } : {
        line1: "1 Main St",
        line2: null,
        city: "Springfield",
        state: "IL",
        postal_code: "62701",
        country: "US",
      };
      Object.assign(s, {
        status: "complete",
        payment_status: "paid",
        payment_intent: pi.id,
        amount_total: amount,
        total_details: { ...s.total_details, amount_discount: discount },
        customer_details: {
          address,
          business_name: null,
          email: details.email ?? "buyer@example.com",
          individual_name: null,
          name: details.name ?? "Pat Buyer",
          phone: null,
          tax_exempt: "none",
          tax_ids: details.taxId ? [details.taxId] : [],
        },
        collected_information: {
          business_name: null,
          individual_name: null,
          shipping_details: { name: details.name ?? "Pat Buyer", address },
        },
      });
      return publicView(s);
    },
    markIntentPaid(id) {
      const i = intent(id);
      Object.assign(i, {
        status: "succeeded",
        amount_received: i.amount,
        last_payment_error: null,
      });
      return { ...i };
    },
    failIntent(id, message = "Your card was declined.") {
      const i = intent(id);
      Object.assign(i, {
        status: "requires_payment_method",
        last_payment_error: { type: "card_error", code: "card_declined", message },
      });
      return { ...i };
    },
    async signedEvent(type, object, options = {}) {
      const event = {
        id: options.id ?? newId("evt"),
        object: "event",
        api_version: Stripe.API_VERSION,
        created: options.created ?? Math.floor(Date.now() / 1000),
        data: { object: publicView(object) },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      };
      const body = JSON.stringify(event, null, 2);
      // The worker build of the SDK (Deno's) signs with Web Crypto, which is async only, so the
      // async twin of generateTestHeaderString is the one that works here.
      const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
        payload: body,
        secret: webhookSecret,
        cryptoProvider,
      });
      return { body, signature, event };
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
  return Promise.resolve(fake);
}
