import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { z } from "zod";
import { switchKey } from "../../shared/bom.ts";
import { isNewForAdmin, isProcessedForAdmin, type OrderStatus } from "../../shared/status.ts";
import {
  adminOrdersQuerySchema,
  adminVerifySchema,
  idSchema,
  ordersCsvQuerySchema,
  shipChosenSchema,
  stockUpdateSchema,
  trackingSchema,
} from "../../shared/schemas.ts";
import type { AdminSessionView, AdminVerifyAnswer } from "../../shared/api_types.ts";
import type { RouteDeps } from "../deps.ts";
import { signOut } from "../staff/staff_sessions.ts";
import { checkAdminPassword } from "../staff/admin_sign_in.ts";
import { afterPassword } from "../staff/after_password.ts";
import {
  addTrackingNumber,
  cancelOrder,
  markDelivered,
  shipProcessedOrders,
  SHOP_CANCEL_REASONS,
} from "../orders/fulfilment.ts";
import { listOrderPage } from "../orders/list.ts";
import type { Order } from "../orders/order.ts";
import { newOrdersCsv } from "../orders/new_orders_csv.ts";
import { adminOrderView } from "../orders/views.ts";
import { componentKey, countShelf, ownerInventory } from "../reports/inventory.ts";
import { queueEmail } from "../email/outbox.ts";
import { orderConfirmationEmail } from "../orders/emails.ts";
import { adminCookieName, clearAdminCookie } from "../middleware/admin_auth.ts";
import { openAdminSession } from "../middleware/open_admin_session.ts";
import { actorOf } from "../middleware/actor_context.ts";
import { actorCapabilities } from "../../shared/admin_permissions.ts";
import { passwordCaller, setKnownDeviceCookie } from "../middleware/password_caller.ts";
import {
  optionalJson,
  parseWith,
  validateJson,
  validateParams,
  validateQuery,
} from "../http/validate.ts";
import { originOf } from "../middleware/shop_origin.ts";
import { auditEntry } from "../audit/log.ts";
import { clientKey } from "../middleware/client_key.ts";

/** The dashboard's status filters (docs/product.md#admin-api). */
const STATUS_FILTERS: Record<string, ((s: OrderStatus) => boolean) | undefined> = {
  new: isNewForAdmin,
  processed: isProcessedForAdmin,
  cancelled: (s) => s === "CANCELLED",
  all: undefined,
};

const orderParam = z.object({ orderNumber: z.string().min(1).max(64) });

/**
 * The admin API (docs/product.md#admin-api, docs/decisions.md#admin-authentication): enforced on
 * the server.
 */
