import { Hono } from "hono";
import { z } from "zod";
import { demoPaySchema } from "../../shared/schemas.ts";
import type { AppDeps } from "../deps.ts";
import { BadRequest, Conflict, HttpError, NotFound } from "../errors.ts";
import { applyOrderPromo, findOrder, type Order, recordPaymentFailure } from "../db/orders.ts";
import { publicOrderView } from "../db/order_views.ts";
import { getPromo } from "../db/promo.ts";
import {
  checkDemoCard,
  demoEventId,
  type DemoPayment,
  getDemoPayment,
  saveDemoPayment,
} from "../payments/demo.ts";
import { handlePaymentEvent } from "../payments/events.ts";
import type { PaidDetails } from "../payments/provider.ts";
import { validateJson, validateParams } from "../middleware/validate.ts";
import { originOf } from "./orders.ts";

type Deps = AppDeps & { imageBase: string };

const idParam = z.object({ id: z.string().min(1).max(120) });

/**
 * The demo payment provider's own endpoints (DESIGN.md section 4 contract): the hosted checkout
 * page's summary and pay call, and the embedded form's confirm call. 404 when Stripe is on.
 */
export function demoRoutes(deps: Deps): Hono {
  const { kv, clock, imageBase, config } = deps;
  const app = new Hono();
  app.use("*", async (_c, next) => {
    if (deps.payments.name !== "demo") {
      throw new NotFound("Demo payments are off: Stripe is configured");
    }
    await next();
  });

  async function load(id: string, kind: DemoPayment["kind"]): Promise<[DemoPayment, Order]> {
    const payment = await getDemoPayment(kv, id);
    const order = payment?.kind === kind ? await findOrder(kv, payment.orderNumber) : null;
    if (!payment || !order) {
      throw new NotFound(
        kind === "checkout_session" ? "Checkout session not found" : "Payment not found",
      );
    }
    return [payment, order];
  }

  app.get("/checkout-sessions/:id", validateParams(idParam), async (c) => {
    const [payment, order] = await load(c.req.valid("param").id, "checkout_session");
    return c.json({
      id: payment.id,
      status: payment.status,
      expiresAt: payment.expiresAt ? new Date(payment.expiresAt).toISOString() : null,
      order: publicOrderView(order, imageBase, clock.now()),
    });
  });

  async function pay(
    payment: DemoPayment,
    order: Order,
    body: z.infer<typeof demoPaySchema>,
    origin: string,
  ): Promise<Order> {
    if (payment.status === "succeeded") return order;
    if (payment.status !== "open" || order.status === "CANCELLED") {
      throw new Conflict(
        "This checkout was replaced or cancelled. Return to your cart to check out again.",
      );
    }
    if (order.status !== "STARTED" || order.reservation.expiresAt <= clock.now()) {
      throw new Conflict(
        "This checkout has expired and its items were released. Return to your cart to check out again.",
      );
    }
    if (body.businessPurchase && !body.taxId) {
      throw new BadRequest("Enter your VAT or Tax ID to purchase as a business");
    }
    let current = order;
    if (body.promoCode?.trim()) {
      current = await applyOrderPromo(
        kv,
        clock,
        order.orderNumber,
        await getPromo(kv, body.promoCode),
      );
    }
    const card = checkDemoCard(body.cardNumber);
    if (!card.ok) {
      await recordPaymentFailure(kv, clock, order.orderNumber, card.message);
      throw new HttpError(402, card.message);
    }
    // The charge happens first; recording it may be retried by a poll if this process dies now.
    await saveDemoPayment(kv, { ...payment, status: "succeeded", amountCents: current.totalCents });
    const details: PaidDetails = {
      email: body.email ?? null,
      customerName: body.name ?? null,
      address: body.address ?? null,
      taxId: body.businessPurchase && body.taxId
        ? { type: "vat_or_tax_id", value: body.taxId }
        : null,
    };
    const recorded = await handlePaymentEvent(deps, {
      id: demoEventId(payment.id),
      type: "paid",
      orderNumber: order.orderNumber,
      paymentId: payment.id,
      details,
    }, origin);
    return recorded ?? current;
  }

  app.post(
    "/checkout-sessions/:id/pay",
    validateParams(idParam),
    validateJson(demoPaySchema),
    async (c) => {
      const [payment, order] = await load(c.req.valid("param").id, "checkout_session");
      const paid = await pay(payment, order, c.req.valid("json"), originOf(c, config.publicUrl));
      return c.json({
        ok: true,
        orderNumber: paid.orderNumber,
        status: paid.status,
        redirectUrl: `/order-success?session_id=${payment.id}`,
      });
    },
  );

  app.post(
    "/payment-intents/:id/confirm",
    validateParams(idParam),
    validateJson(demoPaySchema),
    async (c) => {
      const [payment, order] = await load(c.req.valid("param").id, "payment_intent");
      const paid = await pay(payment, order, c.req.valid("json"), originOf(c, config.publicUrl));
      return c.json({
        ok: true,
        orderNumber: paid.orderNumber,
        status: paid.status,
        redirectUrl: `/completion?payment_intent=${payment.id}&redirect_status=succeeded`,
      });
    },
  );
  return app;
}
