import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { NotFound } from "../errors.ts";
import { receiveWebhookEvent } from "../orders/payment.ts";
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
    const status = await receiveWebhookEvent(deps, event);
    logger({ msg: "payment webhook", provider: name, event: event.id, type: event.type, status });
    return c.json({ received: true });
  });
}