export function adminRoutes(deps: RouteDeps): Hono {
  const { kv, clock, config, imageBase } = deps;
  const app = new Hono();

  app.post("/verify", validateJson(adminVerifySchema), async (c) => {
    const caller = passwordCaller(c, config.production);
    const { accountId, attempt } = await checkAdminPassword(deps, caller, c.req.valid("json"));
    const next = await afterPassword(deps, accountId);
    // The password was right: this device is known, whether or not a second factor follows.
    const device = await attempt.rememberDevice();
    if (next.next === "second_factor") {
      setKnownDeviceCookie(c, config.production, device);
      const { challenge, methods } = next;
      return c.json(
        { ok: false, secondFactor: { challenge, methods } } satisfies AdminVerifyAnswer,
      );
    }
    await openAdminSession(c, deps, accountId);
    setKnownDeviceCookie(c, config.production, device);
    return c.json(
      (next.mustEnrol ? { ok: true, mustEnrol: true } : { ok: true }) satisfies AdminVerifyAnswer,
    );
  });

  app.post("/logout", async (c) => {
    const token = getCookie(c, adminCookieName(config.production));
    if (token) await signOut(deps, token, clientKey(c));
    clearAdminCookie(c, config.production);
    return c.json({ ok: true });
  });

  // Every route below is signed in and authorised by the admin gate mounted in app.ts.
  app.use("*", async (c, next) => {
    await next();
    // Customer data must not linger in shared or browser caches.
    c.header("Cache-Control", "no-store");
  });

  app.get("/session", (c) => {
    const actor = actorOf(c);
    return c.json(
      {
        ok: true,
        paymentsSimulated: config.paymentsSimulated,
        accountId: actor.id,
        name: actor.name,
        role: actor.role,
        can: actorCapabilities(actor),
      } satisfies AdminSessionView,
    );
  });

  app.get("/orders", validateQuery(adminOrdersQuerySchema), async (c) => {
    const { status, q, from, to, limit, cursor } = c.req.valid("query");
    const page = await listOrderPage(kv, {
      status: STATUS_FILTERS[status],
      q: q ? q.toLowerCase() : undefined,
      from,
      to,
      limit,
      cursor,
    });
    if (page.nextCursor) c.header("X-Next-Cursor", page.nextCursor);
    return c.json(page.orders.map((o) => adminOrderView(o, imageBase)));
  });

  app.get("/orders/new/csv", validateQuery(ordersCsvQuerySchema), async (c) => {
    const { filename, body } = await newOrdersCsv(kv, c.req.valid("query"), {
      clock,
      actor: actorOf(c),
    });
    return c.body(body, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    });
  });

  app.post(
    "/orders/ship-processed",
    async (c) => {
      const body = parseWith(shipChosenSchema, await optionalJson(c.req));
      const result = await shipProcessedOrders(
        deps,
        originOf(c),
        body.orderNumbers,
        actorOf(c),
      );
      // Without a chosen set the answer stays the spec's { shippedCount }.
      return c.json(body.orderNumbers ? result : { shippedCount: result.shippedCount });
    },
  );

  app.post(
    "/orders/:orderNumber/tracking",
    validateParams(orderParam),
    validateJson(trackingSchema),
    async (c) => {
      const order = await addTrackingNumber(
        deps,
        c.req.valid("param").orderNumber,
        c.req.valid("json").trackingNumber,
        actorOf(c),
      );
      return c.json(adminOrderView(order, imageBase));
    },
  );

  app.post("/orders/:orderNumber/delivered", validateParams(orderParam), async (c) => {
    const order = await markDelivered(deps, c.req.valid("param").orderNumber, actorOf(c));
    return c.json(adminOrderView(order, imageBase));
  });

  app.post("/orders/:orderNumber/cancel", validateParams(orderParam), async (c) => {
    const order = await cancelOrder(
      deps,
      c.req.valid("param").orderNumber,
      SHOP_CANCEL_REASONS,
      actorOf(c),
    );
    return c.json(adminOrderView(order, imageBase));
  });

  app.get("/inventory", async (c) => c.json(await ownerInventory(kv, clock.now())));

  app.put(
    "/inventory/switches/:id",
    validateParams(z.object({ id: idSchema })),
    validateJson(stockUpdateSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      const entry = await countShelf(kv, switchKey(id), c.req.valid("json"), clock.now(), {
        clock,
        actor: actorOf(c),
      });
      return c.json({ id, ...entry });
    },
  );

  app.put(
    "/inventory/components/:name",
    validateParams(z.object({ name: z.string().max(40) })),
    validateJson(stockUpdateSchema),
    async (c) => {
      const name = c.req.valid("param").name;
      const entry = await countShelf(kv, componentKey(name), c.req.valid("json"), clock.now(), {
        clock,
        actor: actorOf(c),
      });
      return c.json({ name, ...entry });
    },
  );
  return app;
}

/** The dashboard's Test tab: server ping and a test order confirmation email. */
export function testRoutes(deps: RouteDeps): Hono {
  const { kv, clock, config } = deps;
  // Signed in and authorised by the admin gate mounted in app.ts.
  const app = new Hono();
  app.get(
    "/ping",
    (c) => c.text(`pong: the server is up (${new Date(clock.now()).toISOString()})`),
  );
  app.get("/test_email", async (c) => {
    const now = clock.now();
    const sample = {
      orderNumber: "STTEST000000000000",
      customerName: "Test Customer",
      email: config.shopEmail,
      items: [{ name: "Starter Pack", priceCents: 999, quantity: 1, size: null }],
      subtotalCents: 999,
      discountCents: 0,
      shippingCents: 799,
      taxCents: 100,
      totalCents: 1898,
    } as unknown as Order;
    const audit = auditEntry(clock, actorOf(c), {
      kind: "emails",
      action: "email.test_sent",
      target: config.shopEmail,
    });
    await queueEmail(kv, clock, orderConfirmationEmail(sample, originOf(c)), null, audit);
    return c.text(
      `Test order confirmation queued for ${config.shopEmail} at ${new Date(now).toISOString()}`,
    );
  });
  return app;
}
