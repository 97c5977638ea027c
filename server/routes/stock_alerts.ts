import { Hono } from "hono";
import { escapeHtml } from "../../shared/html.ts";
import { SHOP_NAME } from "../../shared/policy.ts";
import { stockAlertSchema, unsubscribeQuerySchema } from "../../shared/schemas.ts";
import type { AppDeps } from "../deps.ts";
import { hitRateLimit, type RateLimit } from "../kv/rate_limit.ts";
import { removeStockAlert } from "../stock/back_in_stock/store.ts";
import { signUp } from "../stock/back_in_stock/alerts.ts";
import { clientKey } from "../middleware/client_key.ts";
import { originOf } from "../middleware/shop_origin.ts";
import { validateJson, validateQuery } from "../http/validate.ts";

/** Per client: 20 sign-ups per 10 minutes (each may become an email). */
export const STOCK_ALERT_LIMIT: RateLimit = {
  bucket: "stock-alert",
  max: 20,
  windowMs: 10 * 60_000,
};

/** `POST /api/stock-alerts`: "Email me when it's back". */
export function stockAlertRoutes(deps: AppDeps): Hono {
  const { kv, clock } = deps;
  return new Hono().post("/", validateJson(stockAlertSchema), async (c) => {
    await hitRateLimit(
      kv,
      clock,
      STOCK_ALERT_LIMIT,
      clientKey(c),
      "Too many sign-ups. Please wait a few minutes and try again.",
    );
    const { email, switchId, productId } = c.req.valid("json");
    const target = switchId !== undefined ? { switchId } : { productId: productId! };
    await signUp(deps, email, target, originOf(c));
    return c.json({ ok: true });
  });
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${
    escapeHtml(title)
  } | ${escapeHtml(SHOP_NAME)}</title></head><body><main><h1>${
    escapeHtml(title)
  }</h1>${body}<p><a href="/">Back to the shop</a></p></main></body></html>`;
}

/**
 * The unsubscribe link of a back-in-stock email. Opening it asks (a mail scanner's GET must not
 * unsubscribe anyone); the button's POST removes the sign-up.
 */
export function unsubscribeRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  app.get("/unsubscribe", validateQuery(unsubscribeQuerySchema), (c) => {
    const { token } = c.req.valid("query");
    return c.html(page(
      "Stop back-in-stock emails?",
      `<form method="post" action="/stock-alerts/unsubscribe?token=${
        escapeHtml(token)
      }"><button type="submit">Unsubscribe</button></form>`,
    ));
  });
  app.post("/unsubscribe", validateQuery(unsubscribeQuerySchema), async (c) => {
    const removed = await removeStockAlert(deps.kv, c.req.valid("query").token);
    return c.html(page(
      "Unsubscribed",
      removed
        ? "<p>You will not get an email when it is back in stock.</p>"
        : "<p>There was nothing to unsubscribe from: this sign-up was already removed.</p>",
    ));
  });
  return app;
}
