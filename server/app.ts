import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppDeps } from "./deps.ts";
import { DomainError } from "./errors.ts";
import { createErrorHandler } from "./middleware/error_handler.ts";
import { clientAddress } from "./middleware/client_key.ts";
import { requestLog } from "./middleware/request_log.ts";
import { requestIdOnEveryAnswer } from "./middleware/request_id.ts";
import { securityHeaders } from "./middleware/security.ts";
import { shopOrigin } from "./middleware/shop_origin.ts";
import { sameOriginWrites } from "./middleware/same_origin_writes.ts";
import { noStoreByDefault } from "./middleware/no_store.ts";
import { spanRoute } from "./middleware/span_route.ts";
import { whileStopping } from "./middleware/while_stopping.ts";
import { healthRoutes, readyRoutes } from "./routes/health.ts";
import { catalogRoutes } from "./routes/catalog.ts";
import { cartRoutes } from "./routes/cart.ts";
import { contactRoutes } from "./routes/contact.ts";
import { checkoutRoutes, orderRoutes } from "./routes/orders.ts";
import { paymentCspHosts, providerRoutes } from "./payments/registry.ts";
import { shopDesk } from "./orders/provider_pages.ts";
import { THEME_SCRIPT_SOURCE } from "./ssr/theme_script.ts";
import { APP_LOADER_SOURCE } from "./ssr/app_loader.ts";
import { adminRoutes, testRoutes } from "./routes/admin.ts";
import { adminPromoRoutes } from "./routes/admin_promos.ts";
import { adminCatalogRoutes, IMAGE_UPLOAD_PATH } from "./routes/admin_catalog.ts";
import { adminNoticeRoutes, noticeRoutes } from "./routes/notice.ts";
import { adminEmailRoutes } from "./routes/admin_emails.ts";
import { adminAuditRoutes } from "./routes/admin_audit.ts";
import { adminReportRoutes } from "./routes/admin_reports.ts";
import { adminApiKeyRoutes } from "./routes/admin_api_keys.ts";
import { adminGate } from "./middleware/admin_roles.ts";
import { adminFactorRoutes } from "./routes/admin_factors.ts";
import { adminSessionRoutes, adminStaffRoutes, inviteRoutes } from "./routes/admin_staff.ts";
import { buildStockRoutes } from "./routes/build_stock.ts";
import { confirmRoutes, stockAlertRoutes, unsubscribeRoutes } from "./routes/stock_alerts.ts";
import { authRoutes } from "./routes/auth.ts";
import { dropConfirmRoutes, dropRoutes } from "./routes/drops.ts";
import { adminDropRoutes } from "./routes/admin_drops.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import { imageRoutes } from "./routes/images.ts";
import { LOCAL_IMAGE_BASE } from "../shared/images.ts";
import { staticRoutes } from "./ssr/page_server.ts";
import { apiReader } from "./ssr/api_reader.ts";
import { devStaticRoutes } from "./dev_reload.ts";
import { useClock } from "./kv/version.ts";

