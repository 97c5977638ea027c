import { Hono } from "hono";
import { z } from "zod";
import { demoPaySchema } from "../../../shared/schemas.ts";
import type { DemoPayAnswer, DemoSessionView } from "../../../shared/api_types.ts";
import { NotFound } from "../../errors.ts";
import { validateJson, validateParams } from "../../http/validate.ts";
import type { ProviderRouteDeps } from "../provider.ts";
import {
  chargeDemoPayment,
  type DemoPayInput,
  type DemoPayment,
  getDemoPayment,
} from "./provider.ts";

const idParam = z.object({ id: z.string().min(1).max(120) });

/**
 * The demo payment provider's own endpoints (the demo provider contract): the hosted checkout
 * page's summary and pay call, and the embedded form's confirm call. 404 when another provider
 * is configured.
 */
export function demoRoutes(deps: ProviderRouteDeps): Hono {
  const { kv, clock, desk } = deps;
  const app = new Hono();
  app.use("*", async (_c, next) => {
    if (deps.payments.name !== "demo") {
      throw new NotFound(
        `Demo payments are off: ${deps.payments.label} is configured`,
      );
    }
    await next();
  });

  app.get("/checkout-sessions/:id", validateParams(idParam), async (c) => {
    const payment = await getDemoPayment(kv, c.req.valid("param").id);
    const order = payment?.kind === "checkout_session"
      ? await desk.orderView(payment.orderNumber)
      : null;
    if (!payment || !order) throw new NotFound("Checkout session not found");
    return c.json(
      {
        id: payment.id,
        status: payment.status,
        region: payment.region,
        expiresAt: payment.expiresAt ? new Date(payment.expiresAt).toISOString() : null,
        order,
      } satisfies DemoSessionView,
    );
  });

  /** Takes a demo payment through the shop's desk, then says where its page goes next. */
  async function pay(
    kind: DemoPayment["kind"],
    id: string,
    body: DemoPayInput,
    redirectUrl: string,
  ): Promise<DemoPayAnswer> {
    const paid = await desk.takePayment(
      (orderNumberKnown) => chargeDemoPayment(kv, clock, id, kind, body, orderNumberKnown),
      async () => (await getDemoPayment(kv, id))?.orderNumber ?? null,
    );
    return { ok: true, orderNumber: paid.orderNumber, status: paid.status, redirectUrl };
  }

  app.post(
    "/checkout-sessions/:id/pay",
    validateParams(idParam),
    validateJson(demoPaySchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const redirect = `/order-success?session_id=${id}`;
      return c.json(await pay("checkout_session", id, c.req.valid("json"), redirect));
    },
  );

  app.post(
    "/payment-intents/:id/confirm",
    validateParams(idParam),
    validateJson(demoPaySchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const redirect = `/completion?payment_intent=${id}&redirect_status=succeeded`;
      return c.json(await pay("payment_intent", id, c.req.valid("json"), redirect));
    },
  );
  return app;
}
