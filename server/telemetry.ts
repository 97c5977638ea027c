/**
 * OpenTelemetry plumbing: the shop's spans and counters, through the OpenTelemetry API that
 * Deno's built-in telemetry serves. With OTEL_DENO=true Deno registers its tracer and meter
 * providers and exports over OTLP (it traces Deno.serve and fetch itself); without it the API is a
 * no-op, so nothing here costs more than a function call. No business rule: callers say what
 * happened, this module only names it for the exporter.
 */
import { type Attributes, metrics, SpanStatusCode, trace } from "@opentelemetry/api";

/** The instrumentation scope every span and counter of the shop carries. */
const SCOPE = "shop";

/** The attribute holding an order's number on a span (one name, so traces can be searched). */
export const ORDER_NUMBER = "shop.order_number";

const tracer = trace.getTracer(SCOPE);
// Deno registers its meter provider before any module runs, so counters made at load are real.
const meter = metrics.getMeter(SCOPE);

/** The shop's counters, by what an operator watches. */
const counters = {
  ordersPaid: meter.createCounter("shop.orders.paid", {
    description: "Orders whose payment was recorded (each order once)",
  }),
  refundsIssued: meter.createCounter("shop.refunds.issued", {
    description: "Refunds the provider completed",
  }),
  refundsFailed: meter.createCounter("shop.refunds.failed", {
    description: "Refunds the provider failed for good (the owner is emailed)",
  }),
  refundsRefused: meter.createCounter("shop.refunds.refused", {
    description: "Refund tries the provider refused or could not be asked; tried again later",
  }),
  holdsExpired: meter.createCounter("shop.holds.expired", {
    description: "Unpaid orders whose stock hold lapsed and was given back",
  }),
  emailsFailed: meter.createCounter("shop.emails.failed", {
    description: "Email delivery tries that failed (final: true when the email was given up)",
  }),
  limitRefusals: meter.createCounter("shop.limit.refusals", {
    description: "Requests refused with 429 by a limit, by its bucket",
  }),
  jobsRetried: meter.createCounter("shop.jobs.retried", {
    description: "Stored jobs that threw and were put back to be tried again, by type",
  }),
};

/** A counter's name in `counters`. */
export type CounterName = keyof typeof counters;

/** Adds one to a counter. */
export function count(name: CounterName, attributes?: Attributes): void {
  counters[name].add(1, attributes);
}

/**
 * Runs `run` inside a span named `name`, the current span (a request's, when there is one) its
 * parent. `attributes` are set first; `after` may add some from the result. A thrown error is
 * recorded on the span and thrown on.
 */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  run: () => Promise<T>,
  after?: (result: T) => Attributes,
): Promise<T> {
  return await tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      const result = await run();
      if (after) span.setAttributes(after(result));
      return result;
    } catch (err) {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: SpanStatusCode.ERROR, message: String((err as Error)?.message) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * Names the current span (the request's, which Deno names by its method alone) by its route, as
 * OpenTelemetry's HTTP conventions do: "GET /api/orders/:orderNumber", with `http.route`. The
 * route pattern, never the path, so the names stay few.
 */
export function nameRequestSpan(method: string, route: string): void {
  const span = trace.getActiveSpan();
  span?.updateName(`${method} ${route}`);
  span?.setAttribute("http.route", route);
}