/** Largest request body any route accepts. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Builds the whole shop: the JSON API under /api and the client for every other path. */
export function createApp(deps: AppDeps): Hono {
  const { config, logger, clock } = deps;
  useClock(deps.kv, clock);
  const app = new Hono();
  app.onError(createErrorHandler(logger));
  app.use("*", spanRoute());
  app.use("*", requestIdOnEveryAnswer());
  // Every request, pages, assets and images too, and those a later middleware refuses.
  app.use("*", requestLog(logger, clock, config.logRequests));
  app.use("*", clientAddress(config.trustedProxies, config.clientIpv6Prefix));
  app.use(
    "*",
    securityHeaders(config.production, {
      inlineScripts: [THEME_SCRIPT_SOURCE, APP_LOADER_SOURCE],
      payments: paymentCspHosts(),
      imageBaseUrl: config.imageBaseUrl,
    }),
  );
  // After the log and the headers (a refusal is logged and carries them), before anything reads a
  // body: the body limit below reads a streamed one whole.
  app.use("*", whileStopping(deps.shutdown));
  app.use("*", shopOrigin(config, deps.listenPort));
  for (const path of ["/api/*", "/auth/*"]) {
    app.use(path, sameOriginWrites());
    app.use(path, noStoreByDefault());
  }
  const appBodyLimit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new DomainError(
        "too_large",
        `The request body is larger than ${MAX_BODY_BYTES / 1024} KB`,
      );
    },
  });
  // An image upload has its own limit (1 MB), set on its route.
  app.use(
    "*",
    (c, next) =>
      c.req.method === "PUT" && IMAGE_UPLOAD_PATH.test(c.req.path) ? next() : appBodyLimit(c, next),
  );

  const routeDeps = { ...deps, imageBase: config.imageBaseUrl ?? LOCAL_IMAGE_BASE };
  app.route("/api/health", healthRoutes(deps));
  app.route("/api/ready", readyRoutes(deps));
  app.route("/api", catalogRoutes(routeDeps));
  app.route("/api/cart", cartRoutes(routeDeps));
  app.route("/api", contactRoutes(deps));
  app.route("/api/cart", checkoutRoutes(routeDeps));
  app.route("/api", orderRoutes(routeDeps));
  // Routes of the payment providers' own (the demo provider's pages).
  const providerDeps = { kv: deps.kv, clock, payments: deps.payments, desk: shopDesk(routeDeps) };
  for (const [path, routes] of providerRoutes(providerDeps)) app.route(path, routes);
  app.route("/api", noticeRoutes(deps));
  app.route("/api/stock-alerts", stockAlertRoutes(deps));
  app.route("/api/build-stock", buildStockRoutes(routeDeps));
  // Its pages carry a link's token and answer for one mailbox: never kept by a cache.
  app.use("/stock-alerts/*", noStoreByDefault());
  app.route("/stock-alerts", unsubscribeRoutes(deps));
  app.route("/stock-alerts", confirmRoutes(deps));
  app.route("/api/drops", dropRoutes(deps));
  app.use("/drop-alerts/*", noStoreByDefault());
  app.route("/drop-alerts", dropConfirmRoutes(deps));
  // Every admin route, once: who is asking, then whether their role may (the shared table).
  for (const path of ["/api/admin/*", "/api/test/*"]) {
    app.use(path, adminGate(deps));
  }
  app.route("/api/admin/promos", adminPromoRoutes(deps));
  app.route("/api/admin/drops", adminDropRoutes(deps));
  app.route("/api/admin/catalog", adminCatalogRoutes(routeDeps));
  app.route("/api/admin/notice", adminNoticeRoutes(deps));
  app.route("/api/admin/emails", adminEmailRoutes(deps));
  app.route("/api/admin/api-keys", adminApiKeyRoutes(deps));
  app.route("/api/admin/staff", adminStaffRoutes(deps));
  app.route("/api/admin/sessions", adminSessionRoutes(deps));
  app.route("/api/admin/invite", inviteRoutes(deps));
  app.route("/api/admin", adminReportRoutes(deps));
  app.route("/api/admin", adminAuditRoutes(deps));
  app.route("/api/admin", adminFactorRoutes(deps));
  app.route("/api/admin", adminRoutes(routeDeps));
  app.route("/api/test", testRoutes(routeDeps));
  app.route("/api/webhooks", webhookRoutes(routeDeps));

  app.route("/auth", authRoutes(routeDeps));
  app.all(
    "/auth/*",
    (c) => c.json({ error: `No route ${c.req.method} ${shortPath(c.req.path)}` }, 404),
  );
  app.all(
    "/drop-alerts/*",
    (c) => c.json({ error: `No route ${c.req.method} ${shortPath(c.req.path)}` }, 404),
  );
  app.all(
    "/stock-alerts/*",
    (c) => c.json({ error: `No route ${c.req.method} ${shortPath(c.req.path)}` }, 404),
  );
  app.all(
    "/api/*",
    (c) => c.json({ error: `No API route ${c.req.method} ${shortPath(c.req.path)}` }, 404),
  );
  app.route("/images", imageRoutes(deps));
  // `deno task dev` only (it sets SHOP_DEV_RELOAD=1): rebuilt client files and live reload.
  const statics = config.devReload ? devStaticRoutes : staticRoutes;
  app.route(
    "/",
    statics(config.distDir, routeDeps.imageBase, apiReader(app), {
      clock,
      logger,
      rendersPerClient: config.renders.pagesPerClient,
      rendersPerShop: config.renders.pagesPerShop,
      cacheBytes: config.renders.pageCacheBytes,
    }),
  );
  return app;
}

/** A path as error messages repeat it: never more than 100 characters of what a client sent. */
function shortPath(path: string): string {
  return path.length > 100 ? `${path.slice(0, 100)}…` : path;
}
