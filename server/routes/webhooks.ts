import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { NotFound } from "../errors.ts";
import { findOrderByPaymentId } from "../orders/store.ts";
import { handlePaymentEvent, recordPaymentEvent } from "../orders/payment.ts";
import { validateParams } from "../http/validate.ts";

const providerParam = z.object({ provider: z.string().min(1).max(20) });

/**
 * POST /api/webhooks/:provider: the configured provider verifies and reads its own call, and the
 * event is recorded, then handled. Anything verified is answered 200, even for an unknown order,
 * because providers retry every other answer for days; a recorded event that fails to be handled
 * now is handled from the queue.
 */
export function webhookRoutes(deps: AppDeps): Hono {
  const { logger, payments } = deps;
  return new Hono().post("/:provider", validateParams(providerParam), async (c) => {
    const name = c.req.valid("param").provider;
    if (name !== payments.name) {
      throw new NotFound(
        `Webhooks for ${name.slice(0, 20)} are off: the shop uses ${payments.name}`,
      );
    }
    const event = await payments.parseWebhook(await c.req.text(), c.req.raw.headers);
    if (!event) return c.json({ received: true, ignored: true });
    if (!event.orderNumber) {
      // Objects created outside this code path lack metadata; the payment id still finds them.
      const order = await findOrderByPaymentId(deps.kv, event.paymentId);
      if (order) event.orderNumber = order.orderNumber;
    }
    // Recorded before the answer: a failure here is a 5xx, which the provider retries.
    await recordPaymentEvent(deps, event);
    let status = "recorded";
    try {
      status = (await handlePaymentEvent(deps, event))?.status ?? "unknown order";
    } catch (err) {
      logger({ msg: "webhook event left to the queue", level: "warn", error: String(err) });
    }
    logger({ msg: "payment webhook", provider: name, event: event.id, type: event.type, status });
    return c.json({ received: true });
  });
}
