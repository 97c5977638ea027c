import { Hono } from "hono";
import { escapeHtml } from "../../shared/html.ts";
import { SHOP_NAME } from "../../shared/policy.ts";
import {
  stockAlertConfirmQuerySchema,
  stockAlertSchema,
  unsubscribeQuerySchema,
} from "../../shared/schemas.ts";
import type { StockAlertAnswer } from "../../shared/api_types.ts";
import type { AppDeps } from "../deps.ts";
import { hitRateLimit, type RateLimit } from "../kv/rate_limit.ts";
import {
  confirmAlertAddress,
  confirmLinkWorks,
  removeStockAlert,
} from "../stock/back_in_stock/store.ts";
import { optionalUser } from "../middleware/user_auth.ts";
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
    // A signed-in shopper's own address needs no confirmation; the answer says only that.
    const own = (await optionalUser(deps, c))?.email === email;
    await signUp(deps, email, target, originOf(c), own);
    return c.json({ ok: true, checkInbox: !own } satisfies StockAlertAnswer);
  });
}

/** A plain page of the shop (the links emails carry land on these). */
export function page(title: string, body: string): string {
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

const STALE_LINK =
  "<p>This confirmation link has expired or was already used. If you confirmed it, you are all set. Otherwise ask again from the item's page: a new link will be emailed.</p>";

/**
 * The confirmation link of a back-in-stock sign-up, which works as the unsubscribe link does:
 * opening it asks (a mail scanner's GET must not confirm anyone), the button's POST confirms the
 * address. The pages carry a token, so no cache keeps them.
 */
export function confirmRoutes(deps: AppDeps): Hono {
  const { kv, clock } = deps;
  const app = new Hono();
  app.get("/confirm", validateQuery(stockAlertConfirmQuerySchema), async (c) => {
    const { token } = c.req.valid("query");
    c.header("Cache-Control", "no-store");
    if (!await confirmLinkWorks(kv, token, clock.now())) {
      return c.html(page("Link expired", STALE_LINK), 404);
    }
    return c.html(page(
      "Confirm back-in-stock emails?",
      `<p>We will email this address once each time something it asked for is back in stock.</p><form method="post" action="/stock-alerts/confirm?token=${
        escapeHtml(token)
      }"><button type="submit">Confirm</button></form>`,
    ));
  });
  app.post("/confirm", validateQuery(stockAlertConfirmQuerySchema), async (c) => {
    const { token } = c.req.valid("query");
    c.header("Cache-Control", "no-store");
    if (!await confirmAlertAddress(kv, token, clock.now())) {
      return c.html(page("Link expired", STALE_LINK), 404);
    }
    return c.html(page(
      "Confirmed",
      "<p>Thank you. We will email you once when what you asked for is back in stock. Anything you ask for later is confirmed with the next link we email you.</p>",
    ));
  });
  return app;
}
