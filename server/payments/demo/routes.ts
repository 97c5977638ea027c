import type { AppDeps } from "../../deps.ts";
import { PaymentDeclined } from "../../errors.ts";
import { handlePaymentEvent, notePaymentFailure } from "../../orders/payment.ts";
import type { Order } from "../../orders/order.ts";
import { step } from "../../orders/steps.ts";
import { findOrder, findOrderEntry } from "../../orders/store.ts";
import {
  chargeDemoPayment,
  type DemoPayInput,
  type DemoPayment,
  getDemoPayment,
} from "./provider.ts";
import { Hono } from "hono";
import { z } from "zod";
import { demoPaySchema } from "../../../shared/schemas.ts";
import { NotFound } from "../../errors.ts";
import { publicOrderView } from "../../orders/public_view.ts";
import { validateJson, validateParams } from "../../middleware/validate.ts";
import type { DemoPayAnswer, DemoSessionView } from "../../../shared/api_types.ts";

type Deps = AppDeps & { imageBase: string };

const idParam = z.object({ id: z.string().min(1).max(120) });

/**
 * The demo payment provider's own endpoints (the demo provider contract): the hosted checkout
 * page's summary and pay call, and the embedded form's confirm call. 404 when another provider
 * is configured.
 */
export function demoRoutes(deps: Deps): Hono {
  const { kv, clock, imageBase } = deps;
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
      ? await findOrder(kv, payment.orderNumber)
      : null;
    if (!payment || !order) throw new NotFound("Checkout session not found");
    return c.json(
      {
        id: payment.id,
        status: payment.status,
        region: payment.region,
        expiresAt: payment.expiresAt ? new Date(payment.expiresAt).toISOString() : null,
        order: publicOrderView(order, imageBase, clock.now()),
      } satisfies DemoSessionView,
    );
  });

  app.post(
    "/checkout-sessions/:id/pay",
    validateParams(idParam),
    validateJson(demoPaySchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const paid = await payDemo(deps, id, "checkout_session", c.req.valid("json"));
      return c.json(
        {
          ok: true,
          orderNumber: paid.orderNumber,
          status: paid.status,
          redirectUrl: `/order-success?session_id=${id}`,
        } satisfies DemoPayAnswer,
      );
    },
  );

  app.post(
    "/payment-intents/:id/confirm",
    validateParams(idParam),
    validateJson(demoPaySchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const paid = await payDemo(deps, id, "payment_intent", c.req.valid("json"));
      return c.json(
        {
          ok: true,
          orderNumber: paid.orderNumber,
          status: paid.status,
          redirectUrl: `/completion?payment_intent=${id}&redirect_status=succeeded`,
        } satisfies DemoPayAnswer,
      );
    },
  );
  return app;
}

/**
 * The demo provider's pay calls as the shop sees them: the provider takes the payment (recording
 * its event in the same write), then the shop handles the event at once, as it would a webhook.
 * A declined card leaves a note on the order; its hold stands, so another card can be tried.
 */
async function payDemo(
  deps: AppDeps,
  id: string,
  kind: DemoPayment["kind"],
  body: DemoPayInput,
): Promise<Order> {
  let event;
  // The order is read while the charge commits: its number is known once the payment is read.
  let orderRead: Promise<Deno.KvEntry<Order> | null> | undefined;
  const readOrder = (orderNumber: string) => {
    orderRead ??= findOrderEntry(deps.kv, orderNumber);
    orderRead.catch(() => {});
  };
  try {
    event = await step(
      deps,
      "charge",
      () => chargeDemoPayment(deps.kv, deps.clock, id, kind, body, readOrder),
    );
  } catch (err) {
    const payment = err instanceof PaymentDeclined ? await getDemoPayment(deps.kv, id) : null;
    if (payment) await notePaymentFailure(deps, payment.orderNumber, (err as Error).message);
    throw err;
  }
  const order = await handlePaymentEvent(deps, event, orderRead);
  return order ?? (await findOrder(deps.kv, event.orderNumber))!;
}
